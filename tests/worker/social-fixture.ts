// Rows for the social Worker tests, on top of the board cast (roles-fixture.ts): a few more
// people, pins on the cast's public and secret boards and one without a board, topics, and a
// sponsored pin whose creator and sponsor are cast members.
import { env } from "cloudflare:workers";
import { Browser } from "./accounts-helpers.ts";
import { CAST, CAST_BOARDS } from "./roles-fixture.ts";
import { createSession } from "./session-fixture.ts";

export const PEOPLE = { alice: 301, bob: 302, hidden: 303, carol: 304, dave: 305, limited: 306 } as const;
export const PINS = { public: 7001, secret: 7002, boardless: 7003, deleted: 7004, sponsored: 7005, plain: 7006 } as const;
export const TOPICS = { food: 41, travel: 42 } as const;
/** A public board of bob's, for follows and blocks. */
export const BOB_BOARD = 2101;

export async function seedSocial(): Promise<void> {
  const db = env.DB;
  const person = (id: number, name: string, extra = "", values: unknown[] = []) =>
    db.prepare(`INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at${extra}) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0${values.map((_, i) => `, ?${i + 4}`).join("")})`).bind(id, name, `${name}@social.test`, ...values);
  const pin = (id: number, pinner: number, board: number | null, extra = "", values: unknown[] = []) =>
    db.prepare(`INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at${extra}) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', 0, 0${values.map((_, i) => `, ?${i + 5}`).join("")})`).bind(id, pinner, board, `Pin ${id}`, ...values);
  await db.batch([
    person(PEOPLE.alice, "alice"),
    person(PEOPLE.bob, "bob"),
    person(PEOPLE.hidden, "hidden_hal", ", is_private_profile", [1]),
    person(PEOPLE.carol, "carol"),
    person(PEOPLE.dave, "dave"),
    person(PEOPLE.limited, "limited_lee", ", login_state", ["limited"]),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Bob board', 'bob-board', 'public', 0, 0)").bind(BOB_BOARD, PEOPLE.bob),
    pin(PINS.public, CAST.owner, CAST_BOARDS.public),
    pin(PINS.secret, CAST.owner, CAST_BOARDS.secret),
    pin(PINS.boardless, PEOPLE.bob, null),
    pin(PINS.deleted, CAST.owner, CAST_BOARDS.public, ", is_deleted", [1]),
    pin(PINS.sponsored, CAST.owner, CAST_BOARDS.public, ", sponsorship", [JSON.stringify({ creatorId: String(CAST.owner), sponsorId: String(CAST.collaborator_write), status: 0 })]),
    pin(PINS.plain, CAST.owner, CAST_BOARDS.public),
    db.prepare("INSERT INTO interests (id, key, name) VALUES (?1, 'food_drinks', 'Recipes'), (?2, 'travel', 'Travel')").bind(TOPICS.food, TOPICS.travel),
    db.prepare("INSERT INTO pin_interests (pin_id, interest_id) VALUES (?1, ?2), (?1, ?3)").bind(PINS.public, TOPICS.food, TOPICS.travel),
  ]);
}

/** A browser signed in as any user id. */
export async function browserAs(userId: number): Promise<Browser> {
  const browser = new Browser();
  browser.cookies.set("__Host-pinloom_sess", (await createSession(userId)).token);
  return browser;
}

export type Answer<T = Record<string, unknown>> = {
  resource_response: { status: string; data: T; error?: { api_error_code: number; message: string; message_detail: string | null; http_status: number } };
};

/** Calls a resource and answers the HTTP status with the body. */
export async function call<T = Record<string, unknown>>(browser: Browser, name: string, action: "get" | "create" | "update" | "delete", options: unknown): Promise<{ status: number; body: Answer<T> }> {
  const response = await browser.resource(name, action, options);
  return { status: response.status, body: await response.json<Answer<T>>() };
}

export async function scalar<T = number>(sql: string, ...values: unknown[]): Promise<T | null> {
  const row = await env.DB.prepare(sql).bind(...values).first<Record<string, T>>();
  return row ? (Object.values(row)[0] ?? null) : null;
}
