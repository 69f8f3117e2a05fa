// /pin-builder/: signed-in people get the builder (never indexed, its island loading at once);
// visitors and limited logins are sent to log in and back.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.ts";
import { Browser, PASSWORD, USERS } from "./accounts-helpers.ts";
import { BROWSER_UA, GOOGLEBOT_UA, attributeOf, countElements, fetchWorker, seedWorld } from "./fixtures.ts";

let signedIn: Browser;

beforeAll(async () => {
  await seedWorld([{ id: 101, title: "Lemon tart" }]);
  const hash = await hashPassword(PASSWORD, new Uint8Array(16).fill(1));
  await env.DB.prepare("UPDATE users SET password_hash = ?1, email_verified = 1 WHERE id = 1").bind(hash).run();
  signedIn = new Browser();
  await signedIn.login(USERS.ana.username);
});

describe("the pin builder page", () => {
  it.each([
    ["a visitor", BROWSER_UA],
    ["a crawler", GOOGLEBOT_UA],
  ])("sends %s to log in, coming back to the builder", async (_who, userAgent) => {
    const response = await fetchWorker("/pin-builder/", { redirect: "manual", headers: { "user-agent": userAgent } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login/?next=/pin-builder/");
  });

  it("gives a signed-in person the builder, not indexed, its island loading at once", async () => {
    const response = await signedIn.fetch("/pin-builder/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await attributeOf(html, 'meta[name="robots"]', "content")).toContain("noindex");
    expect(await countElements(html, 'astro-island[component-url*="PinBuilder"][client="load"]')).toBe(1);
    expect(await countElements(html, "h1")).toBe(1);
    // The upload view's file picker is in the server HTML, labelled.
    const input = await attributeOf(html, 'input[type="file"][multiple]', "id");
    expect(await countElements(html, `label[for="${input}"]`)).toBe(1);
    // Creation is on (wrangler.toml [vars] PIN_CREATION_DISABLED = "false"): no banner.
    expect(await countElements(html, ".builder-banner")).toBe(0);
  });

  it("is private to its person: never stored in a shared cache", async () => {
    const response = await signedIn.fetch("/pin-builder/");
    expect(response.headers.get("cache-control")).toMatch(/private|no-store/);
  });
});
