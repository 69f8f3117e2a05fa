// Invites: the lookup answers the spec's metadata and nothing else; unknown, expired and
// not-visible invites are one and the same 404; lookups are throttled per address; minting
// needs a full login, a pin the sender can see and a documented channel, and is bounded.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashToken, newToken } from "~/accounts/tokens.ts";
import { SESSION_COOKIE } from "~/accounts/session.server.ts";
import { INVITE_CREATE_RULE, INVITE_LOOKUP_RULE, inviteKey } from "~/invites/invites.server.ts";
import { BASE, BROWSER_UA, GOOGLEBOT_UA, countElements, fetchWorker, get, seedWorld } from "./fixtures.ts";

const DAY = 86_400_000;
const TOKEN = "c".repeat(64);
const CODES = {
  email: "inviteEmailAnaPin101aa",
  copyLink: "inviteCopyLinkPin101bb",
  board: "inviteBoardPublic10ccc",
  expired: "inviteExpiredPin101ddd",
  secretPin: "inviteSecretPin102eeee",
  secretBoard: "inviteSecretBoard11fff",
  deletedPin: "inviteDeletedPin103ggg",
  limitedSender: "inviteLimitedSenderhhh",
  privateSender: "invitePrivateSenderiii",
  unknown: "inviteNobodyEverMadejj",
} as const;

type Envelope<T = unknown> = { resource_response: { status: string; data: T; error?: { api_error_code: number; message: string; message_detail: string | null; http_status: number } } };

let address = 0;
/** Each test speaks from its own address, so only the rate-limit test meets the limit. */
const nextIp = () => `198.51.100.${++address}`;

const lookup = (code: unknown, headers: Record<string, string> = {}) =>
  fetchWorker(`/resource/InviteMetadataResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { invite_code: code } }))}`, {
    headers: { "user-agent": BROWSER_UA, "cf-connecting-ip": nextIp(), ...headers },
  });

function create(options: unknown, cookie = "", headers: Record<string, string> = {}): Promise<Response> {
  return fetchWorker("/resource/InviteResource/create/", {
    method: "POST",
    body: JSON.stringify({ options }),
    headers: {
      origin: BASE,
      "user-agent": BROWSER_UA,
      cookie: [`csrftoken=${TOKEN}`, cookie].filter(Boolean).join("; "),
      "x-csrftoken": TOKEN,
      "content-type": "application/json",
      ...headers,
    },
  });
}

async function sessionFor(userId: number): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES (?1, ?2, ?3, ?4, ?3)")
    .bind(await hashToken(token), userId, now, now + 100 * DAY)
    .run();
  return `${SESSION_COOKIE}=${token}`;
}

async function invite(code: string, senderId: number, objectType: "pin" | "board", objectId: number, channel = 1, expiresIn = 30 * DAY) {
  const now = Date.now();
  return env.DB.prepare(
    "INSERT INTO invites (id, sender_id, invite_channel, object_type, object_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  ).bind(await inviteKey(code), senderId, channel, objectType, objectId, now - 60 * DAY, now + expiresIn);
}

beforeAll(async () => {
  // Ana (1) owns public board 10 with pin 101, secret board 11 with pin 102, and deleted pin 103.
  await seedWorld([{ id: 101 }, { id: 102, boardId: 11 }, { id: 103, isDeleted: true }]);
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET first_name = 'Ana', image_key = 'users/1', phone_number = '+15550100' WHERE id = 1"),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, should_show_messaging, created_at) VALUES (2, 'bo', 'bo@pinloom.test', 'Bo Berg', 'Bo', 0, 0)"),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, login_state, created_at) VALUES (3, 'lou', 'lou@pinloom.test', 'Lou Park', 'Lou', 'limited', 0)"),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, is_private_profile, created_at) VALUES (4, 'cy', 'cy@pinloom.test', 'Cy Private', 'Cy', 1, 0)"),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, created_at) VALUES (5, 'dee', 'dee@pinloom.test', 'Dee Many', 'Dee', 0)"),
    // Dee collaborates on the secret board; Bo's invitation to it is not accepted yet.
    env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, created_at) VALUES (11, 5, 'accepted', 0), (11, 2, 'new', 0)"),
    await invite(CODES.email, 1, "pin", 101, 1),
    await invite(CODES.copyLink, 1, "pin", 101, 12),
    await invite(CODES.board, 2, "board", 10, 4),
    await invite(CODES.expired, 1, "pin", 101, 1, -1),
    await invite(CODES.secretPin, 1, "pin", 102, 1),
    await invite(CODES.secretBoard, 1, "board", 11, 1),
    await invite(CODES.deletedPin, 1, "pin", 103, 1),
    await invite(CODES.limitedSender, 3, "pin", 101, 1),
    await invite(CODES.privateSender, 4, "pin", 101, 3),
  ]);
});

