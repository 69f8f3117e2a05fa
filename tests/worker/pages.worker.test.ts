import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, BROWSER_UA, GOOGLEBOT_UA, attributeOf, countElements, fetchWorker, get, seedWorld } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

/** Script a browser would run: anything but JSON data blocks (JSON-LD, the context). */
const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';

beforeAll(async () => {
  await seedWorld([
    { id: 101, title: "Lemon tart" },
    { id: 102, title: "Gone tart", isDeleted: true },
    { id: 103, title: "Hidden tart", isHidden: true },
    { id: 104, title: "Secret tart", boardId: 11 },
    { id: 105, title: "Risky link", link: "javascript:alert(1)" },
    { id: 106, title: "Partner description" },
  ]);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, is_private_profile, age_in_years, created_at) VALUES (2, 'pia', 'pia@pinloom.test', 'Pia', 1, 15, 0)"),
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (3, 'cole', 'cole@pinloom.test', 'Cole', 0)"),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, archived_at, created_at, updated_at) VALUES (12, 1, 'Old flat', 'old-flat', 'public', 5, 0, 0)"),
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES
         (107, 3, 10, 'image', 'Cole on a shared board', 's', 1, 1),
         (108, 2, NULL, 'image', 'Pia private pin', 's', 1, 1),
         (109, 1, 12, 'image', 'On an archived board', 's', 1, 1)`,
    ),
    env.DB.prepare("INSERT INTO pin_images VALUES (107, '236x', '/m/107.jpg', 236, 300, '#aaaaaa'), (108, '236x', '/m/108.jpg', 236, 300, '#aaaaaa'), (109, '236x', '/m/109.jpg', 236, 300, '#aaaaaa')"),
  ]);
  await env.DB.prepare("UPDATE pins SET description_html = ?1 WHERE id = 106")
    .bind('<p>Best <b>tart</b> <a href="https://shop.example/t" onclick="x()">recipe</a><img src=x onerror=alert(1)><script>alert(2)</script> <a href="javascript:alert(3)">click</a> <a href="https://spam.example./">deal</a></p>')
    .run();
});

describe("status codes", () => {
  it("a pin page is 200 with its title", async () => {
    const response = await get("/pin/101/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Lemon tart</title>");
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/pin/101/");
  });

  it.each(["/pin/999/", "/pin/abc/", "/pin/104/", "/no/such/page"])("%s is a 404 page, not a 200", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toBe("noindex, follow");
  });

  it("the sent variant shows the same pin, canonical to the pin itself", async () => {
    const response = await get("/pin/101/sent/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Lemon tart</title>");
    expect(await attributeOf(html, 'link[rel="canonical"]', "href")).toBe("https://pinloom.example/pin/101/");
    expect((await get("/pin/999/sent/")).status).toBe(404);
    expect((await get("/pin/102/sent/")).status).toBe(410);
  });

  it("a deleted pin is 410 Gone", async () => {
    const response = await get("/pin/102/");
    expect(response.status).toBe(410);
    expect(await response.text()).toContain("This pin was deleted");
  });

  it("a hidden pin is missing to strangers and served, noindex, to its pinner", async () => {
    expect((await get("/pin/103/")).status).toBe(404);
    const pinner = await createSession(1);
    const response = await get("/pin/103/", { cookie: pinner.cookie });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Hidden tart");
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toBe("noindex, follow");
  });
});

describe("no secret leaks through the first pages", () => {
  it("the home grid shows public pins only", async () => {
    const html = await (await get("/")).text();
    expect(html).toContain('href="/pin/101/"');
    for (const hidden of ["102", "103", "104"]) expect(html).not.toContain(`href="/pin/${hidden}/"`);
    expect(html).not.toContain("Surprise party for Maya");
  });
});

describe("client script", () => {
  it("a browser gets the context and the island", async () => {
    const html = await (await get("/pin/101/")).text();
    expect(await countElements(html, "script#pinloom-context")).toBe(1);
    // The copy-link button, plus the header's Log in / Sign up and the signed-out Save (src/accounts).
    expect(await countElements(html, 'astro-island[component-url*="CopyLinkButton"]')).toBe(1);
    expect(await countElements(html, 'astro-island[component-url*="AuthModal"]')).toBe(2);
    expect(await countElements(html, "script")).toBeGreaterThan(1);
  });

  it.each([
    ["a crawler", "/pin/101/", { "user-agent": GOOGLEBOT_UA }],
    ["?server_only", "/pin/101/?server_only=1", {}],
    ["a search-engine cache host", "/pin/101/", { "x-forwarded-host": "webcache.googleusercontent.com" }],
    ["a crawler on the home page", "/", { "user-agent": GOOGLEBOT_UA }],
  ])("%s gets no executable script at all, only structured data", async (_name, path, headers) => {
    const html = await (await get(path, headers)).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, "astro-island")).toBe(0);
    expect(await countElements(html, 'link[rel="modulepreload"]')).toBe(0);
  });

  it("a crawler gets the pin's structured data", async () => {
    const html = await (await get("/pin/101/", { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, 'script[type="application/ld+json"]')).toBe(2);
  });

  it("the crawler's copy of the pin has the same content as a person's", async () => {
    const person = await (await get("/pin/101/")).text();
    const crawler = await (await get("/pin/101/", { "user-agent": GOOGLEBOT_UA })).text();
    const text = (html: string) => html.replace(/<script[\s\S]*?<\/script>|<astro-island[^>]*>|<\/astro-island>|<link rel="modulepreload"[^>]*>/g, "");
    const heading = /<h1[^>]*>([^<]*)<\/h1>/;
    expect(heading.exec(text(crawler))?.[1]).toBe(heading.exec(text(person))?.[1]);
    expect(crawler).toContain("Copy link");
  });

  it("the embedded context cannot be closed by a decoded query value", async () => {
    const payload = "</script><script>alert(1)</script>";
    const path = `/pin/101/?invite_code=${encodeURIComponent(payload)}`;
    // A shared (cached) render leaves per-visitor values out entirely.
    expect(await (await get(path)).text()).not.toContain("alert(1)");
    // A personal render embeds the value, escaped so it cannot close the element.
    const token = "c".repeat(64);
    const personal = await fetchWorker(path, {
      method: "POST",
      headers: { "user-agent": BROWSER_UA, origin: BASE, cookie: `csrftoken=${token}`, "x-csrftoken": token },
    });
    const html = await personal.text();
    const start = html.indexOf('id="pinloom-context">') + 'id="pinloom-context">'.length;
    const json = html.slice(start, html.indexOf("</script>", start));
    expect(json).not.toContain("<");
    expect(JSON.parse(json).inviteCode).toBe(payload);
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(await countElements(await (await get("/pin/101/")).text(), EXECUTABLE_SCRIPT));
  });
});

describe("translation at the edge", () => {
  it.each([
    ["fr", "fr", "ltr", "Des idées pour vous"],
    ["ar-SA", "ar-SA", "rtl", "أفكار لك"],
    ["de", "de", "ltr", "Ideen für dich"],
    ["he", "he-IL", "rtl", "רעיונות בשבילך"],
    ["ja-JP", "ja", "ltr", "あなたへのおすすめ"],
    // A language the product does not speak: English, labelled English.
    ["sw", "en-US", "ltr", "Ideas for you"],
  ])("Accept-Language %s renders lang=%s dir=%s", async (acceptLanguage, lang, dir, heading) => {
    const html = await (await get("/", { "accept-language": acceptLanguage })).text();
    expect(await attributeOf(html, "html", "lang")).toBe(lang);
    expect(await attributeOf(html, "html", "dir")).toBe(dir);
    expect(html).toContain(heading);
  });

  it("?locale= wins over the header", async () => {
    const html = await (await get("/pin/999/?locale=ar_SA", { "accept-language": "fr" })).text();
    expect(html).toContain("الصفحة غير موجودة");
  });
});

describe("a pin's people and boards follow their own visibility", () => {
  it("a pin by a private profile is a missing pin to strangers, and in no feed", async () => {
    expect((await get("/pin/108/")).status).toBe(404);
    expect(await (await get("/")).text()).not.toContain('href="/pin/108/"');
  });

  it("a board link names the board's owner, not the pinner", async () => {
    const html = await (await get("/pin/107/")).text();
    expect(html).toContain('href="/ana/weeknight-dinners/"');
    expect(html).not.toContain("/cole/weeknight-dinners/");
  });

  it("a pin first saved to an archived board is missing to strangers, named by nothing", async () => {
    const response = await get("/pin/109/");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).not.toContain("On an archived board");
    expect(html).not.toContain("/ana/old-flat/");
    expect(html).not.toContain("Old flat");
  });
});

describe("partner HTML in descriptions", () => {
  it("reaches the page only as allowlisted markup", async () => {
    const html = await (await get("/pin/106/")).text();
    expect(html).toContain('<p>Best <b>tart</b> <a href="https://shop.example/t" rel="nofollow ugc noopener noreferrer">recipe</a>');
    for (const bad of ["onerror", "onclick", "alert(2)", "javascript:alert(3)", "spam.example"]) expect(html).not.toContain(bad);
    expect(html).toContain("click");
    expect(html).toContain("deal");
  });
});

describe("the outbound link", () => {
  it("never links a javascript: URL; falls back to the original image", async () => {
    const html = await (await get("/pin/105/")).text();
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="/media/pins/105/orig.jpg"');
  });
});
