import { describe, expect, it } from "vitest";
import { activeMention, insertMention, suggestions, tagsFor } from "./mentions.ts";

const noah = { id: "6", username: "noah_secure", full_name: "Noah Secure" };
const nora = { id: "7", username: "nora", full_name: "Nora Lin" };
const ada = { id: "1", username: "ada", full_name: "Ada Lovelace" };

describe("activeMention", () => {
  it.each([
    { text: "@no", caret: 3, expected: { start: 0, query: "no" } },
    { text: "hi @", caret: 4, expected: { start: 3, query: "" } },
    { text: "hi @nora and", caret: 8, expected: { start: 3, query: "nora" } },
    { text: "mail me@nora", caret: 12, expected: null },
    { text: "hi @nora and", caret: 12, expected: null },
    { text: "(@ad", caret: 4, expected: { start: 1, query: "ad" } },
  ])("$text at $caret", ({ text, caret, expected }) => expect(activeMention(text, caret)).toEqual(expected));
});

describe("suggestions", () => {
  it("match a username or any word of the name, case-insensitive, no duplicates", () => {
    expect(suggestions("NO", [noah, nora, ada, noah]).map((u) => u.id)).toEqual(["6", "7"]);
    expect(suggestions("lin", [noah, nora, ada]).map((u) => u.id)).toEqual(["7"]);
  });
  it("put the exact username first and stop at the limit", () => {
    expect(suggestions("nora", [noah, { ...nora, username: "nora_b", id: "8" }, nora]).map((u) => u.id)).toEqual(["7", "8"]);
    expect(suggestions("", [noah, nora, ada], 2)).toHaveLength(2);
  });
});

describe("insertMention and tagsFor", () => {
  it("put @username and a space where the query was, caret after it", () => {
    expect(insertMention("hi @no!", 3, 6, "noah_secure")).toEqual({ text: "hi @noah_secure !", caret: 16 });
  });
  it("tag every whole @username of the chosen people, in text order", () => {
    expect(tagsFor("@nora and @ada, @nora", [ada, nora])).toEqual([
      { user_id: "7", offset: 0, length: 5 },
      { user_id: "1", offset: 10, length: 4 },
      { user_id: "7", offset: 16, length: 5 },
    ]);
  });
  it("skip a name that is part of a longer name or an address, and anyone no longer in the text", () => {
    expect(tagsFor("@norabelle me@nora x@@nora", [nora, ada])).toEqual([]);
  });
  it("never more than 20 tags", () => expect(tagsFor("@ada ".repeat(30), [ada])).toHaveLength(20));
});
