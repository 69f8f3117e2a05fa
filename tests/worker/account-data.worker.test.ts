// A person's own account data through the built Worker: the countries and locales lists, the
// language and country setting, the download (a ZIP of JSON and media) and deleting the account
// (one batch: all or nothing; afterwards their pins answer 410 and their media as missing).
import { env } from "cloudflare:workers";
import { unzipSync, strFromU8 } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.ts";
import { Browser, PASSWORD, USERS, seedAccounts, type Envelope } from "./accounts-helpers.ts";
import { D1_TIMEOUT, Faults } from "./faults.ts";

const BEN = USERS.ben.id;
const ANA = USERS.ana.id;
/** The account deleted below, with a pin, a board, a follower and a save on Ana's board. */
const DORA = { id: 60, username: "dora", email: "dora@pinloom.test" };
/** People a business's records name: its owner, a member, and someone who left it. */
const OWNER = { id: 61, username: "ella" };
const MEMBER = { id: 62, username: "finn" };
const FORMER = { id: 63, username: "gus" };
const PHOTO = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xd9]);

beforeAll(async () => {
  await seedAccounts();
  const db = env.DB;
  const hash = await hashPassword(PASSWORD, new Uint8Array(16).fill(1));
  await db.batch([
    db.prepare("INSERT INTO users (id, username, email, password_hash, full_name, first_name, created_at, follower_count) VALUES (?1, ?2, ?3, ?4, 'Dora', 'Dora', 0, 1)").bind(DORA.id, DORA.username, DORA.email, hash),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (20, ?1, 'Ben things', 'ben-things', 'public', 0, 0)").bind(BEN),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (21, ?1, 'Ana finds', 'ana-finds', 'public', 0, 0)").bind(ANA),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (22, ?1, 'Dora board', 'dora-board', 'public', 0, 0)").bind(DORA.id),
    db.prepare("INSERT INTO board_sections (id, board_id, title, slug, created_at) VALUES (30, 20, 'Lamps', 'lamps', 0)"),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (301, ?1, 20, 'image', 'Ben lamp', 'sig', 1, 1)").bind(BEN),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (302, ?1, 21, 'image', 'Ana chair', 'sig', 2, 2)").bind(ANA),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (401, ?1, 22, 'image', 'Dora vase', 'sig', 3, 3)").bind(DORA.id),
    db.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (301, 'orig', '/media/pins/301/orig.jpg', 10, 10, '#aaaaaa')"),
    db.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (401, 'orig', '/media/pins/401/orig.jpg', 10, 10, '#aaaaaa')"),
    db.prepare("INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at) VALUES (20, 301, 30, ?1, 1, 1), (20, 302, NULL, ?1, 2, 2)").bind(BEN),
    db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (21, 302, ?1, 1, 2), (21, 401, ?2, 2, 3), (22, 401, ?2, 1, 3)").bind(ANA, DORA.id),
    db.prepare("INSERT INTO comments (id, pin_id, user_id, text, created_at, updated_at) VALUES (501, 302, ?1, 'Lovely chair', 5, 5), (502, 302, ?2, 'Same here', 6, 6)").bind(BEN, DORA.id),
    db.prepare("UPDATE pins SET comment_count = 2 WHERE id = 302"),
    db.prepare("INSERT INTO follows (follower_id, target_type, target_id, created_at) VALUES (?1, 'user', ?2, 7)").bind(ANA, DORA.id),
    db.prepare("UPDATE users SET following_count = 1 WHERE id = ?1").bind(ANA),
    db.prepare("INSERT INTO did_its (id, pin_id, user_id, created_at) VALUES (601, 302, ?1, 8)").bind(DORA.id),
    db.prepare("UPDATE pins SET did_it_images_count = 1 WHERE id = 302"),
    db.prepare("UPDATE boards SET pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id)"),
    // Dora started a conversation with Ana, and both wrote in it.
    db.prepare("INSERT INTO conversations (id, created_by, created_at, pair_key, last_message_id, updated_at) VALUES (9501, ?1, 20, ?2, 9602, 22)").bind(DORA.id, `${Math.min(ANA, DORA.id)}:${Math.max(ANA, DORA.id)}`),
    db.prepare("INSERT INTO conversation_members (conversation_id, user_id, status, joined_at) VALUES (9501, ?1, 'active', 20), (9501, ?2, 'active', 20)").bind(DORA.id, ANA),
    db.prepare("INSERT INTO conversation_messages (id, conversation_id, sender_id, text, created_at) VALUES (9601, 9501, ?1, 'Hello Dora', 21), (9602, 9501, ?2, 'Hi Ana', 22)").bind(ANA, DORA.id),
    ...[OWNER, MEMBER, FORMER].map((person) =>
      db.prepare("INSERT INTO users (id, username, email, password_hash, full_name, first_name, created_at) VALUES (?1, ?2, ?3, ?4, ?2, ?2, 0)").bind(person.id, person.username, `${person.username}@pinloom.test`, hash),
    ),
    db
      .prepare("INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at) VALUES (7001, ?1, ?1, 'Ella Ceramics', 'RETAIL', 'US', 'en-US', '{}', 0, 0)")
      .bind(OWNER.id),
    db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (7001, ?1, 'ADMIN', 0), (7001, ?2, 'ANALYST', 0)").bind(OWNER.id, MEMBER.id),
    db.prepare("INSERT INTO business_history (business_id, actor_id, action, entity_type, entity_id, created_at) VALUES (7001, ?1, 'AD_ACCOUNT_CREATED', 'AD_ACCOUNT', '1', 0)").bind(FORMER.id),
  ]);
  await env.MEDIA.put("pins/301/orig.jpg", PHOTO);
  await env.MEDIA.put("pins/401/orig.jpg", PHOTO);
});

