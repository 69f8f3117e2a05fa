// A page's data blocks (<script type="application/json" id=…>): the context, the viewer slots,
// the island string tables, the preloaded queries. Each reader parses its block once; a missing
// or broken block is no block, and its reader falls back as it would without one.

/** The block's JSON, or null when the page has none or it does not parse (which is reported). */
export function readJsonBlock(doc: Pick<Document, "getElementById"> | undefined, id: string): unknown {
  const text = doc?.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    console.warn(`#${id} is not JSON`, error);
    return null;
  }
}
