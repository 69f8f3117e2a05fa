// Small, explicit rows for Worker tests: each test file starts on empty, migrated storage.
import { env } from "cloudflare:workers";

export const BASE = "https://pinloom.test";
export const BROWSER_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
export const GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

interface PinFixture {
  id: number;
  title?: string;
  boardId?: number | null;
  isDeleted?: boolean;
  isHidden?: boolean;
  link?: string | null;
  kind?: string;
}

export async function seedWorld(pins: PinFixture[] = [{ id: 101 }]): Promise<void> {
  const statements = [
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (1, 'ana', 'ana@pinloom.test', 'Ana Lima', 0)"),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (10, 1, 'Weeknight dinners', 'weeknight-dinners', 'public', 0, 0)"),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (11, 1, 'Surprise party for Maya', 'surprise-party-for-maya', 'secret', 0, 0)"),
    env.DB.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES ('spam.example', 1)"),
  ];
  for (const pin of pins) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, link,
                           is_deleted, is_hidden, created_at, updated_at)
         VALUES (?1, 1, ?2, ?3, ?4, 'A description', 'sig', '#a1b2c3', ?5, ?6, ?7, ?8, ?8)`,
      ).bind(
        pin.id,
        pin.boardId === undefined ? 10 : pin.boardId,
        pin.kind ?? "image",
        pin.title ?? `Pin ${pin.id}`,
        pin.link === undefined ? "https://shop.example/item" : pin.link,
        pin.isDeleted ? 1 : 0,
        pin.isHidden ? 1 : 0,
        1_700_000_000_000 + pin.id,
      ),
      env.DB.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3'), (?1, 'orig', ?3, 800, 1200, '#a1b2c3')").bind(
        pin.id,
        `/media/pins/${pin.id}/236x.jpg`,
        `/media/pins/${pin.id}/orig.jpg`,
      ),
    );
  }
  await env.DB.batch(statements);
}

export function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetchWorker(path, { headers: { "user-agent": BROWSER_UA, ...headers } });
}

export async function fetchWorker(path: string, init?: RequestInit): Promise<Response> {
  const { exports } = await import("cloudflare:workers");
  return exports.default.fetch(new Request(new URL(path, BASE), init));
}

/** Counts elements with a real HTML parser, not a text search (attribute text can say "<script"). */
export async function countElements(html: string, selector: string): Promise<number> {
  let count = 0;
  await new HTMLRewriter()
    .on(selector, {
      element() {
        count++;
      },
    })
    .transform(new Response(html))
    .text();
  return count;
}

/** The attribute of the first element matching selector, via the same parser. */
export async function attributeOf(html: string, selector: string, name: string): Promise<string | null> {
  let value: string | null = null;
  await new HTMLRewriter()
    .on(selector, {
      element(element) {
        value ??= element.getAttribute(name);
      },
    })
    .transform(new Response(html))
    .text();
  return value;
}

/**
 * What `read` answers once it equals `expected` (as JSON), or what it answers after `timeoutMs`:
 * for state written after the answer, by a queue's consumer or a background task.
 */
export async function readingAs<T>(read: () => Promise<T>, expected: unknown, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (JSON.stringify(value) === JSON.stringify(expected) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
