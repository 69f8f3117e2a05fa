// The conversions API: access tokens made (shown once, then only a prefix), listed and revoked
// from the hub; events posted with a token of one ad account only (a stranger's token, a revoked
// one, a missing one: the same 401, whether or not the account exists); each event answered
// processed, duplicate or failed with its field and reason; an event the tag already stored under
// the same id kept once; the call bounds (1 MB, 1,000 events) and the per-token rate (429 with
// Retry-After); the calls' history and the events overview.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { conversionStatement } from "~/conversions/record.server.ts";
import { fetchWorker } from "./fixtures.ts";
import { fillCounter } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 46_001, manager: 46_002, analyst: 46_003, stranger: 46_004, rival: 46_005, customer: 46_006 } as const;
const CUSTOMER_HASH = "4f0a".padEnd(64, "e");

let businessId = "";
let adAccountId = "";
let rivalBusinessId = "";
let rivalAccountId = "";
const hub = (account = adAccountId, business = businessId) => `/v3/businesses/${business}/ad_accounts/${account}/conversions`;

type Failure = { message: string; message_detail: string | null };
type Token = { id: string; name: string; prefix: string; token?: string; revoked_time: number | null; last_used_time: number | null };
type EventsAnswer = { num_events_received: number; num_events_processed: number; test: boolean; events: Array<{ index: number; status: string; error_message?: string; errors?: Array<{ field: string; reason: string; message: string }> }> };

const onboarding = (name: string, country: string) => ({
  businessGoals: ["INCREASE_SALES"],
  businessName: name,
  businessVertical: "HOME_AND_GARDEN",
  numberEmployees: "2_10",
  hasWebsite: false,
  country,
  locale: "en_US",
  advertisingIntent: "NOW",
  worksWithAgency: false,
  firstName: "Ana",
  lastName: "Silva",
  email: `${name.toLowerCase()}@capi.test`,
  whatsAppConsent: false,
  ageConfirmed: true,
});

async function makeToken(userId: number, name: string, account = adAccountId, business = businessId): Promise<{ status: number; token: Token; error?: Failure }> {
  const response = await (await browserAs(userId)).json(`${hub(account, business)}/tokens/`, { name });
  const body = await response.json<{ data: Token; error?: Failure }>();
  return { status: response.status, token: body.data, ...(body.error ? { error: body.error } : {}) };
}

/** A server's call: no cookie, no CSRF token, only the bearer token. */
async function post(account: string, token: string | null, body: unknown, raw?: string): Promise<{ status: number; headers: Headers; body: EventsAnswer & { error?: Failure; message?: string } }> {
  const response = await fetchWorker(`/v5/ad_accounts/${account}/events`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: raw ?? JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const seconds = () => Math.floor(Date.now() / 1000);
const event = (id: string, extra: Record<string, unknown> = {}) => ({ event_name: "checkout", action_source: "web", event_time: seconds() - 60, event_id: id, ...extra });

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, 30)").bind(id, `capi_${name}`, `${name}@capi.test`),
    ),
    db.prepare("INSERT INTO email_match (email_sha256, user_id) VALUES (?1, ?2)").bind(CUSTOMER_HASH, U.customer),
  ]);
  const made = await (await (await browserAs(U.owner)).json("/v3/businesses/", onboarding("Casa", "US"))).json<{ data: { business: { id: string }; ad_account: { id: string } } }>();
  businessId = made.data.business.id;
  adAccountId = made.data.ad_account.id;
  const rival = await (await (await browserAs(U.rival)).json("/v3/businesses/", onboarding("Rival", "US"))).json<{ data: { business: { id: string }; ad_account: { id: string } } }>();
  rivalBusinessId = rival.data.business.id;
  rivalAccountId = rival.data.ad_account.id;
  await db.batch(
    (
      [
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.analyst, "ANALYST"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
  );
});