describe("CountriesResource and LocalesResource", () => {
  it("answer key and name: every country in the page's language, every locale in its own", async () => {
    const countries = await (await new Browser().resource("CountriesResource", "get", {})).json<{ resource_response: Envelope<Array<{ key: string; name: string }>> }>();
    const list = countries.resource_response.data;
    expect(list).toHaveLength(249);
    expect(new Set(list.map((entry) => entry.key)).size).toBe(249);
    expect(list).toContainEqual({ key: "FR", name: "France" });
    expect(list).toContainEqual({ key: "DE", name: "Germany" });
    expect(Object.keys(list[0]!).sort()).toEqual(["key", "name"]);

    const french = new Browser();
    french.cookies.set("pinloom_locale", "fr");
    const inFrench = await (await french.resource("CountriesResource", "get", {})).json<{ resource_response: Envelope<Array<{ key: string; name: string }>> }>();
    expect(inFrench.resource_response.data).toContainEqual({ key: "DE", name: "Allemagne" });

    const locales = await (await new Browser().resource("LocalesResource", "get", {})).json<{ resource_response: Envelope<Array<{ key: string; name: string }>> }>();
    expect(locales.resource_response.data).toHaveLength(45);
    expect(locales.resource_response.data[0]!.key).toBe("af_ZA");
    expect(locales.resource_response.data).toContainEqual({ key: "fr", name: "français" });
    expect(locales.resource_response.data).toContainEqual({ key: "de", name: "Deutsch" });
  });

  it("refuse an option they do not take, naming it", async () => {
    const response = await new Browser().resource("LocalesResource", "get", { country: "FR" });
    expect(response.status).toBe(400);
    expect((await response.json<{ resource_response: { error: { message_detail: string } } }>()).resource_response.error.message_detail).toContain("country");
  });
});

describe("PUT /v3/users/settings/locale/", () => {
  it("saves the language and country and sets the locale cookie the pages read", async () => {
    const browser = new Browser();
    await browser.login(USERS.biz.username);
    const response = await browser.json("/v3/users/settings/locale/", { locale: "fr", country: "be" }, "PUT");
    expect(response.status).toBe(200);
    expect((await response.json<Envelope>()).data).toEqual({ locale: "fr", country: "BE" });
    expect(response.headers.getSetCookie()).toContain("pinloom_locale=fr; Path=/; Max-Age=31536000; Secure; SameSite=Lax");
    expect(await env.DB.prepare("SELECT locale, country FROM users WHERE id = ?1").bind(USERS.biz.id).first()).toEqual({ locale: "fr", country: "BE" });
    const page = await (await browser.fetch("/settings/language/")).text();
    expect(page).toContain('<html lang="fr"');
  });

  it("refuses an unknown language or country with a 400 naming each, and changes nothing", async () => {
    const browser = new Browser();
    await browser.login(USERS.ana.username);
    const response = await browser.json("/v3/users/settings/locale/", { locale: "fr-CA", country: "XX" }, "PUT");
    expect(response.status).toBe(400);
    const detail = (await response.json<Envelope>()).message_detail ?? "";
    expect(detail).toContain("locale");
    expect(detail).toContain("country");
    expect(response.headers.getSetCookie().some((line) => line.startsWith("pinloom_locale="))).toBe(false);
    expect(await env.DB.prepare("SELECT locale, country FROM users WHERE id = ?1").bind(ANA).first()).toEqual({ locale: "en_US", country: "US" });
  });

  it("is for signed-in people only", async () => {
    expect((await new Browser().json("/v3/users/settings/locale/", { locale: "fr", country: "FR" }, "PUT")).status).toBe(401);
  });
});

