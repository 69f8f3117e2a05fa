// Pin tags against real D1 and the seeded world: the publish-time checks (each tagged pin must
// exist and be one the publishing person may see), the statements the publish batch runs (only
// live, placed tags with a pin are stored; a second publish replaces them), the cascade when a
// pin goes, and the close-up: dots at their places, crawlable links, hidden tagged pins left out.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newDraft, newItem, type PinDraft } from "~/builder/drafts.ts";
import { pinTagProblems, pinTagStatements } from "~/builder/pin-tags.server.ts";
import { addTag, createTag, removeTag, setTaggedObjects, updateTag, moveTag, setTagLink, type PinTag, type TaggedObject } from "~/builder/pin-tags.ts";
import { FIXTURES } from "../../scripts/seed/world.ts";
import { GOOGLEBOT_UA, attributeOf, countElements, get } from "./fixtures.ts";
import { seedDemoWorld } from "./seeded-world.ts";
import { createSession } from "./session-fixture.ts";

const P = FIXTURES.pins;
const U = FIXTURES.users;
/** A pin of the demo account's made here to attach tags to, and a pin of hers with no tags. */
const NEW_PIN = 900_001;

const object = (id: number, type: TaggedObject["type"] = "pin"): TaggedObject => ({ id: String(id), type, title: `Pin ${id}`, media: null });

/** A draft of one uploaded image holding the given tags, in order. */
function draftWith(...tags: PinTag[]): PinDraft {
  let draft: PinDraft = { ...newDraft(), items: [newItem("a", { type: "image", source: "uploaded", ref: "u1", width: 1000, height: 1500 })] };
  for (const tag of tags) draft = addTag(draft, 0, tag);
  return draft;
}
const placed = (id: string, x: number, y: number, ...pins: TaggedObject[]) => setTaggedObjects(createTag(id, { x, y }), pins);

type Row = { tag_key: string; item_index: number; position: number; x: number; y: number; tagged_pin_id: number; link: string | null };
async function storedTags(pinId: number): Promise<Row[]> {
  const { results } = await env.DB.prepare("SELECT tag_key, item_index, position, x, y, tagged_pin_id, link FROM pin_tags WHERE pin_id = ?1 ORDER BY position, tagged_pin_id")
    .bind(pinId)
    .all<Row>();
  return results;
}

beforeAll(async () => {
  await seedDemoWorld();
  await env.DB.prepare(
    `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at)
     VALUES (?1, ?2, ?3, 'image', 'A pin to tag', 'sig', 1, 1)`,
  )
    .bind(NEW_PIN, U.demo, FIXTURES.boards.weeknight)
    .run();
});

