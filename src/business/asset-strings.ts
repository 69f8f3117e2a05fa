// The recommendations island's words, translated on the server (islands carry no tables).
import type { TFunction } from "i18next";
import { NOTIFICATION_STATES, RECOMMENDATION_KINDS } from "./recommendations.ts";
import type { RecommendationStrings } from "./RecommendationsPanel.tsx";

export function recommendationStrings(t: TFunction): RecommendationStrings {
  // The island fills {{minimum}} and {{currency}} from each recommendation's details.
  const raw = { interpolation: { escapeValue: false }, minimum: "{{minimum}}", currency: "{{currency}}", campaigns: "{{campaigns}}" };
  return {
    title: t("business:recommendations.title"),
    empty: t("business:recommendations.empty"),
    loading: t("business:recommendations.loading"),
    failed: t("business:table.failed"),
    clearError: t("business:recommendations.clearError"),
    kinds: Object.fromEntries(RECOMMENDATION_KINDS.map((kind) => [kind, { title: t(`business:recommendations.kinds.${kind}.title`), body: t(`business:recommendations.kinds.${kind}.body`, raw) }])),
    states: Object.fromEntries(NOTIFICATION_STATES.map((state) => [state, t(`business:recommendations.states.${state}`)])),
    actions: { ACCEPTED: t("business:recommendations.actions.ACCEPTED"), SNOOZED: t("business:recommendations.actions.SNOOZED"), DISMISSED: t("business:recommendations.actions.DISMISSED") },
  };
}