describe("the download", () => {
  it("is a ZIP of the person's data as JSON and their pins' media, with no secret in it", async () => {
    const browser = new Browser();
    await browser.login(USERS.ben.username);
    // A conversation with Ana: Ben's own message is his to take; Ana's reply is hers.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO conversations (id, created_by, created_at, pair_key, updated_at) VALUES (9001, ?1, 10, ?2, 12)").bind(BEN, `${Math.min(ANA, BEN)}:${Math.max(ANA, BEN)}`),
      env.DB.prepare("INSERT INTO conversation_messages (id, conversation_id, sender_id, text, created_at, pin_id) VALUES (9101, 9001, ?1, 'Look at this lamp', 11, 301)").bind(BEN),
      env.DB.prepare("INSERT INTO conversation_messages (id, conversation_id, sender_id, text, created_at) VALUES (9102, 9001, ?1, 'Lovely', 12)").bind(ANA),
    ]);
    const response = await browser.fetch("/v3/users/me/export/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="pinloom-ben.zip"');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const json = (name: string) => JSON.parse(strFromU8(files[name]!)) as unknown;
    expect(Object.keys(files).sort()).toEqual(
      [
        "account.json", "boards.json", "comments.json", "follows.json", "lead_submissions.json", "manifest.json", "media/pins/301/orig.jpg", "messages.json", "pins.json",
        "quick_saves.json", "reactions.json", "saves.json", "sections.json", "tried_it.json",
      ].sort(),
    );
    expect(json("account.json")).toMatchObject({ id: BEN, username: "ben", email: USERS.ben.email });
    const accountText = strFromU8(files["account.json"]!);
    expect(accountText).not.toContain("password");
    expect(accountText).not.toContain("mfa_secret");
    expect((json("boards.json") as Array<{ id: number; name: string }>).map((board) => [board.id, board.name])).toEqual([[20, "Ben things"]]);
    expect((json("sections.json") as Array<{ id: number }>).map((section) => section.id)).toEqual([30]);
    expect((json("pins.json") as Array<{ id: number; title: string }>).map((pin) => [pin.id, pin.title])).toEqual([[301, "Ben lamp"]]);
    expect((json("saves.json") as Array<{ board_id: number; pin_id: number }>).map((save) => [save.board_id, save.pin_id])).toEqual([
      [20, 301],
      [20, 302],
    ]);
    expect(json("comments.json")).toEqual([{ id: 501, pin_id: 302, parent_id: null, text: "Lovely chair", created_at: 5 }]);
    expect(json("messages.json")).toEqual([
      { id: 9101, conversation_id: 9001, text: "Look at this lamp", created_at: 11, pin_id: 301, board_id: null, user_id: null, did_it_id: null },
    ]);
    expect([...files["media/pins/301/orig.jpg"]!]).toEqual([...PHOTO]);
    expect(json("manifest.json")).toMatchObject({ format: "pinloom-account-export", version: 1, truncated: [], media_left_out: [] });
  });

  it("is for signed-in people only", async () => {
    expect((await new Browser().fetch("/v3/users/me/export/")).status).toBe(401);
  });
});

