// Where a close-up's tag dots sit. The CSP allows no inline style attributes, so each dot's
// place is a class in one <style> element whose hash the page adds to its CSP, as the
// dominant-colour placeholders are (src/components/placeholder-styles.ts).
import type { APIContext } from "astro";
import { sha256Base64 } from "~/components/placeholder-styles.ts";
import type { PinTagDot } from "./pin-tags-read.server.ts";

/** The tags shown as dots: those on the first image of a pin whose close-up shows one image (a carousel or a video lists its tags only). */
export function dotsOf(pin: { kind: string; videos: readonly unknown[]; tags: readonly PinTagDot[] }): PinTagDot[] {
  if (pin.kind === "carousel" || pin.videos.length > 0) return [];
  return pin.tags.filter((tag) => tag.itemIndex === 0);
}

/** A fraction 0..1 as a CSS percentage with two decimals; anything else lands on the nearest edge. */
function percent(value: number): string {
  const unit = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  return `${Math.round(unit * 10_000) / 100}%`;
}

export const dotClass = (index: number) => `tag-at-${index}`;

/** CSS placing dot N at its tag's x and y (from the image's left and top: images are never mirrored). */
function tagDotCss(dots: readonly PinTagDot[]): string {
  return dots.map((dot, index) => `.${dotClass(index)}{left:${percent(dot.x)};top:${percent(dot.y)}}`).join("");
}

/** The dots' CSS, with its hash added to the page's CSP. Call from a page's frontmatter. */
export async function tagDotStyle(csp: APIContext["csp"] | undefined, dots: readonly PinTagDot[]): Promise<string> {
  const css = tagDotCss(dots);
  if (css && csp) csp.insertStyleHash(`sha256-${await sha256Base64(css)}`);
  return css;
}
