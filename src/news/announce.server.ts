// Every news item recorded reaches its recipient's open tabs: the Worker hands its handlers a
// D1 binding whose batch, once it has committed, reads who its news statements recorded items
// for (record.server.ts recipientsOf) and pokes their channels (src/messaging/). Done here, at
// the binding, rather than at each of the writers that record news (saves, follows, comments,
// invites, publishing): a writer added later cannot forget it. The poke runs after the answer
// (waitUntil) and never fails the write; a failure is logged as a metric.
import { notifyChannels } from "~/messaging/live.server.ts";
import { recipientsOf } from "./record.server.ts";

/** `env` with a DB whose committed batches announce the news they recorded. */
export function announcingNews(env: Env, waitUntil: (work: Promise<unknown>) => void): Env {
  const db = env.DB;
  const batch = async <T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> => {
    const results = await db.batch<T>(statements);
    const told = recipientsOf(statements, results);
    if (told.length > 0) waitUntil(notifyChannels(env, told, "news"));
    return results;
  };
  const announcing = new Proxy(db, {
    get(target, property) {
      if (property === "batch") return batch;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...env, DB: announcing };
}
