// The close-up credits a licensed photo: its photographer, where it comes from and its licence
// by name, linked to the licence (the demo world's photo pins carry such an attribution).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { attributeOf, get, seedWorld } from "./fixtures.ts";

const CREDITED = {
  author: "Aitzol Berasategi",
  ccUrl: "https://creativecommons.org/licenses/by/4.0/",
  licenseName: "CC BY 4.0",
  link: "https://packages.debian.org/bookworm/lomiri-wallpapers-16.04",
  mediaType: "image",
  providerName: "Debian (lomiri-wallpapers-16.04)",
};

/** The text of the pin's attribution list, tags dropped and spaces collapsed. */
function attributionText(html: string): string {
  const list = /<ul class="pin-attribution[^"]*"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  return list.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

beforeAll(async () => {
  await seedWorld([
    { id: 101, title: "A trail into the Picos de Europa", link: null },
    { id: 102, title: "Fig and walnut loaf", link: null },
  ]);
  await env.DB.batch([
    env.DB.prepare("UPDATE pins SET media_attribution = ?1 WHERE id = 101").bind(JSON.stringify(CREDITED)),
    env.DB.prepare("UPDATE pins SET media_attribution = ?1 WHERE id = 102").bind(
      JSON.stringify({ author: "Ines Wood", ccUrl: "https://creativecommons.org/licenses/by/4.0/", providerName: "Lumen Photos" }),
    ),
  ]);
});

describe("the close-up's photo credit", () => {
  it("names the photographer, the source and the licence, linked to the licence", async () => {
    const response = await get("/pin/101/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(attributionText(html)).toContain("Photo by Aitzol Berasategi via Debian (lomiri-wallpapers-16.04) · CC BY 4.0");
    expect(await attributeOf(html, '.pin-attribution a[rel~="license"]', "href")).toBe("https://creativecommons.org/licenses/by/4.0/");
  });

  it("says Licence on the link when the attribution names no licence", async () => {
    const html = await (await get("/pin/102/")).text();
    expect(attributionText(html)).toContain("Photo by Ines Wood via Lumen Photos · Licence");
  });
});
