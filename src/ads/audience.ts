// Who may be shown promoted pins at all (docs/decisions.md, "Promoted pins in feeds"): a
// signed-in person with a full login, a real browser (crawlers, search caches and server-only
// requests get organic HTML only), whose marketing consent allows it where the law asks first.
// Signed-out pages are shared through the edge cache with crawlers and everyone else, so they
// stay organic. Pure, so the rule is tested directly.
import { allows, type ConsentState } from "~/consent/consent.ts";

interface AudienceFacts {
  viewerType: "AUTH" | "UNAUTH" | "LIMITED_LOGIN";
  isBot: boolean;
  noClientScript: boolean;
  consent: ConsentState;
}

export function mayServeAds(facts: AudienceFacts): boolean {
  return facts.viewerType === "AUTH" && !facts.isBot && !facts.noClientScript && allows(facts.consent, "marketing");
}
