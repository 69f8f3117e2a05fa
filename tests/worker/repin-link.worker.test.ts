// The repost deep link /pin/{id}/repin/: signed in, 302 to the close-up at #repin (where the
// Save island opens the board picker); signed out, 302 to log in, coming back through the link;
// a pin the viewer may not reach answers exactly as its close-up does; no address ever comes
// from the request.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { GOOGLEBOT_UA } from "./fixtures.ts";
import { CAST, CAST_BOARDS, browserFor, seedCast } from "./roles-fixture.ts";

const PUBLIC_PIN = 3201;
const SECRET_PIN = 3202;
const DELETED_PIN = 3203;

beforeAll(async () => {
  await seedCast();
  const pin = (id: number, boardId: number, deleted = 0) =>
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, is_deleted, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'image', 'A pin', 'Something to look at', 'sig', '#a1b2c3', ?4, ?5, ?5)`,
    ).bind(id, CAST.owner, boardId, deleted, 1_700_000_000_000 + id);
  const image = (id: number) => env.DB.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3'), (?1, 'orig', ?2, 800, 1200, '#a1b2c3')").bind(id, `/media/pins/${id}/x.jpg`);
  await env.DB.batch([
    pin(PUBLIC_PIN, CAST_BOARDS.public),
    pin(SECRET_PIN, CAST_BOARDS.secret),
    pin(DELETED_PIN, CAST_BOARDS.public, 1),
    image(PUBLIC_PIN),
    image(SECRET_PIN),
    image(DELETED_PIN),
  ]);
});

describe("the repost link", () => {
  it("sends a signed-in person to the close-up at #repin, never cached", async () => {
    for (const role of ["stranger", "owner"] as const) {
      const response = await (await browserFor(role)).fetch(`/pin/${PUBLIC_PIN}/repin/`);
      expect(response.status, role).toBe(302);
      expect(response.headers.get("location"), role).toBe(`/pin/${PUBLIC_PIN}/#repin`);
      expect(response.headers.get("cache-control"), role).toContain("no-store");
    }
  });

  it("sends a signed-out visitor (and a crawler) to log in, then back through the link", async () => {
    for (const headers of [{}, { "user-agent": GOOGLEBOT_UA }]) {
      const response = await new Browser().fetch(`/pin/${PUBLIC_PIN}/repin/`, { headers });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/login/?next=/pin/${PUBLIC_PIN}/repin/`);
    }
  });

  it("follows nothing the request says: no open redirect", async () => {
    for (const query of ["?next=https://evil.example/", "?next=//evil.example/", "?redirect_url=https://evil.example/", "?source_url=/evil/"]) {
      const signedOut = await new Browser().fetch(`/pin/${PUBLIC_PIN}/repin/${query}`);
      expect(signedOut.headers.get("location"), query).toBe(`/login/?next=/pin/${PUBLIC_PIN}/repin/`);
      const signedIn = await (await browserFor("stranger")).fetch(`/pin/${PUBLIC_PIN}/repin/${query}`);
      expect(signedIn.headers.get("location"), query).toBe(`/pin/${PUBLIC_PIN}/#repin`);
    }
  });

  it("answers a pin on a secret board exactly as a missing pin to anyone outside the board", async () => {
    for (const role of ["signed_out", "stranger", "follower"] as const) {
      const browser = await browserFor(role);
      const hidden = await browser.fetch(`/pin/${SECRET_PIN}/repin/`);
      const missing = await browser.fetch("/pin/999999999/repin/");
      expect(hidden.status, role).toBe(404);
      expect(missing.status, role).toBe(404);
      expect(hidden.headers.has("location")).toBe(false);
      const strip = (html: string, id: number | string) => html.split(String(id)).join("{id}").replace(/"requestIdentifier":"[^"]*"/g, "");
      expect(strip(await hidden.text(), SECRET_PIN), role).toBe(strip(await missing.text(), "999999999"));
      expect(await (await browser.fetch(`/pin/${SECRET_PIN}/`)).text()).toContain("Page not found");
    }
    // Its board's people reach it.
    const owner = await (await browserFor("collaborator_write")).fetch(`/pin/${SECRET_PIN}/repin/`);
    expect(owner.headers.get("location")).toBe(`/pin/${SECRET_PIN}/#repin`);
  });

  it("answers a deleted pin as its close-up does (410) and a malformed id as missing (404)", async () => {
    expect((await new Browser().fetch(`/pin/${DELETED_PIN}/repin/`)).status).toBe(410);
    expect((await new Browser().fetch("/pin/not-a-pin/repin/")).status).toBe(404);
  });
});