describe("pinTagProblems: what stops tags from publishing", () => {
  it("passes tags on pins and products the person may see, her own secret pin included", async () => {
    const draft = draftWith(placed("t1", 0.2, 0.3, object(P.product, "product")), placed("t2", 0.6, 0.6, object(P.recipe), object(P.secret)));
    expect(await pinTagProblems(env.DB, U.demo, draft)).toEqual([]);
  });

  it("names each tag whose pin is missing, deleted, hidden or on someone else's secret board", async () => {
    const draft = draftWith(
      placed("ok", 0.1, 0.1, object(P.product, "product")),
      placed("friendSecret", 0.2, 0.2, object(P.friendSecret)),
      placed("hidden", 0.3, 0.3, object(P.hidden)),
      placed("deleted", 0.4, 0.4, object(P.deleted)),
      placed("missing", 0.5, 0.5, object(987_654_321)),
      placed("mixed", 0.6, 0.6, object(P.recipe), object(P.friendSecret)),
    );
    const unavailable = (at: number) => ({ field: `pinTags.${at}.taggedObjectIds`, reason: "builder:validation.taggedPinUnavailable" });
    expect(await pinTagProblems(env.DB, U.demo, draft)).toEqual([unavailable(1), unavailable(2), unavailable(3), unavailable(4), unavailable(5)]);
  });

  it("judges visibility for the person publishing: a secret pin is hers to tag, not a stranger's", async () => {
    const draft = draftWith(placed("t1", 0.5, 0.5, object(P.secret)));
    expect(await pinTagProblems(env.DB, U.demo, draft)).toEqual([]);
    expect(await pinTagProblems(env.DB, U.merchant, draft)).toEqual([{ field: "pinTags.0.taggedObjectIds", reason: "builder:validation.taggedPinUnavailable" }]);
  });

  it("asks for a place and a pin, and checks the link against the blocked hosts", async () => {
    const draft = draftWith(
      setTaggedObjects(createTag("unplaced"), [object(P.recipe)]),
      createTag("empty", { x: 0.5, y: 0.5 }),
      setTagLink(placed("blocked", 0.5, 0.5, object(P.recipe)), `https://shop.${FIXTURES.domains.blocked}/deal`),
    );
    expect(await pinTagProblems(env.DB, U.demo, draft)).toEqual([
      { field: "pinTags.0.x", reason: "builder:validation.tagPosition" },
      { field: "pinTags.1.taggedObjectIds", reason: "builder:validation.tagNeedsPin" },
      { field: "pinTags.2.link", reason: "builder:validation.linkBlocked" },
    ]);
  });

  it("does not check a tag removed from its item", async () => {
    const saved: PinTag = { ...placed("gone", 0.5, 0.5, object(P.friendSecret)), status: "saved" };
    const draft = removeTag(draftWith(saved), "gone");
    expect(draft.pinTags.map((tag) => tag.status)).toEqual(["deleted"]);
    expect(await pinTagProblems(env.DB, U.demo, draft)).toEqual([]);
  });
});

describe("pinTagStatements: storing tags in the publish batch", () => {
  it("stores one row per tagged pin of each live, placed tag, numbered in the item's order", async () => {
    let draft = draftWith(
      setTagLink(placed("first", 0.25, 0.75, object(P.product, "product")), "https://marlowandmain.example/overshirt"),
      placed("second", 0.5, 0.1, object(P.recipe), object(P.productOutOfStock, "product")),
      createTag("unplaced"),
      placed("dropped", 0.9, 0.9, object(P.recipe)),
    );
    draft = removeTag(draft, "dropped");
    await env.DB.batch(pinTagStatements(env.DB, NEW_PIN, draft, 1_000));
    expect(await storedTags(NEW_PIN)).toEqual([
      { tag_key: "first", item_index: 0, position: 0, x: 0.25, y: 0.75, tagged_pin_id: P.product, link: "https://marlowandmain.example/overshirt" },
      { tag_key: "second", item_index: 0, position: 1, x: 0.5, y: 0.1, tagged_pin_id: P.recipe, link: null },
      { tag_key: "second", item_index: 0, position: 1, x: 0.5, y: 0.1, tagged_pin_id: P.productOutOfStock, link: null },
    ]);
  });

  it("a second publish (editing the pin) replaces its tags: a deleted tag's rows go, an edited one moves", async () => {
    const saved = (tag: PinTag): PinTag => ({ ...tag, status: "saved" });
    let draft = draftWith(saved(placed("first", 0.25, 0.75, object(P.product, "product"))), saved(placed("second", 0.5, 0.1, object(P.recipe))));
    draft = removeTag(draft, "first");
    draft = updateTag(draft, "second", (tag) => moveTag(tag, 0.4, 0.2));
    expect(draft.pinTags.map((tag) => [tag.id, tag.status])).toEqual([
      ["first", "deleted"],
      ["second", "edited"],
    ]);
    await env.DB.batch(pinTagStatements(env.DB, NEW_PIN, draft, 2_000));
    expect(await storedTags(NEW_PIN)).toEqual([{ tag_key: "second", item_index: 0, position: 0, x: 0.4, y: 0.2, tagged_pin_id: P.recipe, link: null }]);
  });

  it("keeps tags on each carousel slot apart, and leaves out a tagged pin deleted meanwhile and the pin itself", async () => {
    let draft: PinDraft = { ...newDraft(), type: "carousel", items: [newItem("a", null), newItem("b", null)] };
    draft = addTag(draft, 0, placed("a1", 0.1, 0.2, object(P.recipe)));
    draft = addTag(draft, 1, placed("b1", 0.3, 0.4, object(P.product, "product"), object(987_654_321), object(NEW_PIN)));
    draft = addTag(draft, 1, placed("b2", 0.5, 0.6, object(P.deleted)));
    await env.DB.batch(pinTagStatements(env.DB, NEW_PIN, draft, 3_000));
    expect(await storedTags(NEW_PIN)).toEqual([
      { tag_key: "a1", item_index: 0, position: 0, x: 0.1, y: 0.2, tagged_pin_id: P.recipe, link: null },
      { tag_key: "b1", item_index: 1, position: 0, x: 0.3, y: 0.4, tagged_pin_id: P.product, link: null },
    ]);
  });

  it("a draft with no tags clears the pin's tags; nothing else is written", async () => {
    const statements = pinTagStatements(env.DB, NEW_PIN, draftWith());
    expect(statements).toHaveLength(1);
    await env.DB.batch(statements);
    expect(await storedTags(NEW_PIN)).toEqual([]);
  });

  it("a pin's tags go with it, and so do tags on other pins pointing at it", async () => {
    const other = NEW_PIN + 1;
    await env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', 'Short-lived', 'sig', 1, 1)")
      .bind(other, U.demo, FIXTURES.boards.weeknight)
      .run();
    await env.DB.batch([
      ...pinTagStatements(env.DB, other, draftWith(placed("t", 0.5, 0.5, object(P.recipe)))),
      ...pinTagStatements(env.DB, NEW_PIN, draftWith(placed("t", 0.5, 0.5, object(other)))),
    ]);
    expect((await storedTags(NEW_PIN)).map((row) => row.tagged_pin_id)).toEqual([other]);
    await env.DB.prepare("DELETE FROM pins WHERE id = ?1").bind(other).run();
    expect(await storedTags(other)).toEqual([]);
    expect(await storedTags(NEW_PIN)).toEqual([]);
  });
});

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
const decoded = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? "");

