// The browser's experiences (spec 002 §4 "Experiences"): one nanostores map, keyed by placement
// id, of the experience each placement shows. It is filled per placement (from GET /_/_/state's
// answer when the page had one, else UserExperienceResource get); viewed updates an
// experience's status; completed or dismissed removes it. Writes go through the resources, the
// placed id sent as the spec writes it ("placement%3Aexperience").
import { map } from "nanostores";
import { resource, type Transport } from "~/api/api.client.ts";
import type { Experience, ExperienceStatus } from "./experiences.ts";

/** The calls the store makes; tests give their own transport. */
export interface ExperienceApi {
  fetch(placementIds: readonly number[]): Promise<Record<string, Experience | undefined>>;
  viewed(placed: string): Promise<unknown>;
  completed(placed: string, extraContext?: Record<string, string | number | boolean>): Promise<unknown>;
  dismissed(placed: string): Promise<unknown>;
}

/** The spec's form of a placed id in a write: its colon percent-encoded. */
const encodePlacedId = (placed: string): string => encodeURIComponent(placed);

export function resourceApi(transport?: Transport): ExperienceApi {
  const write = (name: string, action: "update" | "delete", placed: string, extraContext?: Record<string, string | number | boolean>) =>
    resource(name, action, { placed_experience_id: encodePlacedId(placed), ...(extraContext ? { extra_context: extraContext } : {}) }, transport);
  return {
    fetch: (placementIds) => resource("UserExperienceResource", "get", { placement_ids: [...placementIds] }, transport),
    viewed: (placed) => write("UserExperienceViewedResource", "update", placed),
    completed: (placed, extraContext) => write("UserExperienceCompletedResource", "update", placed, extraContext),
    dismissed: (placed) => write("UserExperienceResource", "delete", placed),
  };
}

/** One placement's answer, as the state's experiences carry it (a list) or the resource (one). */
function firstOf(value: unknown): Experience | undefined {
  const entry = Array.isArray(value) ? value[0] : value;
  return entry !== null && typeof entry === "object" && "placed_experience_id" in entry ? (entry as Experience) : undefined;
}

export function createExperienceStore(api: ExperienceApi) {
  const $experiences = map<Record<string, Experience | undefined>>({});
  /** Placements already asked for on this page: each is fetched once. */
  const asked = new Map<number, Promise<void>>();

  const placementOf = (placed: string) => Object.keys($experiences.get()).find((key) => $experiences.get()[key]?.placed_experience_id === placed);
  const setStatus = (placed: string, status: ExperienceStatus) => {
    const key = placementOf(placed);
    const current = key === undefined ? undefined : $experiences.get()[key];
    if (key !== undefined && current) $experiences.setKey(key, { ...current, status });
  };
  const remove = (placed: string) => {
    const key = placementOf(placed);
    if (key !== undefined) $experiences.setKey(key, undefined);
  };

  return {
    $experiences,
    /**
     * Takes the answer GET /_/_/state gave (every placement): those placements need no call of
     * their own. Placements it does not name have none for this viewer.
     */
    seed(byPlacement: Record<string, unknown>, placementIds: readonly number[]): void {
      for (const id of placementIds) {
        const experience = firstOf(byPlacement[String(id)]);
        $experiences.setKey(String(id), experience);
        asked.set(id, Promise.resolve());
      }
    },
    /** Fetches the placements not yet asked for, in one call. */
    async load(placementIds: readonly number[]): Promise<void> {
      const missing = [...new Set(placementIds)].filter((id) => !asked.has(id));
      if (missing.length > 0) {
        const request = api.fetch(missing).then((answer) => {
          for (const id of missing) $experiences.setKey(String(id), firstOf(answer[String(id)]));
        });
        for (const id of missing) asked.set(id, request);
        try {
          await request;
        } catch (error) {
          for (const id of missing) asked.delete(id);
          throw error;
        }
      }
      await Promise.all(placementIds.map((id) => asked.get(id)));
    },
    experienceIn: (placementId: number): Experience | undefined => $experiences.get()[String(placementId)],
    /** Viewed: recorded, then the status says so. */
    async markViewed(placed: string): Promise<void> {
      await api.viewed(placed);
      setStatus(placed, "viewed");
    },
    /** Completed: recorded, then gone from the store. */
    async complete(placed: string, extraContext?: Record<string, string | number | boolean>): Promise<void> {
      await api.completed(placed, extraContext);
      remove(placed);
    },
    /** Dismissed: recorded, then gone from the store. */
    async dismiss(placed: string): Promise<void> {
      await api.dismissed(placed);
      remove(placed);
    },
  };
}