describe("access tokens", () => {
  it("shows a new token in full once, keeps only its SHA-256, and lists it by its prefix", async () => {
    const made = await makeToken(U.manager, "Shop server");
    expect(made.status).toBe(200);
    expect(made.token.token).toMatch(/^pl_cv_[0-9a-f]{64}$/);
    expect(made.token.prefix).toBe(made.token.token!.slice(0, 12));
    const stored = await scalar<string>("SELECT token_sha256 FROM conversion_api_tokens WHERE id = ?1", made.token.id);
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(made.token.token!))), (byte) => byte.toString(16).padStart(2, "0")).join("");
    expect(stored).toBe(digest);
    const listed = await (await (await browserAs(U.analyst)).fetch(`${hub()}/tokens/`)).json<{ data: { items: Token[] } }>();
    const mine = listed.data.items.find((item) => item.id === made.token.id)!;
    expect([mine.name, mine.prefix, "token" in mine, JSON.stringify(listed).includes(made.token.token!)]).toEqual(["Shop server", made.token.prefix, false, false]);
    expect(await scalar("SELECT COUNT(*) FROM business_history WHERE business_id = ?1 AND action = 'CONVERSIONS_TOKEN_CREATED'", businessId)).toBe(1);
  });

  it("lets an analyst read but not make or revoke tokens, and tells a stranger nothing", async () => {
    expect((await makeToken(U.analyst, "Nope")).status).toBe(403);
    expect((await makeToken(U.stranger, "Nope")).status).toBe(404);
    expect((await (await browserAs(U.stranger)).fetch(`${hub()}/tokens/`)).status).toBe(404);
  });

  it("refuses a token without a name with a 400 naming the field", async () => {
    const made = await makeToken(U.owner, "  ");
    expect([made.status, made.error?.message_detail?.startsWith("name:")]).toEqual([400, true]);
  });
});

