// What the edge functions do after a write answers: drop the signed-out renders it made stale
// from this location's edge cache (other locations' copies expire within the cache's fresh
// time), and delete the media it let go of. Both run after the response is sent.
import type { Context } from "hono";
import type { Written } from "~/domain/written.ts";
import type { AppEnv } from "./context.ts";
import { purgePage } from "./page-cache.ts";

export function purgePages(c: Context<AppEnv>, paths: Iterable<string>): void {
  const origin = c.var.ctx.origin;
  const unique = [...new Set(paths)];
  if (unique.length === 0) return;
  c.executionCtx.waitUntil(Promise.all(unique.map((path) => purgePage(origin, path))).catch(() => undefined));
}

/** Schedules the write's purges and media deletes; answers its value. */
export function afterWrite<T>(c: Context<AppEnv>, result: Written<T>): T {
  purgePages(c, result.stale);
  for (const key of result.orphans ?? []) c.executionCtx.waitUntil(c.env.MEDIA.delete(key).catch(() => undefined));
  return result.value;
}
