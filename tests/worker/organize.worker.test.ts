// Board management on the pages (src/organize) against the built Worker: only signed-in, full
// logins get the island and its stylesheet, each role sees only the controls its policy row
// allows, signed-out and crawler HTML carries nothing of it, signed-in renders are never
// cached, the owner's profile lists archived boards apart, and UserLookupResource (invite by
// username) answers only signed-in people about profiles they may see.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BOARD_ROLES, type BoardRole } from "~/boards/policy.ts";
import en from "../../locales/en_US/organize.json";
import { Browser } from "./accounts-helpers.ts";
import { GOOGLEBOT_UA, get } from "./fixtures.ts";
import { CAST, CAST_BOARDS, browserFor, seedCast } from "./roles-fixture.ts";
import { createSession } from "./session-fixture.ts";

const BOARD_PAGE = "/cast_owner/cast-corkboard/";
const PROFILE = "/cast_owner/";
const ARCHIVED_BOARD = { id: 2101, name: "Old flat ideas", slug: "old-flat-ideas" };
const LIMITED = { id: 2201, username: "cast_limited" };
const PRIVATE = { id: 2202, username: "cast_private" };

beforeAll(async () => {
  await seedCast();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, archived_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'public', 5, 0, 0)").bind(
      ARCHIVED_BOARD.id,
      CAST.owner,
      ARCHIVED_BOARD.name,
      ARCHIVED_BOARD.slug,
    ),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, login_state, created_at) VALUES (?1, ?2, 'limited@cast.test', 'Lim', 'Lim', 'limited', 0)").bind(LIMITED.id, LIMITED.username),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, is_private_profile, created_at) VALUES (?1, ?2, 'private@cast.test', 'Priv', 'Priv', 1, 0)").bind(PRIVATE.id, PRIVATE.username),
  ]);
});

const page = async (browser: Browser, path: string) => {
  const response = await browser.fetch(path);
  return { status: response.status, cacheControl: response.headers.get("cache-control") ?? "", html: await response.text() };
};

describe("board page: the organize island by role", () => {
  // What each role's server render offers (policy.ts rows edit_board, delete_board, save_pin,
  // list_collaborators, request_to_join).
  const expected: Record<Exclude<BoardRole, "signed_out">, { edit: boolean; select: boolean; collaborators: boolean; join: boolean }> = {
    owner: { edit: true, select: true, collaborators: true, join: false },
    collaborator_write: { edit: false, select: true, collaborators: true, join: false },
    collaborator_delete: { edit: false, select: true, collaborators: true, join: false },
    follower: { edit: false, select: false, collaborators: false, join: true },
    stranger: { edit: false, select: false, collaborators: false, join: true },
  };

  it.each(BOARD_ROLES.filter((role) => role !== "signed_out") as Array<Exclude<BoardRole, "signed_out">>)("%s", async (role) => {
    const { status, cacheControl, html } = await page(await browserFor(role), BOARD_PAGE);
    expect(status).toBe(200);
    expect(cacheControl).toMatch(/private|no-store/);
    expect(html).toContain('class="organize"');
    const want = expected[role];
    expect(html.includes(`>${en.board.edit}<`)).toBe(want.edit);
    expect(html.includes(`>${en.board.delete}<`)).toBe(want.edit);
    expect(html.includes(`>${en.board.select}<`)).toBe(want.select);
    expect(html.includes(`>${en.board.collaborators}<`)).toBe(want.collaborators);
    expect(html.includes(`>${en.invite.join}<`)).toBe(want.join);
  });

  it.each([
    ["signed out", {}],
    ["a crawler", { "user-agent": GOOGLEBOT_UA }],
  ])("%s gets no island, no stylesheet and no organize strings", async (_name, headers) => {
    const response = await get(BOARD_PAGE, headers);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).not.toMatch(/organize/i);
    expect(html).not.toContain(en.board.edit);
  });

  it("a limited login gets no island either", async () => {
    const browser = new Browser();
    browser.cookies.set("__Host-pinloom_sess", (await createSession(LIMITED.id)).token);
    const { html } = await page(browser, BOARD_PAGE);
    expect(html).not.toContain('class="organize"');
  });

  it("an invitee sees accept and decline", async () => {
    await env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'new', 'write,delete', 'invite', ?3, 0)")
      .bind(CAST_BOARDS.public, CAST.stranger, CAST.owner)
      .run();
    const { html } = await page(await browserFor("stranger"), BOARD_PAGE);
    expect(html).toContain(en.invite.banner.replace("{{name}}", "cast_owner"));
    expect(html).toContain(`>${en.invite.accept}<`);
    expect(html).not.toContain(`>${en.invite.join}<`);
    await env.DB.prepare("DELETE FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2").bind(CAST_BOARDS.public, CAST.stranger).run();
  });
});

describe("profile: create board and archived boards, for the owner only", () => {
  it("the owner sees Create board and the archived board apart from the profile's boards", async () => {
    const { html, cacheControl } = await page(await browserFor("owner"), PROFILE);
    expect(cacheControl).toMatch(/private|no-store/);
    expect(html).toContain(`>${en.form.create}<`);
    expect(html).toContain(en.archived.heading);
    const grid = /<ul[^>]*id="profile-boards"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
    expect(grid).not.toContain(ARCHIVED_BOARD.name);
    expect(html).toContain(ARCHIVED_BOARD.name);
  });

  it.each(["stranger", "collaborator_delete", "signed_out"] as const)("%s sees neither, nor the archived board", async (role) => {
    const { html } = await page(await browserFor(role), PROFILE);
    expect(html).not.toContain(en.form.create);
    expect(html).not.toContain(ARCHIVED_BOARD.name);
    expect(html).not.toMatch(/organize/i);
  });
});

describe("UserLookupResource", () => {
  const lookup = async (browser: Browser, username: string) => browser.resource("UserLookupResource", "get", { username });

  it("finds a person by username for a signed-in viewer", async () => {
    const response = await lookup(await browserFor("owner"), "CAST_STRANGER");
    expect(response.status).toBe(200);
    const body = await response.json<{ resource_response: { data: { id: string; username: string } } }>();
    expect(body.resource_response.data).toMatchObject({ id: String(CAST.stranger), username: "cast_stranger" });
  });

  it.each([
    ["no such person", "nobody_here", 404],
    ["a limited login", LIMITED.username, 404],
    ["a private profile", PRIVATE.username, 404],
    ["not a username", "bad name!", 400],
  ])("%s: %i", async (_name, username, status) => {
    expect((await lookup(await browserFor("owner"), username)).status).toBe(status);
  });

  it("signed out: 401", async () => {
    expect((await lookup(await browserFor("signed_out"), "cast_stranger")).status).toBe(401);
  });
});