/** The text of each element matching selector, via the Worker's HTML parser (which hands text over as written, entities and all). */
async function textsOf(html: string, selector: string): Promise<string[]> {
  const texts: string[] = [];
  let current: string | null = null;
  await new HTMLRewriter()
    .on(selector, {
      element(element) {
        current = "";
        element.onEndTag(() => {
          texts.push(decoded(current ?? "").trim());
          current = null;
        });
      },
      text(chunk) {
        if (current !== null) current += chunk.text;
      },
    })
    .transform(new Response(html))
    .text();
  return texts;
}
const hrefsOf = async (html: string, selector: string) => {
  const hrefs: string[] = [];
  await new HTMLRewriter()
    .on(selector, { element: (element) => void hrefs.push(element.getAttribute("href") ?? "") })
    .transform(new Response(html))
    .text();
  return hrefs;
};
const sha256 = async (text: string) => btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))));

describe("the close-up shows a pin's tags", () => {
  const RECIPE_TITLE = "Brown butter banana bread";
  const SECRET_TITLE = "Surprise party for Maya: balloon garland ideas";

  it("signed out: one dot per visible tag at its place, a labelled disclosure with a link to the tagged pin", async () => {
    const response = await get(`/pin/${P.image}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    // The seeded orzo tags the banana bread at (0.28, 0.66) and a pin on a secret board, which a visitor may not see.
    expect(await countElements(html, "details.tag-dot")).toBe(1);
    expect(await textsOf(html, "details.tag-dot > summary")).toEqual([`Tag 1: ${RECIPE_TITLE}`]);
    expect(await attributeOf(html, "details.tag-dot > summary", "class")).toContain("tag-at-0");
    expect(html).toContain("<style>.tag-at-0{left:28%;top:66%}</style>");
    expect(response.headers.get("content-security-policy")).toContain(`'sha256-${await sha256(".tag-at-0{left:28%;top:66%}")}'`);
    expect(await hrefsOf(html, "details.tag-dot a")).toEqual([`/pin/${P.recipe}/`]);
    expect(html).not.toContain(`/pin/${P.secret}/`);
    expect(html).not.toContain(SECRET_TITLE);
  });

  it("lists the tagged pins below the image as links crawlers follow", async () => {
    const html = await (await get(`/pin/${P.image}/`, { "user-agent": GOOGLEBOT_UA })).text();
    expect(await textsOf(html, "#shop-the-look-heading")).toEqual(["In this Pin"]);
    expect(await hrefsOf(html, ".shop-the-look a")).toEqual([`/pin/${P.recipe}/`]);
    expect(await textsOf(html, ".shop-the-look .tagged-pin-title")).toEqual([RECIPE_TITLE]);
  });

  it("its pinner sees the tag on her own secret pin too", async () => {
    const session = await createSession(U.demo);
    const html = await (await get(`/pin/${P.image}/`, { cookie: session.cookie })).text();
    expect(await textsOf(html, "details.tag-dot > summary")).toEqual([`Tag 1: ${RECIPE_TITLE}`, `Tag 2: ${SECRET_TITLE}`]);
    expect(html).toContain("<style>.tag-at-0{left:28%;top:66%}.tag-at-1{left:71%;top:31%}</style>");
    expect(await hrefsOf(html, ".shop-the-look a")).toEqual([`/pin/${P.recipe}/`, `/pin/${P.secret}/`]);
  });

  it("tagged products make it Shop the look; prices are for signed-in viewers only", async () => {
    const { id } = (await env.DB.prepare("SELECT pin_id AS id FROM pin_tags WHERE tagged_pin_id = ?1 AND pin_id != ?2 ORDER BY pin_id LIMIT 1").bind(P.product, NEW_PIN).first<{ id: number }>())!;
    const signedOut = await (await get(`/pin/${id}/`)).text();
    expect(await textsOf(signedOut, "#shop-the-look-heading")).toEqual(["Shop the look"]);
    expect(await hrefsOf(signedOut, ".shop-the-look a")).toEqual([`/pin/${P.product}/`, `/pin/${P.productOutOfStock}/`]);
    expect(await textsOf(signedOut, "details.tag-dot > summary")).toEqual(["Tag 1: Marlow & Main wool-blend overshirt", "Tag 2: Marlow & Main ribbed knit beanie"]);
    expect(await countElements(signedOut, ".tag-card-price, .tagged-pin-price")).toBe(0);
    const session = await createSession(U.friend);
    const signedIn = await (await get(`/pin/${id}/`, { cookie: session.cookie })).text();
    expect(await countElements(signedIn, ".tag-card-price")).toBe(2);
    expect(await countElements(signedIn, ".tagged-pin-price")).toBe(2);
  });

  it("a pin with no tags shows no dots and no list", async () => {
    const html = await (await get(`/pin/${P.recipe}/`)).text();
    expect(await countElements(html, "details.tag-dot")).toBe(0);
    expect(await countElements(html, ".shop-the-look")).toBe(0);
  });

  it("a tag whose only pin became hidden disappears, and a tag link to a blocked host is not shown", async () => {
    const pinId = NEW_PIN + 2;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', 'Tagged twice', 'sig', 1, 1)").bind(pinId, U.demo, FIXTURES.boards.weeknight),
      ...pinTagStatements(
        env.DB,
        pinId,
        draftWith(setTagLink(placed("a", 0.5, 0.5, object(P.recipe)), `https://${FIXTURES.domains.blocked}/deal`), placed("b", 0.2, 0.2, object(P.promoted))),
      ),
      env.DB.prepare("UPDATE pins SET is_hidden = 1 WHERE id = ?1").bind(P.promoted),
    ]);
    const html = await (await get(`/pin/${pinId}/`)).text();
    expect(await textsOf(html, "details.tag-dot > summary")).toEqual([`Tag 1: ${RECIPE_TITLE}`]);
    expect(await countElements(html, ".tag-card-visit")).toBe(0);
    expect(html).not.toContain(`/pin/${P.promoted}/`);
  });
});