describe("posting events", () => {
  let token = "";
  beforeAll(async () => {
    token = (await makeToken(U.owner, "Main")).token.token!;
  });

  it("stores a valid event as processed, matched to the person by its hashed address", async () => {
    const answer = await post(adAccountId, token, { data: [event("order-100", { user_data: { em: [CUSTOMER_HASH] }, custom_data: { value: "72.39", currency: "USD", num_items: 2 } })] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ num_events_received: 1, num_events_processed: 1, test: false, events: [{ index: 0, status: "processed" }] });
    const row = await env.DB.prepare("SELECT source, event_name, value_micro, currency, order_quantity, user_id, is_test FROM conversion_events WHERE ad_account_id = ?1 AND event_id = 'order-100'").bind(adAccountId).first();
    expect(row).toEqual({ source: "API", event_name: "checkout", value_micro: 72_390_000, currency: "USD", order_quantity: 2, user_id: U.customer, is_test: 0 });
  });

  it("answers a bad event with its index, field and reason while storing the good ones", async () => {
    const answer = await post(adAccountId, token, { data: [event("order-101"), event("order-102", { event_name: "purchase", custom_data: { value: "ten" } })] });
    expect(answer.status).toBe(200);
    expect(answer.body.num_events_processed).toBe(1);
    expect(answer.body.events.map((each) => [each.index, each.status, each.errors?.map((error) => `${error.field} ${error.reason}`)])).toEqual([
      [0, "processed", undefined],
      [1, "failed", ["event_name unknown_value", "custom_data.value not_amount", "custom_data.currency currency_required"]],
    ]);
    expect(answer.body.events[1]!.errors![0]!.message).toBe("is not one of the accepted values");
    expect(await scalar("SELECT COUNT(*) FROM conversion_events WHERE ad_account_id = ?1 AND event_id IN ('order-101', 'order-102')", adAccountId)).toBe(1);
  });

  it("reports an event the tag already stored under the same id as a duplicate, and keeps it once", async () => {
    const now = Date.now();
    await conversionStatement(env.DB, {
      adAccountId: Number(adAccountId),
      tagId: null,
      source: "TAG",
      receivedAt: now,
      event: { eventName: "checkout", eventId: "order-200", eventTime: now - 120_000, isTest: false, valueMicro: null, currency: null, orderQuantity: null, clickId: null, emailSha256: null },
    }).run();
    const answer = await post(adAccountId, token, { data: [event("order-200"), event("order-201"), event("order-201")] });
    expect(answer.body.events.map((each) => each.status)).toEqual(["duplicate", "processed", "duplicate"]);
    expect(await scalar("SELECT COUNT(*) FROM conversion_events WHERE ad_account_id = ?1 AND event_id = 'order-200'", adAccountId)).toBe(1);
    expect(await scalar("SELECT source FROM conversion_events WHERE ad_account_id = ?1 AND event_id = 'order-200'", adAccountId)).toBe("TAG");
  });

  it("stores a test call's events as tests", async () => {
    const answer = await post(adAccountId, token, { test: true, data: [event("test-1", { event_name: "lead" })] });
    expect([answer.body.test, answer.body.events[0]!.status]).toEqual([true, "processed"]);
    expect(await scalar("SELECT is_test FROM conversion_events WHERE ad_account_id = ?1 AND event_id = 'test-1'", adAccountId)).toBe(1);
  });

  it("refuses a body that is not a batch with a 400 naming the field", async () => {
    const answer = await post(adAccountId, token, { events: [] });
    expect([answer.status, (answer.body as unknown as { message_detail: string }).message_detail]).toEqual([400, "data: is required"]);
    const notJson = await post(adAccountId, token, null, "{not json");
    expect(notJson.status).toBe(400);
  });

  it("refuses a stranger's token, a revoked token, a missing token and an unknown account alike with 401", async () => {
    const rivalToken = (await makeToken(U.rival, "Rival", rivalAccountId, rivalBusinessId)).token.token!;
    const spare = await makeToken(U.owner, "Spare");
    const revoked = await (await browserAs(U.manager)).fetch(`${hub()}/tokens/${spare.token.id}/`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    const answers = await Promise.all([
      post(adAccountId, rivalToken, { data: [event("x-1")] }),
      post(adAccountId, spare.token.token!, { data: [event("x-2")] }),
      post(adAccountId, null, { data: [event("x-3")] }),
      post("4503599627370497", token, { data: [event("x-4")] }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    expect(new Set(answers.map((answer) => answer.body.message)).size).toBe(1);
    expect(await scalar("SELECT COUNT(*) FROM conversion_events WHERE event_id LIKE 'x-%'")).toBe(0);
    // The rival's own account still takes its token.
    expect((await post(rivalAccountId, rivalToken, { data: [event("r-1")] })).body.events[0]!.status).toBe("processed");
    const listed = await (await (await browserAs(U.owner)).fetch(`${hub()}/tokens/`)).json<{ data: { items: Token[] } }>();
    expect(listed.data.items.find((item) => item.id === spare.token.id)!.revoked_time).not.toBeNull();
  });

  it("refuses a body over 1 MB with 413, and more than 1,000 events with 400", async () => {
    const big = await post(adAccountId, token, null, JSON.stringify({ data: [event("big", { event_id: "x".repeat(10), pad: "y".repeat(1_000_001) })] }));
    expect(big.status).toBe(413);
    const many = await post(adAccountId, token, { data: Array.from({ length: 1_001 }, (_, at) => event(`many-${at}`)) });
    expect([many.status, (many.body as unknown as { message_detail: string }).message_detail]).toEqual([400, "data: must be at most 1000"]);
  });

  it("answers 429 with Retry-After once a token has made its calls for the minute", async () => {
    const fresh = await makeToken(U.owner, "Busy");
    await fillCounter(`conversions-api:token:${fresh.token.id}`, 60, 60_000);
    const answer = await post(adAccountId, fresh.token.token!, { data: [event("busy-1")] });
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await scalar("SELECT COUNT(*) FROM conversion_events WHERE event_id = 'busy-1'")).toBe(0);
  });

  it("lists the calls with their counts and shows the events in the overview", async () => {
    const answer = await (await browserAs(U.analyst)).fetch(`${hub()}/overview/`);
    const body = await answer.json<{ data: { total: number; matched: number; tests: number; bySource: Record<string, number>; days: Array<{ total: number; counts: Record<string, number> }>; calls: Array<{ events: number; processed: number; duplicates: number; failed: number; test: boolean }> } }>();
    expect(answer.status).toBe(200);
    // order-100, order-101, order-200 (the tag's), order-201; the test lead apart.
    expect([body.data.total, body.data.matched, body.data.tests, body.data.bySource]).toEqual([4, 1, 1, { TAG: 1, API: 3, UPLOAD: 0 }]);
    expect(body.data.days).toHaveLength(7);
    expect(body.data.days.reduce((sum, day) => sum + day.counts["checkout"]!, 0)).toBe(4);
    expect(body.data.calls.map((call) => [call.events, call.processed, call.duplicates, call.failed, call.test])).toEqual([
      [1, 1, 0, 0, true],
      [3, 1, 2, 0, false],
      [2, 1, 0, 1, false],
      [1, 1, 0, 0, false],
    ]);
    expect((await (await browserAs(U.stranger)).fetch(`${hub()}/overview/`)).status).toBe(404);
  });

  it("shows the tokens, the overview and the calls on the hub page", async () => {
    const page = await (await browserAs(U.analyst)).fetch(`/advertiser/${adAccountId}/conversions-api/`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Shop server");
    expect(html).toContain(`/v5/ad_accounts/${adAccountId}/events`);
    expect(html).not.toContain("data-token-create");
    expect((await (await browserAs(U.stranger)).fetch(`/advertiser/${adAccountId}/conversions-api/`)).status).toBe(404);
  });
});
