import { describe, expect, it } from "vitest";
import { dayOf, dayStart, nextDay, todayStructuredData } from "./today.ts";

describe("Today's days", () => {
  it("reads a real UTC day and refuses anything else", () => {
    expect(dayStart("2026-09-21")).toBe(Date.UTC(2026, 8, 21));
    expect(dayStart("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
    for (const text of ["2026-02-31", "2025-02-29", "2026-13-01", "2026-9-21", "21-09-2026", "", "2026-09-21T00:00:00Z"]) {
      expect(dayStart(text), text).toBeNull();
    }
  });

  it("steps to the next day across months and years", () => {
    expect(nextDay("2026-09-30")).toBe("2026-10-01");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
    expect(nextDay("2024-02-28")).toBe("2024-02-29");
  });

  it("puts a time in its UTC day", () => {
    expect(dayOf(Date.UTC(2026, 8, 21, 23, 59, 59, 999))).toBe("2026-09-21");
    expect(dayOf(Date.UTC(2026, 8, 22))).toBe("2026-09-22");
  });
});

describe("Today's structured data", () => {
  it("lists the page's articles in order at their canonical URLs, under a breadcrumb", () => {
    const article = (id: string, title: string, url: string) => ({
      type: "todayarticle" as const,
      id,
      title,
      subtitle: null,
      segment: "best" as const,
      url,
      date: "2026-09-21",
      published_at: "2026-09-21T09:00:00.000Z",
      updated_at: "2026-09-21T09:00:00.000Z",
      cover_image: null,
    });
    const blocks = todayStructuredData(
      {
        name: "Today on Pinloom",
        description: "Stories.",
        days: [
          { date: "2026-09-21", articles: [article("2", "Gifts", "/today/shop/gifts/2/"), article("1", "Reads", "/today/best/reads/1/")] },
          { date: "2026-09-20", articles: [article("3", "Crème", "/today/trending/cr%C3%A8me/3/")] },
        ],
      },
      "https://pinloom.example/today/",
    );
    expect(blocks.map((block) => block["@type"])).toEqual(["CollectionPage", "BreadcrumbList"]);
    expect(blocks[0]).toMatchObject({
      url: "https://pinloom.example/today/",
      name: "Today on Pinloom",
      mainEntity: {
        "@type": "ItemList",
        numberOfItems: 3,
        itemListElement: [
          { "@type": "ListItem", position: 1, url: "https://pinloom.example/today/shop/gifts/2/", name: "Gifts" },
          { "@type": "ListItem", position: 2, url: "https://pinloom.example/today/best/reads/1/", name: "Reads" },
          { "@type": "ListItem", position: 3, url: "https://pinloom.example/today/trending/cr%C3%A8me/3/", name: "Crème" },
        ],
      },
    });
    expect(blocks[1]).toMatchObject({
      itemListElement: [
        { position: 1, name: "Pinloom", item: "https://pinloom.example/" },
        { position: 2, name: "Today on Pinloom", item: "https://pinloom.example/today/" },
      ],
    });
  });
});
