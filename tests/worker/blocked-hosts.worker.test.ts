// Blocked link hosts are never published (docs/decisions.md): not as the flashlight's domain
// filters, not as search's shop filters, not as a pin's domain on its page, in its JSON-LD,
// PinResource or GraphQL. Pins linking to them stay visible; only the host's name is withheld.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { QUERY_IDS } from "~/graphql/query-ids.ts";
import { Browser } from "./accounts-helpers.ts";
import { call, ok } from "./boards-helpers.ts";
import { BASE, BROWSER_UA, fetchWorker, get } from "./fixtures.ts";

const T0 = 1_700_000_000_000;
const CSRF = "c".repeat(64);
/** The blocked host, a subdomain of it, and an ordinary shop. */
const BLOCKED = "spam-deals.example";
const BLOCKED_SUB = "cheap.spam-deals.example";
const SHOP = "fair-shop.example";

let anon: Browser;

beforeAll(async () => {
  const db = env.DB;
  const pin = (id: number, domain: string, price: number) =>
    db
      .prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, title, category, domain, link, price_value, price_currency, image_signature, created_at, updated_at)
         VALUES (?1, 1, 10, 'product', ?2, 'home_decor', ?3, ?4, ?5, 'USD', 'sig', ?6, ?6)`,
      )
      .bind(id, `Lamp ${id} sale`, domain, `https://${domain}/lamp-${id}`, price, T0 + id);
  const image = (id: number) => db.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`);
  const ids = [301, 302, 303, 304];
  const domains = [SHOP, BLOCKED, BLOCKED_SUB, SHOP];
  await db.batch([
    db.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (1, 'ana', 'ana@pinloom.test', 'Ana Lima', 0)"),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (10, 1, 'Lamps', 'lamps', 'public', 0, 0)"),
    db.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES (?1, 1), (?2, 0)").bind(BLOCKED, SHOP),
    db.prepare("INSERT INTO interests (id, key, name) VALUES (1, 'lamps', 'Lamps')"),
    ...ids.flatMap((id, index) => [pin(id, domains[index]!, 20 + index), image(id), db.prepare("INSERT INTO pin_interests (pin_id, interest_id) VALUES (?1, 1)").bind(id)]),
  ]);
  anon = new Browser();
});

describe("blocked hosts", () => {
  it("never appear in VisualSearchFlashlightUnifiedResource's filters", async () => {
    for (const pinId of ["301", "302", "303", "304"]) {
      const response = await anon.resource("VisualSearchFlashlightUnifiedResource", "get", { pin_id: pinId });
      const text = await response.text();
      expect(response.status, pinId).toBe(200);
      expect(text, pinId).not.toContain("spam-deals");
    }
    const answer = await ok<{ domain_filters: Array<{ domain: string; count: number }> }>(anon, "VisualSearchFlashlightUnifiedResource", "get", { pin_id: "301" });
    expect(answer.domain_filters).toEqual([{ domain: SHOP, count: 1 }]);
    // With a query too.
    const text = await (await anon.resource("VisualSearchFlashlightUnifiedResource", "get", { pin_id: "301", query: "lamp" })).text();
    expect(text).not.toContain("spam-deals");
  });

  it("never appear in search's shop filters", async () => {
    const answer = await call<Record<string, unknown>>(anon, "BaseSearchResource", "get", { query: "lamp", scope: "buyable_pins" });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.data)).not.toContain("spam-deals");
    expect(JSON.stringify(answer.data)).toContain(SHOP);
    expect(await (await get("/search/buyable_pins/?q=lamp")).text()).not.toContain("spam-deals");
  });

  it("are not named on the close-up, its JSON-LD, PinResource or GraphQL", async () => {
    for (const pinId of ["302", "303"]) {
      const page = await get(`/pin/${pinId}/`);
      expect(page.status).toBe(200);
      expect(await page.text(), pinId).not.toContain("spam-deals");
      const resource = await fetchWorker(`/resource/PinResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { id: pinId } }))}`);
      expect(resource.status).toBe(200);
      expect(await resource.text(), pinId).not.toContain("spam-deals");
      const graphql = await fetchWorker("/_/graphql/", {
        method: "POST",
        headers: { origin: BASE, "content-type": "application/json", accept: "application/json", "x-csrftoken": CSRF, "user-agent": BROWSER_UA, cookie: `csrftoken=${CSRF}` },
        body: JSON.stringify({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId, isAuth: false } }),
      });
      expect(graphql.status).toBe(200);
      expect(await graphql.text(), pinId).not.toContain("spam-deals");
    }
    // An ordinary shop is still named.
    expect(await (await get("/pin/301/")).text()).toContain(SHOP);
  });
});
