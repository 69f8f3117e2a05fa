// The advertiser page's recommendations: rendered on the server with the data it read (so a
// page without script still shows them), then kept in the hub's list store, which loads them by
// the spec's rule (start remembers the parameters, success keeps the data, failure leaves it
// empty with the error shown until cleared). A person who may answer accepts, snoozes or
// dismisses one; the list then loads again.
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { apiFetch } from "~/runtime/fetch.ts";
import { hubLists, listAction, listFailed, listLoaded, loadList, type ListShape } from "./list-store.ts";
import { mayMove, SHOWN_STATES, type PersonState, type Recommendation } from "./recommendations.ts";

export interface RecommendationStrings {
  title: string;
  empty: string;
  loading: string;
  failed: string;
  clearError: string;
  kinds: Record<string, { title: string; body: string }>;
  states: Record<string, string>;
  actions: Record<"ACCEPTED" | "SNOOZED" | "DISMISSED", string>;
}

interface RecommendationsProps {
  adAccountId: string;
  initial: Recommendation[];
  mayAnswer: boolean;
  strings: RecommendationStrings;
}

const RECOMMENDATIONS_PATH = "/ads/v4/notification_messages/RECOMMENDATIONS/";
const SHAPE: ListShape = { arrays: [], emptyOnError: true };
const ACTIONS = ["ACCEPTED", "SNOOZED", "DISMISSED"] as const satisfies readonly PersonState[];

/** "{{minimum}}" and the like, filled from a recommendation's details. */
const fill = (text: string, details: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(details[key] ?? ""));

export default function RecommendationsPanel({ adAccountId, initial, mayAnswer, strings }: RecommendationsProps) {
  const key = `recommendations:${adAccountId}`;
  const lists = useStore(hubLists);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    listLoaded(key, initial, SHAPE);
  }, [key, initial]);
  const list = lists[key];
  const items = ((list?.status === "success" || list?.status === "loading" || list?.status === "error" ? list.items : initial) as Recommendation[]).filter((item) => SHOWN_STATES.includes(item.state));
  const params = { recipient_id: adAccountId, recipient_type: "ADVERTISER" };
  const reload = () => loadList(key, RECOMMENDATIONS_PATH, list?.params ?? params, SHAPE, strings.failed, (url) => apiFetch(url), (body) => (body as { resource_response?: { data?: unknown } } | null)?.resource_response?.data);

  async function answer(item: Recommendation, state: (typeof ACTIONS)[number]) {
    setBusy(item.id);
    try {
      const response = await apiFetch(`${RECOMMENDATIONS_PATH}${item.kind}/?${new URLSearchParams(params).toString()}`, { method: "PUT", body: JSON.stringify({ state }), headers: { "Content-Type": "application/json" } });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { resource_response?: { message?: string } } | null;
        // A refused answer keeps the list as it is, with the reason until cleared.
        listFailed(key, body?.resource_response?.message ?? strings.failed, { arrays: [] });
        return;
      }
      await reload();
    } catch {
      listFailed(key, strings.failed, { arrays: [] });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="hub-section" aria-labelledby="recommendations-title" aria-busy={list?.status === "loading"}>
      <h2 id="recommendations-title">{strings.title}</h2>
      {list?.error && (
        <div className="hub-error" role="alert">
          {list.error}{" "}
          <button type="button" className="button" onClick={() => listAction(key, { type: "clearError" })}>
            {strings.clearError}
          </button>
        </div>
      )}
      {list?.status === "loading" && <p role="status">{strings.loading}</p>}
      {items.length === 0 ? (
        <p>{strings.empty}</p>
      ) : (
        <ul className="hub-list" data-recommendations>
          {items.map((item) => (
            <li key={item.id} data-kind={item.kind} data-state={item.state}>
              <h3>{strings.kinds[item.kind]?.title}</h3>
              <p>{fill(strings.kinds[item.kind]?.body ?? "", item.details)}</p>
              <p>{strings.states[item.state]}</p>
              {mayAnswer && (
                <div className="hub-inline">
                  {ACTIONS.filter((state) => mayMove(item.state, state)).map((state) => (
                    <button key={state} type="button" className="button" disabled={busy !== null} onClick={() => void answer(item, state)}>
                      {strings.actions[state]}
                      <span className="visually-hidden">: {strings.kinds[item.kind]?.title}</span>
                    </button>
                  ))}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
