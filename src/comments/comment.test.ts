// Comment input rules: text 1..500 after trimming, tags inside the text.
import { describe, expect, it } from "vitest";
import { alignTags, commentTextSchema, tagsSchema, textProblem, type Tag, type TextProblem } from "./comment.ts";

describe("comment text", () => {
  it.each<[string, string, TextProblem | null]>([
    ["one character", "a", null],
    ["500 characters", "a".repeat(500), null],
    ["500 characters inside spaces", `  ${"a".repeat(500)}\n`, null],
    ["empty", "", "empty"],
    ["whitespace only", " \n\t ", "empty"],
    ["501 characters", "a".repeat(501), "tooLong"],
  ])("%s → %s", (_, raw, expected) => {
    expect(textProblem(raw)).toBe(expected);
    const parsed = commentTextSchema.safeParse(raw);
    expect(parsed.success).toBe(expected === null);
    if (!parsed.success) expect(parsed.error.issues[0]?.message).toBe(expected);
  });

  it("the schema stores the trimmed text", () => {
    expect(commentTextSchema.parse("  hello \n")).toBe("hello");
  });
});

describe("alignTags", () => {
  const tag = (offset: number, length: number): Tag => ({ user_id: "7", offset, length });
  it.each<[string, string, Tag[], Tag[] | null]>([
    ["a tag inside the text is kept", "hi @ana", [tag(3, 4)], [tag(3, 4)]],
    ["leading whitespace moves tags back", "   hi @ana", [tag(6, 4)], [tag(3, 4)]],
    ["a tag over the trimmed end is refused", "hi @ana   ", [tag(3, 6)], null],
    ["a tag in leading whitespace is refused", "  @ana", [tag(0, 3)], null],
    ["a tag past the end is refused", "hi", [tag(1, 5)], null],
    ["overlapping tags are refused", "@ana @ben", [tag(0, 5), tag(4, 4)], null],
    ["tags are answered in text order", "@ana @ben", [tag(5, 4), tag(0, 4)], [tag(0, 4), tag(5, 4)]],
  ])("%s", (_, raw, tags, expected) => {
    expect(alignTags(raw, tags)).toEqual(expected);
  });

  it("at most 20 tags", () => {
    expect(tagsSchema.safeParse(Array.from({ length: 20 }, (_, i) => tag(i, 1))).success).toBe(true);
    expect(tagsSchema.safeParse(Array.from({ length: 21 }, (_, i) => tag(i, 1))).success).toBe(false);
  });
});
