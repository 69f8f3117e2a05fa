// The app shell (src/shell/AppShell.astro) as the built Worker serves it: people get its
// regions and one small module script; crawlers get none of it.
import { beforeAll, describe, expect, it } from "vitest";
import { GOOGLEBOT_UA, attributeOf, countElements, get, seedWorld } from "./fixtures.ts";

const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';
const PAGES = ["/", "/pin/101/"];

beforeAll(async () => {
  await seedWorld([{ id: 101, title: "Lemon tart" }]);
});

/** Text of every executable script, read with the HTML parser. */
async function scriptTexts(html: string): Promise<string[]> {
  const texts: string[] = [];
  let current = "";
  await new HTMLRewriter()
    .on(EXECUTABLE_SCRIPT, {
      element(element) {
        current = "";
        element.onEndTag(() => void texts.push(current));
      },
      text(chunk) {
        current += chunk.text;
      },
    })
    .transform(new Response(html))
    .text();
  return texts;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

describe.each(PAGES)("a person's %s", (path) => {
  it("carries the banner, toast region, loading overlay and modal with their roles, all hidden", async () => {
    const response = await get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await countElements(html, '#shell-banner[role="status"][aria-live="polite"][hidden]')).toBe(1);
    expect(await countElements(html, "#shell-toasts[aria-label][hidden].toasts-bottom-14")).toBe(1);
    expect(await countElements(html, '#shell-loading[hidden] [role="progressbar"][aria-labelledby="shell-loading-label"]')).toBe(1);
    expect(html).toMatch(/<span id="shell-loading-label"[^>]*>Loading\.\.\.<\/span>/);
    expect(await countElements(html, 'dialog#shell-verify[aria-labelledby="shell-verify-title"]:not([open])')).toBe(1);
    expect(await attributeOf(html, "#shell-banner", "data-offline")).toBe("You're offline! Check your internet connection.");
    expect(await attributeOf(html, "#shell-banner", "data-back-online")).toBe("You're back online!");
    expect(await attributeOf(html, "#shell-toasts", "data-offline")).toBe("Hmm...you're not connected to the internet");
    expect(html).toContain("Verify your email");
    // The shell sits at the end of <body>, and no element of it has an inline style.
    expect(await countElements(html, "body > #pinloom-shell")).toBe(1);
    expect(await countElements(html, ".shell [style], .shell[style]")).toBe(0);
  });

  it("runs the shell from one same-origin module script the CSP allows, never inline", async () => {
    const response = await get(path);
    const html = await response.text();
    // Its stores are nanostores atoms shared with the islands, so it is a bundled module file
    // (hashed name, cached immutably) rather than an inline copy of that shared code.
    expect((await scriptTexts(html)).filter((text) => text.includes("pinloom:verify-email"))).toHaveLength(0);
    expect(await countElements(html, 'script[type="module"][src^="/_astro/AppShell."]')).toBe(1);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src[^;]*'self'/);
  });
});

it("embeds no per-visitor value: a phone gets the same shell HTML (the script places toasts)", async () => {
  const phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
  const html = await (await get("/pin/101/?utm_source=x", { "user-agent": phone })).text();
  expect(await attributeOf(html, "#shell-toasts", "class")).toBe("shell-toasts toasts-bottom-14");
  expect(await attributeOf(html, "#shell-toasts", "data-placement")).toBe("toasts-bottom-14");
});

it("speaks the page's language", async () => {
  const html = await (await get("/?locale=ar_SA")).text();
  expect(await attributeOf(html, "html", "dir")).toBe("rtl");
  expect(await attributeOf(html, "#shell-banner", "data-offline")).toBe("أنت غير متصل بالإنترنت! تحقق من اتصالك بالإنترنت.");
  expect(html).toContain("تحقق من بريدك الإلكتروني");
});

describe.each(PAGES)("a crawler's %s", (path) => {
  it("has no shell and zero executable scripts", async () => {
    const html = await (await get(path, { "user-agent": GOOGLEBOT_UA })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, ".shell, #shell-banner, #shell-toasts, #shell-loading, dialog")).toBe(0);
    expect(html).not.toContain("pinloom:verify-email");
  });

  it("?server_only gets none either", async () => {
    const html = await (await get(`${path}?server_only=1`)).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, "#pinloom-shell")).toBe(0);
  });
});
