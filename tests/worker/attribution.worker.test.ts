// Attribution pings must prove they follow an ad we served: the promoted pin's page carries a
// signed token for that pin and advertiser, and only a ping echoing it (from our own page) is
// counted. Source event ids are unique per advertiser.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signAttributionToken } from "~/attribution/token.server.ts";
import { TEST_ATTRIBUTION_SECRET } from "./attribution-secret.ts";
import { attributeOf, BROWSER_UA, fetchWorker, get, seedWorld } from "./fixtures.ts";

/** Ana's promoted pin and Ben's; the third pin is nobody's ad. */
const ANA = "1";
const BEN = "2";
const ANA_PIN = "201";
const BEN_PIN = "202";
const ORGANIC_PIN = "203";
const HOUR_MS = 60 * 60 * 1000;

beforeAll(async () => {
  await seedWorld([{ id: 201, link: "https://shop.example/lamp" }, { id: 202, link: "https://other.example/chair" }, { id: 203 }]);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (2, 'ben', 'ben@pinloom.test', 'Ben Ode', 0)"),
    env.DB.prepare("UPDATE pins SET is_promoted = 1, promoter_id = 1 WHERE id = 201"),
    env.DB.prepare("UPDATE pins SET is_promoted = 1, promoter_id = 2 WHERE id = 202"),
  ]);
});

let address = 0;
interface Ping {
  id: string;
  pin: string;
  advertiser: string;
  token?: string | undefined;
  site?: string | null;
  type?: "view" | "click";
}
/** A ping as the page's script sends it; each from its own address so no test meets the throttle. */
function ping({ id, pin, advertiser, token, site = "same-origin", type = "click" }: Ping): Promise<Response> {
  const query = new URLSearchParams({ source_event_id: id, destination: "https://shop.example", source_event_type: type, advertiser_id: advertiser, pin_id: pin });
  if (token !== undefined) query.set("token", token);
  return fetchWorker(`/attribution_source/?${query}`, {
    headers: { "user-agent": BROWSER_UA, "cf-connecting-ip": `203.0.113.${100 + (++address % 100)}`, ...(site === null ? {} : { "sec-fetch-site": site }) },
  });
}

const stored = async (id: string): Promise<Array<{ advertiser_id: string; pin_id: number }>> =>
  (await env.DB.prepare("SELECT advertiser_id, pin_id FROM attribution_pings WHERE source_event_id = ?1 ORDER BY advertiser_id").bind(id).all<{ advertiser_id: string; pin_id: number }>()).results;

const tokenFor = (pin: string, advertiser: string, nowMs = Date.now(), secret = TEST_ATTRIBUTION_SECRET) => signAttributionToken(secret, { pinId: pin, advertiserId: advertiser }, nowMs);

async function tokenOnPage(pin: string): Promise<string | null> {
  const html = await (await get(`/pin/${pin}/`)).text();
  return attributeOf(html, "a[data-attribution-advertiser]", "data-attribution-token");
}

