// How a published story pin's pages look on its close-up: each page's background colour, and each
// placed block's position, scale, turn, font, size, colour and alignment, as the editor showed
// them. The CSP allows no inline style attributes, so every page and block gets a class, and the
// rules go in one <style> element whose SHA-256 the page adds to its response's CSP (as the tag
// dots and the colour placeholders do). Every value is checked and rebuilt here, never copied
// from the stored JSON into CSS as text: a colour must be #rrggbb, a number finite and within the
// editor's limits, a font one of the editor's own stacks.
import { z } from "zod";
import type { APIContext } from "astro";
import { sha256Base64 } from "~/components/placeholder-styles.ts";
import { fontFamily, isStoryFont } from "./fonts.ts";
import { blockEditsSchema, textStyleSchema, type BlockEdits } from "./story-draft.ts";

/** The close-up's canvas width the text sizes are measured on (story-draft.ts TextStyle.size), as in the editor. */
const CANVAS_POINTS = 564;
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;
const ALIGNMENTS = ["start", "center", "end"] as const;

/** A published block as story-publish.ts writes it; older stories (no edits) keep the flowing layout. */
const placedBlockSchema = z.looseObject({ edits: blockEditsSchema, style: textStyleSchema.optional(), font_id: z.string().optional() });

interface StyledPage {
  backgroundColor?: string | null;
  blocks: readonly unknown[];
}

/** A block's place and look when it was placed in the editor (it has edits); null for a flowing one. */
export function placedBlock(block: unknown): z.output<typeof placedBlockSchema> | null {
  const parsed = placedBlockSchema.safeParse(block);
  return parsed.success ? parsed.data : null;
}

export const pageClass = (page: number): string => `story-p${page}`;
export const blockClass = (page: number, block: number): string => `story-b${page}-${block}`;

/** A number as CSS writes it: at most 4 decimals, never an exponent. */
const num = (value: number): string => String(Math.round(value * 10_000) / 10_000);

function placeCss(edits: BlockEdits): string {
  const { left, top, scale, transform } = edits;
  return `left:${num(left * 100)}%;top:${num(top * 100)}%;transform:translate(-50%,-50%) rotate(${num(transform.rotate)}deg) scale(${num(scale * transform.scaleX)},${num(scale * transform.scaleY)})`;
}

function textCss(block: z.output<typeof placedBlockSchema>): string {
  const style = block.style;
  const font = block.font_id !== undefined && isStoryFont(block.font_id) ? fontFamily(block.font_id) : null;
  return [
    font ? `font-family:${font}` : "",
    style ? `font-size:${num((style.size / CANVAS_POINTS) * 100)}cqi;letter-spacing:${num((style.letterSpacing / CANVAS_POINTS) * 100)}cqi;line-height:${num(style.lineHeight)};color:${style.color.toLowerCase()};text-align:${ALIGNMENTS[style.alignment]}` : "",
  ]
    .filter((part) => part !== "")
    .join(";");
}

/** The rules for a story's pages: one class per page with a background, one per placed block. */
export function storyCss(pages: readonly StyledPage[]): string {
  return pages
    .map((page, p) => {
      const background = page.backgroundColor && HEX_COLOUR.test(page.backgroundColor) ? `.${pageClass(p)}{background-color:${page.backgroundColor.toLowerCase()}}` : "";
      const blocks = page.blocks.map((raw, b) => {
        const block = placedBlock(raw);
        if (!block) return "";
        const text = textCss(block);
        return `.${blockClass(p, b)}{${placeCss(block.edits)}${text ? `;${text}` : ""}}`;
      });
      return background + blocks.join("");
    })
    .join("");
}

/** The story's CSS, with its hash added to the page's CSP. Call from the page's frontmatter (pages stream). */
export async function storyStyle(csp: APIContext["csp"] | undefined, pages: readonly StyledPage[]): Promise<string> {
  const css = storyCss(pages);
  if (css && csp) csp.insertStyleHash(`sha256-${await sha256Base64(css)}`);
  return css;
}
