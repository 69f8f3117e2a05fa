// Who gets the save island: signed-in people get one island on the
// close-up and ONE per pin grid (never one per cell); signed-out visitors keep the log-in Save
// and get no save island script; crawlers get no script at all, and a crawler's grid HTML is
// byte for byte a signed-out visitor's, whatever cookie it carries.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, GOOGLEBOT_UA, attributeOf, countElements, get, seedWorld } from "./fixtures.ts";
import { islandProps, jsonScript } from "./islands.ts";
import { PAGE_STRINGS_ID } from "~/i18n/page-strings.ts";
import { createSession } from "./session-fixture.ts";

const SAVE_ISLANDS = 'astro-island[component-url*="SaveButton"], astro-island[component-url*="GridSave"]';
const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';
const PIN = "/pin/101/";
const BOARD = "/ana/weeknight-dinners/";

let ana = "";
let quickSaver = "";
let limited = "";

beforeAll(async () => {
  await seedWorld([{ id: 101 }, { id: 105 }, { id: 106 }, { id: 107 }]);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at, save_behavior) VALUES (2, 'quinn', 'quinn@pinloom.test', 'Quinn', 0, 1)"),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at, login_state) VALUES (3, 'lou', 'lou@pinloom.test', 'Lou', 0, 'limited')"),
    ...[101, 105, 106, 107].map((pin, index) =>
      env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (10, ?1, 1, ?2, ?3)").bind(pin, index + 1, 1_700_000_000_000 + pin),
    ),
  ]);
  ana = (await createSession(1)).cookie;
  quickSaver = (await createSession(2)).cookie;
  limited = (await createSession(3)).cookie;
});

/** The grid's <ul> exactly as served. */
const gridHtml = (html: string) => /<ul class="pin-grid"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";

describe("the close-up", () => {
  it("a signed-in person gets one save island, not the log-in Save", async () => {
    const html = await (await get(PIN, { cookie: ana })).text();
    expect(await countElements(html, '.closeup-actions astro-island[component-url*="SaveButton"]')).toBe(1);
    expect(await countElements(html, '.closeup-actions astro-island[component-url*="AuthModal"]')).toBe(0);
    const props = (await attributeOf(html, 'astro-island[component-url*="SaveButton"]', "props")) ?? "";
    expect(props).toContain("101");
    // Its words, and the grid's Save's, are in the page's strings block once, not in either's props.
    expect(props).not.toContain("Save to board");
    expect((jsonScript(html, PAGE_STRINGS_ID)?.save as { pickerTitle?: string } | undefined)?.pickerTitle).toBe("Save to board");
    expect(html.split("Save to board").length - 1).toBe(1);
  });

  it("save_behavior 1 makes Save a quick-save to the profile", async () => {
    // On a member page the per-person props arrive in its slot block: read them as the island does.
    const props = async (cookie: string) => islandProps(await (await get(PIN, { cookie })).text(), "SaveButton");
    expect(await props(quickSaver)).toMatchObject({ quickSave: true });
    expect(await props(ana)).toMatchObject({ quickSave: false });
  });

  it.each([
    ["a signed-out visitor", () => ""],
    ["a limited-login account", () => limited],
  ])("%s gets no save island script", async (_name, cookie) => {
    const html = await (await get(PIN, cookie() ? { cookie: cookie() } : {})).text();
    expect(await countElements(html, SAVE_ISLANDS)).toBe(0);
    expect(await countElements(html, "button.pin-save")).toBe(0);
    expect(html).not.toContain("Save to board");
  });

  it("a signed-out visitor keeps the log-in Save that remembers the pin", async () => {
    const html = await (await get(PIN)).text();
    expect(await countElements(html, '.closeup-actions astro-island[component-url*="AuthModal"]')).toBe(1);
  });
});

describe("pin grids", () => {
  it("a signed-in person gets a Save button per cell and ONE island per grid", async () => {
    const html = await (await get(BOARD, { cookie: ana })).text();
    const cells = await countElements(html, ".pin-grid > li.pin-cell");
    expect(cells).toBeGreaterThan(1);
    expect(await countElements(html, ".pin-grid > li.pin-cell > button.pin-save[type=button][data-pin-id]")).toBe(cells);
    expect(await countElements(html, 'astro-island[component-url*="GridSave"]')).toBe(await countElements(html, "ul.pin-grid"));
    const gridId = await attributeOf(html, "ul.pin-grid", "id");
    expect(gridId).toBeTruthy();
    expect(await attributeOf(html, 'astro-island[component-url*="GridSave"]', "props")).toContain(gridId!);
  });

  it.each([
    ["a signed-out visitor", BOARD, { "user-agent": BROWSER_UA }],
    ["a crawler", BOARD, { "user-agent": GOOGLEBOT_UA }],
    ["a crawler on a pin page", PIN, { "user-agent": GOOGLEBOT_UA }],
  ])("%s gets no Save buttons and no save island", async (_name, path, headers) => {
    const html = await (await get(path, headers)).text();
    expect(await countElements(html, "button.pin-save")).toBe(0);
    expect(await countElements(html, SAVE_ISLANDS)).toBe(0);
  });

  it("a crawler carrying a session cookie still gets no script and the very same grid bytes as a signed-out crawler", async () => {
    const anonymous = await (await get(BOARD, { "user-agent": GOOGLEBOT_UA })).text();
    const withSession = await (await get(BOARD, { "user-agent": GOOGLEBOT_UA, cookie: ana })).text();
    expect(await countElements(withSession, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(withSession, "astro-island")).toBe(0);
    expect(gridHtml(anonymous)).not.toBe("");
    expect(gridHtml(withSession)).toBe(gridHtml(anonymous));
  });

  it("a signed-out visitor's grid is the crawler's grid, byte for byte", async () => {
    const person = await (await get(BOARD)).text();
    const crawler = await (await get(BOARD, { "user-agent": GOOGLEBOT_UA })).text();
    expect(gridHtml(person)).toBe(gridHtml(crawler));
  });
});
