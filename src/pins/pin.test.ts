import { describe, expect, it } from "vitest";
import { choosePinLink, isAllowedLink, parseJsonColumn, richMetadataSchema } from "./pin.ts";

const blocked = new Set(["spam.example"]);
const ORIG = "/media/pins/1/orig.jpg";

describe("choosePinLink: mobile link, else tracked link, else link, else the original image", () => {
  it.each([
    ["all present → mobile", { mobileLink: "https://m.a.example/", trackedLink: "https://t.a.example/", link: "https://a.example/" }, "https://m.a.example/"],
    ["no mobile → tracked", { trackedLink: "https://t.a.example/", link: "https://a.example/" }, "https://t.a.example/"],
    ["only link", { link: "https://a.example/" }, "https://a.example/"],
    ["nothing → original image", {}, ORIG],
    ["javascript: mobile is skipped", { mobileLink: "javascript:alert(1)", link: "https://a.example/" }, "https://a.example/"],
    ["data: is skipped", { trackedLink: "data:text/html,<b>x</b>", link: "http://a.example/" }, "http://a.example/"],
    ["blocked host is skipped", { mobileLink: "https://spam.example/x", link: "https://a.example/" }, "https://a.example/"],
    ["blocked subdomain is skipped", { link: "https://www.spam.example/x" }, ORIG],
    ["blocked host with a trailing dot is skipped", { link: "https://spam.example./x" }, ORIG],
    ["blocked host with an encoded trailing dot is skipped", { link: "https://spam.example%2e/x" }, ORIG],
    ["blocked subdomain with trailing dots is skipped", { link: "https://sub.spam.example../x" }, ORIG],
    ["relative link is skipped", { link: "/elsewhere" }, ORIG],
    ["ftp is skipped", { link: "ftp://a.example/file" }, ORIG],
    ["empty strings are skipped", { mobileLink: "", trackedLink: "", link: "https://a.example/" }, "https://a.example/"],
  ])("%s", (_name, candidates, expected) => {
    expect(choosePinLink({ ...candidates, originalImageUrl: ORIG }, blocked)).toBe(expected);
  });

  it("is null when nothing is allowed and no image exists", () => {
    expect(choosePinLink({ link: "javascript:void(0)" }, blocked)).toBeNull();
  });
});

describe("isAllowedLink", () => {
  it("does not confuse a host that merely ends with a blocked name", () => {
    expect(isAllowedLink("https://notspam.example/", blocked)).toBe(true);
    expect(isAllowedLink("HTTPS://SPAM.EXAMPLE/", blocked)).toBe(false);
  });
});

describe("parseJsonColumn", () => {
  it("reads null and empty as null", () => {
    expect(parseJsonColumn(richMetadataSchema, null)).toBeNull();
    expect(parseJsonColumn(richMetadataSchema, "")).toBeNull();
  });
  it("parses and types a recipe", () => {
    const value = parseJsonColumn(
      richMetadataSchema,
      JSON.stringify({ recipe: { name: "Tart", ingredients: [{ category: "Crust", items: [{ amount: "200 g", name: "flour" }] }], totalTimeMinutes: 45 } }),
    );
    expect(value?.recipe?.ingredients[0]?.items[0]?.name).toBe("flour");
    expect(value?.recipe?.diets).toEqual([]);
  });
  it("throws on a malformed value rather than showing half of it", () => {
    expect(() => parseJsonColumn(richMetadataSchema, '{"recipe": {"name": 3}}')).toThrow();
    expect(() => parseJsonColumn(richMetadataSchema, "{not json")).toThrow();
  });
});