describe("a proven attribution ping", () => {
  it("counts a ping that echoes the token from the promoted pin's page", async () => {
    const token = await tokenOnPage(ANA_PIN);
    expect(token).toMatch(/^\d+\.[0-9a-f]{64}$/);
    const response = await ping({ id: "31001", pin: ANA_PIN, advertiser: ANA, token: token! });
    expect(response.status).toBe(204);
    expect(JSON.parse(response.headers.get("attribution-reporting-register-source")!)).toEqual({ source_event_id: "31001", destination: "https://shop.example", expiry: "604800", priority: "2" });
    expect(await stored("31001")).toEqual([{ advertiser_id: ANA, pin_id: 201 }]);
  });

  it("puts no token on a pin nobody promotes", async () => {
    expect(await tokenOnPage(ORGANIC_PIN)).toBeNull();
  });

  it("no longer counts a ping that only claims Sec-Fetch-Site: same-origin", async () => {
    const response = await ping({ id: "31002", pin: ANA_PIN, advertiser: ANA, site: "same-origin" });
    expect(response.status).toBe(204);
    expect(response.headers.get("attribution-reporting-register-source")).toBeNull();
    expect(await stored("31002")).toEqual([]);
  });

  it.each([
    ["a token for another pin", "31003", () => tokenFor(BEN_PIN, ANA)],
    ["a token for another advertiser", "31004", () => tokenFor(ANA_PIN, BEN)],
    ["a token that expired", "31005", () => tokenFor(ANA_PIN, ANA, Date.now() - 2 * HOUR_MS)],
    ["a token signed with another secret", "31006", () => tokenFor(ANA_PIN, ANA, Date.now(), "somebody-else's-secret-of-enough-length-000")],
    ["a well-formed made-up token", "31007", async () => `${Math.floor(Date.now() / 1000) + 600}.${"ab".repeat(32)}`],
  ])("does not count %s (204, no header, nothing stored)", async (_name, id, token) => {
    const response = await ping({ id, pin: ANA_PIN, advertiser: ANA, token: await token() });
    expect(response.status).toBe(204);
    expect(response.headers.get("attribution-reporting-register-source")).toBeNull();
    expect(await stored(id)).toEqual([]);
  });

  it.each([
    ["a cross-site page", "31008", "cross-site"],
    ["a request without Sec-Fetch-Site", "31009", null],
  ])("does not count a valid token sent from %s", async (_name, id, site) => {
    const response = await ping({ id, pin: ANA_PIN, advertiser: ANA, token: await tokenFor(ANA_PIN, ANA), site });
    expect(response.status).toBe(204);
    expect(response.headers.get("attribution-reporting-register-source")).toBeNull();
    expect(await stored(id)).toEqual([]);
  });

  it("does not count a valid token once its pin is no longer promoted", async () => {
    await env.DB.prepare("INSERT INTO pins (id, pinner_id, kind, title, image_signature, is_promoted, promoter_id, created_at, updated_at) VALUES (204, 1, 'image', 'Ended', 'sig', 0, NULL, 0, 0)").run();
    const response = await ping({ id: "31010", pin: "204", advertiser: ANA, token: await tokenFor("204", ANA) });
    expect(response.status).toBe(204);
    expect(response.headers.get("attribution-reporting-register-source")).toBeNull();
    expect(await stored("31010")).toEqual([]);
  });

  it("refuses a malformed token with a 400 naming it", async () => {
    const response = await ping({ id: "31011", pin: ANA_PIN, advertiser: ANA, token: "not-a-token" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message_detail: string }).message_detail).toContain("token:");
    expect(await stored("31011")).toEqual([]);
  });
});

describe("source_event_id per advertiser", () => {
  it("lets two advertisers use the same id: each keeps their own ping", async () => {
    const first = await ping({ id: "32001", pin: BEN_PIN, advertiser: BEN, token: await tokenFor(BEN_PIN, BEN) });
    const second = await ping({ id: "32001", pin: ANA_PIN, advertiser: ANA, token: await tokenFor(ANA_PIN, ANA) });
    expect(first.headers.get("attribution-reporting-register-source")).not.toBeNull();
    expect(second.headers.get("attribution-reporting-register-source")).not.toBeNull();
    expect(await stored("32001")).toEqual([
      { advertiser_id: ANA, pin_id: 201 },
      { advertiser_id: BEN, pin_id: 202 },
    ]);
  });

  it("applies one advertiser's repeated id once, even as another event type", async () => {
    const token = await tokenFor(ANA_PIN, ANA);
    expect((await ping({ id: "32002", pin: ANA_PIN, advertiser: ANA, token, type: "view" })).status).toBe(204);
    expect((await ping({ id: "32002", pin: ANA_PIN, advertiser: ANA, token, type: "click" })).status).toBe(204);
    const rows = await env.DB.prepare("SELECT source_event_type FROM attribution_pings WHERE source_event_id = '32002'").all<{ source_event_type: string }>();
    expect(rows.results).toEqual([{ source_event_type: "view" }]);
  });
});
