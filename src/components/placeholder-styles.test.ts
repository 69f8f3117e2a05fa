import { describe, expect, it } from "vitest";
import { colorClass, placeholderCss } from "./placeholder-styles.ts";

describe("placeholder styles", () => {
  it("writes one rule per distinct colour, sorted", () => {
    expect(placeholderCss(["#AABBCC", "#112233", "#aabbcc"])).toBe(".bg-112233{background-color:#112233}.bg-aabbcc{background-color:#aabbcc}");
  });
  it("never emits anything but a plain hex colour", () => {
    const css = placeholderCss(["red;}body{display:none", "#12345", "url(x)", "#abcdef"]);
    expect(css).toBe(".bg-abcdef{background-color:#abcdef}.bg-e9e9e9{background-color:#e9e9e9}");
    expect(colorClass("</style><script>")).toBe("bg-e9e9e9");
  });
});
