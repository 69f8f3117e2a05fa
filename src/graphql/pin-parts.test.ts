// The pin resolver reads only what the query can show: GraphQL's Pin has no videos and no
// related feed, and the comments are read only by a query that names them. A fake D1 records
// the statements of getPin's batch.
import { describe, expect, it } from "vitest";
import { executeLocally, documentFor } from "./execute.server.ts";
import type { QueryName } from "./documents/index.ts";
import { QUERY_IDS } from "./query-ids.ts";

function recordingDb() {
  const statements: string[] = [];
  const db = {
    prepare(sql: string) {
      const statement = { sql, bind: () => statement };
      return statement;
    },
    async batch(batch: Array<{ sql: string }>) {
      statements.push(...batch.map((statement) => statement.sql));
      return batch.map(() => ({ results: [], success: true, meta: {} }));
    },
  };
  return { db: db as unknown as D1Database, statements };
}

async function run(name: QueryName, variables: Record<string, unknown>) {
  const { db, statements } = recordingDb();
  const result = await executeLocally(await documentFor(QUERY_IDS[name]), variables, { db, viewerId: null });
  // The fake has no pin: the spec's not-found error, after one batch.
  expect(result.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  const reads = (fragment: string) => statements.some((sql) => sql.includes(fragment));
  return {
    count: statements.length,
    videos: reads("pin_video_formats"),
    comments: reads("FROM comments c"),
    related: reads("p.category IS (SELECT category"),
    tags: reads("FROM pin_tags"),
    stickers: reads("mention_sticker"),
  };
}

describe("the pin resolver's batch", () => {
  it("CloseupPageQuery reads no videos, comments, related feed, pin tags or story stickers", async () => {
    expect(await run("CloseupPageQuery", { pinId: "5", isAuth: false })).toEqual({ count: 12, videos: false, comments: false, related: false, tags: false, stickers: false });
  });

  it("CloseupDetailQuery (which names comments) reads the comments but no videos, related feed, pin tags or story stickers", async () => {
    expect(await run("CloseupDetailQuery", { pinId: "5", isAuth: false, isDesktop: true })).toEqual({ count: 12, videos: false, comments: true, related: false, tags: false, stickers: false });
  });
});
