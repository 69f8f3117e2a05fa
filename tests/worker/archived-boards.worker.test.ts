// A pin first saved to an archived board reaches only the board's people, like a pin on a
// secret board: its page, search, the sitemaps, GraphQL, PinResource and other people's public
// boards all answer as if it did not exist, while its pinner still opens it.
import { beforeAll, describe, expect, it } from "vitest";
import { QUERY_IDS } from "~/graphql/query-ids.ts";
import { BASE, BROWSER_UA, fetchWorker, get } from "./fixtures.ts";
import { PINS, USERS, seedPrivacyWorld, sessionCookie } from "./privacy-world.ts";

const CSRF = "c".repeat(64);
let ana: string;

beforeAll(async () => {
  await seedPrivacyWorld();
  ana = await sessionCookie(USERS.ana);
});

function graphql(pinId: number): Promise<Response> {
  return fetchWorker("/_/graphql/", {
    method: "POST",
    headers: { origin: BASE, "content-type": "application/json", accept: "application/json", "x-csrftoken": CSRF, "user-agent": BROWSER_UA, cookie: `csrftoken=${CSRF}` },
    body: JSON.stringify({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: String(pinId), isAuth: false } }),
  });
}

const pinResource = (pinId: number) => fetchWorker(`/resource/PinResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { id: String(pinId) } }))}`);

/** A page with its own path and per-request context taken out, to compare two answers. */
const normalized = (html: string, path: string) => html.replaceAll(path, "{path}").replace(/<script type="application\/json" id="pinloom-context">[\s\S]*?<\/script>/, "");

describe("a pin first saved to an archived board", () => {
  it("answers its page to a stranger exactly as a missing pin", async () => {
    const archived = await get(`/pin/${PINS.archived}/`);
    const missing = await get("/pin/999999/");
    expect(archived.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(normalized(await archived.text(), `/pin/${PINS.archived}/`)).toBe(normalized(await missing.text(), "/pin/999999/"));
  });

  it("still opens for its pinner", async () => {
    const response = await get(`/pin/${PINS.archived}/`, { cookie: ana });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("balconette");
  });

  it("is not found by search", async () => {
    const html = await (await get("/search/pins/?q=balconette")).text();
    expect(html).not.toContain(`/pin/${PINS.archived}/`);
    // The same search finds a public pin's word, so the page is a real result page.
    expect(await (await get("/search/pins/?q=marigold")).text()).toContain(`/pin/${PINS.open}/`);
  });

  it("is not in the sitemaps", async () => {
    const xml = await (await get("/sitemaps/pins-1.xml")).text();
    expect(xml).toContain(`/pin/${PINS.open}/`);
    expect(xml).not.toContain(`/pin/${PINS.archived}/`);
  });

  it("is null to GraphQL, as a missing pin is", async () => {
    const archived = await (await graphql(PINS.archived)).json();
    const missing = await (await graphql(999999)).json();
    expect(archived).toEqual(missing);
    expect((await (await graphql(PINS.open)).json()) as { data: { pin: { id: string } } }).toMatchObject({ data: { pin: { id: String(PINS.open) } } });
  });

  it("is a 404 from PinResource, as a missing pin is", async () => {
    const archived = await pinResource(PINS.archived);
    const missing = await pinResource(999999);
    expect(archived.status).toBe(404);
    expect(await archived.json()).toEqual(await missing.json());
  });

  it("is not shown on another person's public board it was saved to", async () => {
    const html = await (await get("/sam/finds/")).text();
    expect(html).toContain(`/pin/${PINS.open}/`);
    expect(html).not.toContain(`/pin/${PINS.archived}/`);
  });

  it("lives on a board whose page a stranger cannot open", async () => {
    expect((await get("/ana/old-flat/")).status).toBe(404);
  });
});
