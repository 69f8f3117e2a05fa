import { describe, expect, it } from "vitest";
import { fromBase64, fromBase64Url, textFromBase64Url, textToBase64Url, toBase64, toBase64Url } from "./base64.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("base64", () => {
  it("writes RFC 4648 test vectors, padded", () => {
    const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
    expect(["", "f", "fo", "foo", "foob", "fooba", "foobar"].map((text) => toBase64(ascii(text)))).toEqual(["", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"]);
  });

  it("reads back what it wrote, and refuses what is not base64", () => {
    expect(fromBase64("+/8=")).toEqual(bytes(0xfb, 0xff));
    expect(() => fromBase64("!!")).toThrow();
  });
});

describe("base64url", () => {
  it("uses - and _ for + and / and drops the padding", () => {
    expect(toBase64(bytes(0xfb, 0xff))).toBe("+/8=");
    expect(toBase64Url(bytes(0xfb, 0xff))).toBe("-_8");
  });

  it("reads unpadded and padded text, and refuses the standard alphabet's + and /", () => {
    expect(fromBase64Url("-_8")).toEqual(bytes(0xfb, 0xff));
    expect(fromBase64Url("-_8=")).toEqual(bytes(0xfb, 0xff));
    expect(() => fromBase64Url("+/8")).toThrow();
    expect(() => fromBase64Url("a")).toThrow();
  });

  it("carries UTF-8 text both ways, and refuses bytes that are not UTF-8", () => {
    expect(textToBase64Url('["Crème brûlée",7]')).toBe("WyJDcsOobWUgYnLDu2zDqWUiLDdd");
    expect(textFromBase64Url("WyJDcsOobWUgYnLDu2zDqWUiLDdd")).toBe('["Crème brûlée",7]');
    expect(() => textFromBase64Url(toBase64Url(bytes(0xff, 0xfe)))).toThrow();
  });
});
