// Mentions: a tag can never read out a hidden account's name.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { browserFor, freshId, seedCast } from "./roles-fixture.ts";
import { call, insertPin } from "./boards-helpers.ts";

describe("mentions", () => {
  beforeAll(async () => {
    await seedCast();
  });

  it("refuse a private or limited-login account, and answer nothing of it", async () => {
    const pinId = await insertPin(freshId());
    const stranger = await browserFor("stranger");
    for (const column of ["is_private_profile = 1", "login_state = 'limited'"]) {
      const hidden = freshId();
      await env.DB.prepare(`INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, 'Quiet Person', 0)`).bind(hidden, `quiet_${hidden}`, `q${hidden}@cast.test`).run();
      await env.DB.prepare(`UPDATE users SET ${column} WHERE id = ?1`).bind(hidden).run();
      const answer = await call(stranger, "AggregatedCommentResource", "create", { pin_id: String(pinId), text: "hello there", tags: [{ user_id: String(hidden), offset: 0, length: 5 }] });
      expect(answer.status, column).toBe(400);
      expect(JSON.stringify(answer)).not.toContain("Quiet Person");
      expect(answer.error?.message_detail ?? "").toContain("tags");
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM comments WHERE pin_id = ?1").bind(pinId).first("n")).toBe(0);
  });
});