describe("InviteMetadataResource get", () => {
  it("answers exactly the spec's invite metadata, privately", async () => {
    const response = await lookup(CODES.email);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = await response.json<Envelope>();
    expect(body.resource_response.data).toEqual({
      sender: { id: "1", should_show_messaging: true, image_medium_url: "/media/users/1/medium.jpg", first_name: "Ana", full_name: "Ana Lima" },
      invite_channel: 1,
    });
  });

  it.each([
    [CODES.copyLink, "1", 12],
    [CODES.board, "2", 4],
    [CODES.privateSender, "4", 3],
  ])("answers %s with sender %s and channel %s", async (code, sender, channel) => {
    const body = await (await lookup(code)).json<Envelope<{ sender: Record<string, unknown>; invite_channel: number }>>();
    expect(body.resource_response.data.sender.id).toBe(sender);
    expect(body.resource_response.data.invite_channel).toBe(channel);
  });

  it("tells a private sender's name and avatar only, never their username, email or phone", async () => {
    const text = await (await lookup(CODES.privateSender)).text();
    const data = (JSON.parse(text) as Envelope<{ sender: Record<string, unknown> }>).resource_response.data;
    expect(Object.keys(data.sender).sort()).toEqual(["first_name", "full_name", "id", "image_medium_url", "should_show_messaging"]);
    expect(text).not.toMatch(/cy@pinloom|"cy"|username|email|phone/);
  });

  it("answers an unknown, expired, secret, deleted or limited-sender invite with one and the same 404", async () => {
    const unknown = await lookup(CODES.unknown);
    expect(unknown.status).toBe(404);
    const expected = await unknown.text();
    expect(JSON.parse(expected)).toMatchObject({ resource_response: { status: "failure", error: { api_error_code: 4, http_status: 404, message: "Not found" } } });
    for (const code of [CODES.expired, CODES.secretPin, CODES.secretBoard, CODES.deletedPin, CODES.limitedSender]) {
      const response = await lookup(code);
      expect(response.status, code).toBe(404);
      expect(await response.text(), code).toBe(expected);
      expect(response.headers.get("cache-control"), code).toBe(unknown.headers.get("cache-control"));
    }
  });

  it("shows a secret board's invite to those its pin page shows it to: the owner and accepted collaborators", async () => {
    for (const [who, userId, status] of [["owner", 1, 200], ["accepted collaborator", 5, 200], ["invited, not accepted", 2, 404]] as const) {
      const cookie = await sessionFor(userId);
      expect((await lookup(CODES.secretPin, { cookie })).status, who).toBe(status);
      expect((await lookup(CODES.secretBoard, { cookie })).status, who).toBe(status);
      expect((await get("/pin/102/", { cookie })).status, `${who}: the pin page agrees`).toBe(status);
    }
  });

  it.each([
    ["too short", "abc"],
    ["too long", "a".repeat(65)],
    ["not URL-safe", "inviteEmailAnaPin101a'"],
    ["a number", 12345],
  ])("refuses a code that is %s with a 400 naming the field", async (_name, code) => {
    const response = await lookup(code);
    expect(response.status).toBe(400);
    const body = await response.json<Envelope>();
    expect(body.resource_response.error?.message_detail).toMatch(/^options\.invite_code: /);
  });

  it("refuses an unknown option", async () => {
    const response = await fetchWorker(`/resource/InviteMetadataResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { invite_code: CODES.email, board: 11 } }))}`);
    expect(response.status).toBe(400);
  });

  it(`throttles lookups per address: ${INVITE_LOOKUP_RULE.limit} per window, then 429 with Retry-After`, async () => {
    const ip = "203.0.113.77";
    const statuses: number[] = [];
    for (let i = 0; i < INVITE_LOOKUP_RULE.limit; i++) statuses.push((await lookup(i % 2 ? CODES.unknown : CODES.email, { "cf-connecting-ip": ip })).status);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    const refused = await lookup(CODES.email, { "cf-connecting-ip": ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).not.toContain("Ana");
    // Another address is not affected.
    expect((await lookup(CODES.email, { "cf-connecting-ip": "203.0.113.78" })).status).toBe(200);
  });
});

describe("InviteResource create", () => {
  it("needs a session: 401 signed out", async () => {
    const response = await create({ pin_id: "101", invite_channel: 12 });
    expect(response.status).toBe(401);
    expect((await response.json<Envelope>()).resource_response.error?.api_error_code).toBe(2);
  });

  it("needs a full login: 403 LimitedLogin for a limited-login session", async () => {
    const response = await create({ pin_id: "101", invite_channel: 12 }, await sessionFor(3));
    expect(response.status).toBe(403);
    expect((await response.json<Envelope>()).resource_response.error).toMatchObject({ api_error_code: 17, message: "Log in fully to share invite links" });
  });

  it("needs the CSRF token", async () => {
    const response = await create({ pin_id: "101", invite_channel: 12 }, await sessionFor(2), { "x-csrftoken": "" });
    expect(response.status).toBe(403);
  });

  it("mints a working code for a visible pin, and the lookup names its sender and channel", async () => {
    const response = await create({ pin_id: "101", invite_channel: 12 }, await sessionFor(2));
    expect(response.status).toBe(200);
    const data = (await response.json<Envelope<{ code: string; invite_channel: number; expires_at: string }>>()).resource_response.data;
    expect(data.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(data.invite_channel).toBe(12);
    expect(Date.parse(data.expires_at) - Date.now()).toBeGreaterThan(29 * DAY);
    // D1 keeps only the hash.
    const stored = await env.DB.prepare("SELECT id, sender_id FROM invites WHERE id = ?1").bind(await inviteKey(data.code)).first<{ id: string; sender_id: number }>();
    expect(stored).toEqual({ id: await inviteKey(data.code), sender_id: 2 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM invites WHERE id = ?1").bind(data.code).first("n")).toBe(0);
    const found = (await (await lookup(data.code)).json<Envelope<{ sender: { id: string; should_show_messaging: boolean }; invite_channel: number }>>()).resource_response.data;
    expect(found).toMatchObject({ sender: { id: "2", should_show_messaging: false }, invite_channel: 12 });
  });

  it("mints a different code every time", async () => {
    const cookie = await sessionFor(2);
    const codes = new Set<string>();
    for (let i = 0; i < 3; i++) codes.add((await (await create({ pin_id: "101", invite_channel: 1 }, cookie)).json<Envelope<{ code: string }>>()).resource_response.data.code);
    expect(codes.size).toBe(3);
  });

  it("answers 404 for a pin the sender cannot see, and lets the owner share their own secret pin", async () => {
    expect((await create({ pin_id: "102", invite_channel: 12 }, await sessionFor(2))).status).toBe(404);
    expect((await create({ pin_id: "103", invite_channel: 12 }, await sessionFor(2))).status).toBe(404);
    expect((await create({ pin_id: "999", invite_channel: 12 }, await sessionFor(2))).status).toBe(404);
    const own = await create({ pin_id: "102", invite_channel: 1 }, await sessionFor(1));
    expect(own.status).toBe(200);
    const { code } = (await own.json<Envelope<{ code: string }>>()).resource_response.data;
    expect((await lookup(code)).status).toBe(404);
  });

  it.each([
    ["channel 0", { pin_id: "101", invite_channel: 0 }, /^options\.invite_channel: must be one of: 1, 2, .*16$/],
    ["channel 17", { pin_id: "101", invite_channel: 17 }, /^options\.invite_channel: must be one of/],
    ["a channel as text", { pin_id: "101", invite_channel: "12" }, /^options\.invite_channel: must be one of/],
    ["no channel", { pin_id: "101" }, /^options\.invite_channel: /],
    ["no pin", { invite_channel: 12 }, /^options\.pin_id: is required$/],
    ["a malformed pin id", { pin_id: "1; DROP", invite_channel: 12 }, /^options\.pin_id: has an invalid format$/],
    ["an unknown option", { pin_id: "101", invite_channel: 12, sender_id: 1 }, /^options\.sender_id: is not a known option$/],
  ])("refuses %s with a 400 naming the field, writing nothing", async (_name, options, detail) => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM invites").first<number>("n");
    const response = await create(options, await sessionFor(2));
    expect(response.status).toBe(400);
    expect((await response.json<Envelope>()).resource_response.error?.message_detail).toMatch(detail);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM invites").first<number>("n")).toBe(before);
  });

  it(`is bounded at ${INVITE_CREATE_RULE.limit} per person per hour`, async () => {
    const cookie = await sessionFor(5);
    for (let i = 0; i < INVITE_CREATE_RULE.limit; i++) expect((await create({ pin_id: "101", invite_channel: 12 }, cookie)).status, `mint ${i + 1}`).toBe(200);
    const refused = await create({ pin_id: "101", invite_channel: 12 }, cookie);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM invites WHERE sender_id = 5").first<number>("n")).toBe(INVITE_CREATE_RULE.limit);
    // Someone else may still mint.
    expect((await create({ pin_id: "101", invite_channel: 12 }, await sessionFor(2))).status).toBe(200);
  });
});

describe("the pin landing page", () => {
  it("carries the invite mount with its translated strings for people, whatever the code", async () => {
    const html = await (await get(`/pin/101/?invite_code=${CODES.email}`)).text();
    expect(await countElements(html, "#invite-mount[hidden][data-title][data-dismiss][data-toast]")).toBe(1);
    expect(html).toContain('data-title="%NAME% invited you to Pinloom"');
    // The page never names the sender itself: the lookup does, per visitor.
    expect(html).not.toContain("Ana Lima invited");
  });

  it("speaks the visitor's language", async () => {
    const html = await (await get(`/pin/101/?invite_code=${CODES.email}&locale=fr`)).text();
    expect(html).toContain('data-dismiss="Fermer"');
  });

  it("gives crawlers no invite mount", async () => {
    const html = await (await get(`/pin/101/?invite_code=${CODES.email}`, { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, "#invite-mount")).toBe(0);
  });
});
