// A page's islands as their client receives them: Astro's props attribute decoded, and on a
// member page (src/member-page/member-page.server.ts) each island's viewer slot merged over its props.

const unescapeAttribute = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Astro's island props encoding: [0, value] (objects of encoded values), [1, [encoded...]]. */
function decode(encoded: unknown): unknown {
  if (!Array.isArray(encoded)) return encoded;
  const [type, value] = encoded as [number, unknown];
  if (type === 1) return (value as unknown[]).map(decode);
  if (value && typeof value === "object" && !Array.isArray(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, decode(inner)]));
  return value;
}

export function jsonScript(html: string, id: string): Record<string, unknown> | null {
  const match = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as Record<string, unknown>) : null;
}

/** Each island's component and props, as its client receives them (a slot's values merged in). */
export function islands(html: string): Array<{ component: string; props: Record<string, unknown> }> {
  const slots = jsonScript(html, "pinloom-viewer-slots") ?? {};
  return [...html.matchAll(/<astro-island\b[^>]*>/g)].map(([tag]) => {
    const component = /component-url="([^"]+)"/.exec(tag)![1]!;
    const raw = /\sprops="([^"]*)"/.exec(tag)?.[1] ?? "{}";
    const props = decode([0, JSON.parse(unescapeAttribute(raw))]) as Record<string, unknown>;
    const slot = props.viewerSlot as string | undefined;
    delete props.viewerSlot;
    return { component, props: slot ? { ...props, ...(slots[slot] as object) } : props };
  });
}

/** The props the first island whose component URL contains `component` hydrates with. */
export function islandProps(html: string, component: string): Record<string, unknown> | undefined {
  return islands(html).find((island) => island.component.includes(component))?.props;
}
