// Dominant-colour placeholders without inline style attributes (the CSP allows none): one
// <style> element per page with a class per colour, whose hash the page adds to its CSP.
//
// The hash must be added from the page's frontmatter: pages stream, and Astro sends the CSP
// header before nested components render, so a hash added inside a component comes too late.
import type { APIContext } from "astro";
import { toBase64 } from "~/runtime/base64.ts";

const HEX_COLOR = /^#[0-9a-f]{6}$/i;
const FALLBACK = "#e9e9e9";

export function colorClass(color: string): string {
  return `bg-${(HEX_COLOR.test(color) ? color : FALLBACK).slice(1).toLowerCase()}`;
}

/** CSS for the given colours; anything that is not a plain #rrggbb is replaced, never emitted. */
export function placeholderCss(colors: Iterable<string>): string {
  const unique = new Set<string>();
  for (const color of colors) unique.add(HEX_COLOR.test(color) ? color.toLowerCase() : FALLBACK);
  return [...unique].sort().map((color) => `.bg-${color.slice(1)}{background-color:${color}}`).join("");
}

export async function sha256Base64(text: string): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/** The placeholder CSS for a page, with its hash added to the page's CSP. Call from a page. */
export async function placeholderStyle(csp: APIContext["csp"] | undefined, colors: Iterable<string>): Promise<string> {
  const css = placeholderCss(colors);
  if (css && csp) csp.insertStyleHash(`sha256-${await sha256Base64(css)}`);
  return css;
}
