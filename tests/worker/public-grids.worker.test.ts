// Every public grid of the demo world, walked as a signed-out visitor: the home feed, profiles,
// boards, search, related pins, articles and the sitemaps, each followed through its crawlable
// next pages. Every pin, board and profile any of them links to must open (200): a grid that
// links to a 404 tells a stranger that a private pin exists and strands the reader.
import { beforeAll, describe, expect, it } from "vitest";
import { get } from "./fixtures.ts";
import { seedDemoWorld } from "./seeded-world.ts";
import type { World } from "../../scripts/seed/world.ts";

let world: World;
beforeAll(async () => {
  world = await seedDemoWorld();
}, 120_000);

const PIN = /^\/pin\/(\d+)\/$/;
/** Next pages every grid offers without script (page_after, boards_after, ...), and search's bookmark. */
const NEXT_PAGE = /[?&](page_after|boards_after|created_after|saved_after|bookmark)=/;

function linksOf(html: string): string[] {
  return [...html.matchAll(/href="(\/[^"#]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));
}

function locsOf(xml: string): string[] {
  return [...xml.matchAll(/<loc>https:\/\/pinloom\.example(\/[^<]*)<\/loc>/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));
}

describe("public grids of the demo world, as a signed-out visitor", () => {
  it("link only to pins, boards and profiles that open", { timeout: 600_000 }, async () => {
    const usernames = new Set(world.tables.users.map((user) => user.username.toLowerCase()));
    /** What a path is, when the walk follows it: pages of a public surface, and the objects they link to. */
    const kindOf = (path: string): "pin" | "profile" | "board" | "next" | null => {
      const [pathname, query = ""] = path.split("?") as [string, string?];
      if (query !== "" && NEXT_PAGE.test(`?${query}`)) return "next";
      if (query !== "") return null;
      if (PIN.test(pathname)) return "pin";
      const segments = pathname.split("/").filter(Boolean).map((segment) => decodeURIComponent(segment));
      if (!segments[0] || !usernames.has(segments[0].toLowerCase())) return null;
      if (segments.length === 1) return "profile";
      if (segments.length === 2) return "board";
      return null;
    };

    const sitemapIndex = await (await get("/sitemap.xml")).text();
    const sitemapPaths: string[] = [];
    for (const file of locsOf(sitemapIndex)) sitemapPaths.push(...locsOf(await (await get(file)).text()));
    expect(sitemapPaths.length).toBeGreaterThan(100);

    const searches = ["recipe", "home", "travel", "style", "diy", "dinner", "garden", "paper"].flatMap((q) =>
      ["pins", "boards", "people", "videos"].map((scope) => `/search/${scope}/?q=${q}`),
    );
    const queue: Array<{ path: string; from: string }> = [
      { path: "/", from: "start" },
      ...searches.map((path) => ({ path, from: "start" })),
      ...sitemapPaths.map((path) => ({ path, from: "sitemap" })),
      ...[...usernames].map((name) => ({ path: `/${name}/`, from: "start" })),
    ];
    const seen = new Set<string>();
    const failures: string[] = [];
    let linkedPins = 0;
    while (queue.length > 0) {
      const { path, from } = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const response = await get(path);
      const html = await response.text();
      const kind = kindOf(path);
      if (kind === "pin") linkedPins++;
      // A profile the walk starts from may be private; anything a public page linked to must open.
      if (response.status !== 200 && from !== "start") failures.push(`${path} answers ${response.status} (linked from ${from})`);
      if (response.status !== 200) continue;
      if (!(response.headers.get("content-type") ?? "").includes("text/html")) continue;
      for (const link of linksOf(html)) {
        if (!seen.has(link) && kindOf(link) !== null) queue.push({ path: link, from: path });
      }
    }
    expect(failures).toEqual([]);
    // The walk reached most of the world: a walk that saw nothing would prove nothing.
    expect(linkedPins).toBeGreaterThan(500);
  });
});