describe("deleting the account", () => {
  const faults = new Faults();
  const count = async (sql: string, ...values: unknown[]) => (await env.DB.prepare(sql).bind(...values).first<{ n: number }>())?.n;

  it("asks for the confirmation and the password, naming each missing field", async () => {
    const browser = new Browser();
    await browser.login(DORA.username);
    const bare = await browser.json("/v3/users/me/", {}, "DELETE");
    expect(bare.status).toBe(400);
    const detail = (await bare.json<Envelope>()).message_detail ?? "";
    expect(detail).toContain("confirm");
    expect(detail).toContain("password");
    const wrong = await browser.json("/v3/users/me/", { confirm: true, password: "not-the-password" }, "DELETE");
    expect(wrong.status).toBe(400);
    expect((await wrong.json<Envelope>()).message_detail).toContain("password");
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ?1", DORA.id)).toBe(1);
  });

  it("is refused while a business's records name the person (owner, member or someone who acted in it), saying why, and deletes nothing", async () => {
    const expected: Array<[typeof OWNER, string]> = [
      [OWNER, "Your account is the profile of the business Ella Ceramics, so it can't be deleted while the business is open."],
      [MEMBER, "You belong to a business. Ask its admin to remove you before deleting your account."],
      [FORMER, "A business's records name your account (what you did while you belonged to it), so it can't be deleted yet."],
    ];
    for (const [person, message] of expected) {
      const browser = new Browser();
      await browser.login(person.username);
      const refused = await browser.json("/v3/users/me/", { confirm: true, password: PASSWORD }, "DELETE");
      expect(refused.status).toBe(409);
      expect((await refused.json<Envelope>()).message).toBe(message);
      expect(await count("SELECT count(*) AS n FROM users WHERE id = ?1", person.id)).toBe(1);
      expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?1", person.id)).toBeGreaterThan(0);
    }
  });

  it("is one batch: D1 failing at its last step leaves everything as it was", async () => {
    const browser = new Browser(undefined, faults.fetch);
    await browser.login(DORA.username);
    faults.failD1({ when: /UPDATE pins SET comment_count/, midway: true, times: 1, message: D1_TIMEOUT });
    const failed = await browser.json("/v3/users/me/", { confirm: true, password: PASSWORD }, "DELETE");
    expect(failed.status).toBe(503);
    faults.heal();
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ?1", DORA.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM pins WHERE pinner_id = ?1", DORA.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM gone_pins")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?1", DORA.id)).toBeGreaterThan(0);
  });

  it("removes the content and the sessions, fixes other people's counts, and their pins answer 410 and their media as missing", async () => {
    const browser = new Browser();
    await browser.login(DORA.username);
    const token = browser.session!;
    const response = await browser.json("/v3/users/me/", { confirm: true, password: PASSWORD }, "DELETE");
    expect(response.status).toBe(200);
    expect((await response.json<Envelope>()).data).toEqual({ deleted: true });
    expect(browser.session).toBeUndefined();
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ?1", DORA.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?1", DORA.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM boards WHERE owner_id = ?1", DORA.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM comments WHERE id = 502")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM follows WHERE target_type = 'user' AND target_id = ?1", DORA.id)).toBe(0);
    // Ana's board held Dora's pin; Ana followed Dora; Dora commented on Ana's pin.
    expect(await env.DB.prepare("SELECT pin_count FROM boards WHERE id = 21").first()).toEqual({ pin_count: 1 });
    expect(await env.DB.prepare("SELECT following_count FROM users WHERE id = ?1").bind(ANA).first()).toEqual({ following_count: 0 });
    expect(await env.DB.prepare("SELECT comment_count, did_it_images_count FROM pins WHERE id = 302").first()).toEqual({ comment_count: 1, did_it_images_count: 0 });
    // The conversation Dora started stays Ana's, with Ana's message as its last.
    expect(await env.DB.prepare("SELECT created_by, last_message_id FROM conversations WHERE id = 9501").first()).toEqual({ created_by: ANA, last_message_id: 9601 });
    expect(await env.DB.prepare("SELECT id FROM conversation_messages WHERE conversation_id = 9501").all().then((r) => r.results)).toEqual([{ id: 9601 }]);

    expect((await new Browser().fetch("/pin/401/")).status).toBe(410);
    expect((await new Browser().resource("PinResource", "get", { id: "401" })).status).toBe(410);
    expect((await new Browser().fetch("/media/pins/401/orig.jpg")).status).toBe(404);
    // A pin that never existed is still 404, not gone.
    expect((await new Browser().fetch("/pin/409/")).status).toBe(404);
    // The old session opens nothing.
    const stale = new Browser();
    stale.cookies.set("__Host-pinloom_sess", token);
    expect((await stale.fetch("/v3/users/me/")).status).toBe(401);
  });
});
