// A comment's author is named only to viewers who may see the author's profile (the profile
// rule reactions and mentions follow). Anyone else reads the comment under an anonymous
// "Pinloom user": no username, name, avatar, id or profile link. So a private under-16 account
// is never named in public comments, replies, tried-it posts or the close-up's first comments.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { ok } from "./boards-helpers.ts";
import { get } from "./fixtures.ts";
import { PINS, T0, USERS, seedPrivacyWorld, sessionCookie } from "./privacy-world.ts";

interface UserRef {
  id: string;
  username: string;
  full_name: string;
  image_medium_url: string | null;
}
interface CommentJson {
  id: string;
  user: UserRef;
  text: string;
}

const ANONYMOUS: UserRef = { id: "0", username: "", full_name: "", image_medium_url: null };
/** Everything that would name Mia (under 16, private), Cy (private) or Teo (under 16). */
const NAMING = /\bmia\b|Mia Person|users\/4\b|\bcy\b|Cy Person|users\/3\b|\bteo\b|Teo Person|users\/7\b/;
/** The page's markup without its icons, whose circles' `cy` attributes are not the user cy. */
const withoutIcons = (html: string) => html.replace(/<svg[\s\S]*?<\/svg>/g, "");

let anon: Browser;

beforeAll(async () => {
  await seedPrivacyWorld();
  const db = env.DB;
  const comment = (id: number, user: number, text: string, parent: number | null = null, at = 0) =>
    db
      .prepare("INSERT INTO comments (id, pin_id, user_id, parent_id, text, tags, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, '[]', ?6, ?6)")
      .bind(id, PINS.open, user, parent, text, T0 + at);
  await db.batch([
    comment(1, USERS.sam, "Lovely colours", null, 1),
    comment(2, USERS.mia, "I drew this at school", null, 2),
    comment(3, USERS.cy, "Saving for later", null, 3),
    comment(4, USERS.teo, "Nice lines", null, 4),
    comment(5, USERS.mia, "Thanks!", 1, 5),
    db.prepare("UPDATE comments SET reply_count = 1 WHERE id = 1"),
    db.prepare("UPDATE pins SET comment_count = 5 WHERE id = ?1").bind(PINS.open),
    db.prepare("INSERT INTO did_its (id, pin_id, user_id, details, created_at) VALUES (1, ?1, ?2, 'Tried it with crayons', ?3)").bind(PINS.open, USERS.mia, T0),
  ]);
  anon = new Browser();
});

const list = async (browser: Browser, options: Record<string, unknown>) => (await ok<{ results: CommentJson[] }>(browser, "UnifiedCommentsResource", "get", options)).results;

describe("comments by accounts a viewer may not see", () => {
  it("UnifiedCommentsResource answers them under an anonymous author", async () => {
    const comments = await list(anon, { pin_id: String(PINS.open) });
    const byId = new Map(comments.map((comment) => [comment.id, comment]));
    expect(byId.get("2")).toMatchObject({ user: ANONYMOUS, text: "I drew this at school" });
    expect(byId.get("3")).toMatchObject({ user: ANONYMOUS });
    expect(byId.get("4")).toMatchObject({ user: ANONYMOUS });
    expect(byId.get("1")?.user).toMatchObject({ id: String(USERS.sam), username: "sam", full_name: "Sam Person" });
    expect(JSON.stringify(comments)).not.toMatch(NAMING);
  });

  it("replies are anonymous the same way", async () => {
    const replies = await list(anon, { pin_id: String(PINS.open), parent_id: "1" });
    expect(replies.map((reply) => reply.user)).toEqual([ANONYMOUS]);
  });

  it("tried-it posts are anonymous the same way", async () => {
    const response = await anon.resource("DidItUserFeedResource", "get", { pin_id: String(PINS.open) });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(text).toContain("Tried it with crayons");
    expect(text).not.toMatch(NAMING);
  });

  it("the close-up's first comments name nobody a stranger may not see", async () => {
    const html = await (await get(`/pin/${PINS.open}/`)).text();
    expect(html).toContain("I drew this at school");
    expect(html).toContain("Pinloom user");
    expect(withoutIcons(html)).not.toMatch(NAMING);
    expect(html).toContain('href="/sam/"');
  });

  it("the close-up answers in French with the French word", async () => {
    const html = await (await get(`/pin/${PINS.open}/?locale=fr`)).text();
    expect(html).toContain("Utilisateur Pinloom");
  });

  it("a signed-in stranger sees them anonymous too; the author sees their own name", async () => {
    const sam = new Browser();
    sam.cookies.set(...(await sessionCookie(USERS.sam)).split("=") as [string, string]);
    expect(JSON.stringify(await list(sam, { pin_id: String(PINS.open) }))).not.toMatch(NAMING);
    const mia = new Browser();
    mia.cookies.set(...(await sessionCookie(USERS.mia)).split("=") as [string, string]);
    const own = await list(mia, { pin_id: String(PINS.open) });
    expect(own.find((comment) => comment.id === "2")?.user).toMatchObject({ id: String(USERS.mia), username: "mia" });
  });
});
