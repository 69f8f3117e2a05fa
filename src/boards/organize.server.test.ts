import { describe, expect, it } from "vitest";
import { organizerBoard, type ViewerBoardFacts } from "./organize.server.ts";

const facts: ViewerBoardFacts = { role: "owner", record: null, archivedAt: 1_763_800_000_000, coverPinId: "100001" };

describe("the board page's state for the organize island", () => {
  it("counts sectionless pins as the board's pins outside its sections, never below zero", () => {
    const input = {
      id: "10002",
      name: "Weeknight dinners",
      description: "",
      privacy: "public" as const,
      pinCount: 10,
      sections: [
        { id: "50003", title: "Pasta", slug: "pasta", pinCount: 3 },
        { id: "50004", title: "Soups", slug: "soups", pinCount: 2 },
      ],
      pins: [
        { id: "100004", kind: "story", title: "Grandma's apple cake", image: { url: "/a.jpg" } },
        { id: "100001", kind: "image", title: "Tomato orzo", image: { url: "/b.jpg" } },
      ],
      pinsCursor: "cursor",
    };
    const { board, pins, bookmark } = organizerBoard(input, facts);
    expect([board.pin_count, board.sectionless_pin_count, board.section_count]).toEqual([10, 5, 2]);
    expect([board.archived_by_me_at, board.cover_pin_id]).toEqual([1_763_800_000_000, "100001"]);
    expect(pins.map((pin) => [pin.id, pin.story === true])).toEqual([
      ["100004", true],
      ["100001", false],
    ]);
    expect(bookmark).toBe("cursor");
    // Each section keeps its address, for the link to its page.
    expect(board.sections.map((section) => section.slug)).toEqual(["pasta", "soups"]);
    expect(organizerBoard({ ...input, pinCount: 4 }, facts).board.sectionless_pin_count).toBe(0);
  });
});
