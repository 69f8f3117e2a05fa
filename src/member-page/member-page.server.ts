// Member pages: one render of a pin close-up shared by the signed-in people who have nothing
// of their own on it (a signed-in pin page must reach half the throughput of /healthz).
//
// A signed-in close-up differs between two such people only in who they are (the context
// block, the account menu, the save and comment islands' viewer) and in their own quick-save,
// reaction and topic follows. So the page is rendered once per URL, locale, device class,
// experiment groups and pin version (memberKey) as a template made for no one: its session's
// user is a stand-in whose id matches no row, so every read sees what a stranger sees. Each
// request then costs its session's D1 round trip (the viewer's relation to the pin and their
// social state ride in the session's own statement) and a fill-in:
//  - the context block and a slot block (viewer-values.ts) go where the head's mark is;
//  - the account menu, Save, reactions and topics islands, whose server HTML shows the person's
//    own state, are rendered again with React (islands.server.ts) from the props the
//    template recorded merged with the person's values, exactly as Astro's React renderer
//    does, so hydration changes nothing; when the person's values are the stand-in's, the
//    template's own HTML is that render already, and a render already made is remembered.
//
// Who gets one: a full login, on a page with script, on /pin/{id}/ of a pin a stranger may see
// (checked again on every request, so a pin turned secret stops at once), and only when they
// are not its pinner, its board's owner or a collaborator, its sponsorship's creator or sponsor,
// and take part in no block at all (comments and related pins are filtered by blocks). Anyone
// else gets a personal render. Every answer is `private, no-store`.
//
// The folder is the member page's one seam: the request-context middleware runs its read
// beside the session (memberBesideSession) and keeps the answer in RequestContext.member,
// opaque elsewhere; pages mark their per-viewer islands through marks.ts; islands get their
// values from viewer-values.ts; the page cache asks serveMemberPage for the answer.
import type { SessionCompanion } from "~/accounts/session.server.ts";
import { accountCornerOf, VIEWER_COLUMNS, type ViewerUserRow } from "~/accounts/viewer.ts";
import { viewerById, type ViewerRef } from "~/accounts/viewer-ref.ts";
import { clientContext, serializeForScript, type RequestContext } from "~/context/request-context.ts";
import { getT } from "~/i18n/i18n.ts";
import { decodeTimeCursor } from "~/feeds/cursor.ts";
import { VIEWER_SLOTS_ID, type ViewerSlot } from "./viewer-values.ts";
import { BUILD_VERSION } from "~/runtime/build-version.ts";
import { concatBytes } from "~/runtime/bytes.ts";
import { sha256Hex } from "~/runtime/sha256.ts";
import { viewerSaveProps } from "~/saves/island-props.ts";
import { pinSocialFields, pinSocialFromRow, type PinSocialData, type SocialRow } from "~/social/pin-social.server.ts";
import { topicItems } from "~/social/topic-items.ts";
import { visibleFlagSql } from "~/visibility/visibility.server.ts";
import { BoundedLru } from "~/server/bounded-lru.ts";
import { RENDERED_SLOTS, asPart, closeMark, contextMarkOf, newMemberRender, openMark, ownOf, type MemberRender, type RenderedSlot } from "./marks.ts";

/** The stand-in's id: ids are assigned from 1 up, so no row, follow, block or reaction has it. */
const STAND_IN_ID = -1;
const MEMBER_TTL_SECONDS = 60;
const MEMBER_CACHE_STATUS = { hit: "MEMBER-HIT", miss: "MEMBER-MISS" } as const;

const PIN_PATH = /^\/pin\/([1-9][0-9]{0,18})\/$/;

/** Astro ends an island's server HTML with this when it waits for children to stream (await-children). */
const ASTRO_END = "<!--astro:end-->";

/** The pin a member page may be served for, or null (another page, method, viewer or variant). */
function memberPinId(method: string, ctx: Pick<RequestContext, "viewerType" | "noClientScript" | "session" | "url">): string | null {
  if (ctx.viewerType !== "AUTH" || ctx.noClientScript || !ctx.session) return null;
  return memberPinOfPath(method, ctx.url.pathname);
}

/** The pin of a GET for a close-up path, before anything else is known (the session read uses it). */
export function memberPinOfPath(method: string, pathname: string): string | null {
  return method === "GET" ? (PIN_PATH.exec(pathname)?.[1] ?? null) : null;
}

/** A users row for no one: every column inert, the id matching nothing. */
const STAND_IN: ViewerUserRow = Object.freeze({
  ...(Object.fromEntries(VIEWER_COLUMNS.map((column) => [column, null])) as unknown as ViewerUserRow),
  id: STAND_IN_ID,
  username: "",
  email: "",
  full_name: "",
  first_name: "",
  last_name: "",
  login_state: "full",
  connected_networks: "{}",
  save_behavior: 0,
  has_password: 0,
});

/** The context a template renders with: the request's locale and device, nobody's identity. */
function templateContext(ctx: RequestContext): RequestContext {
  return {
    ...ctx,
    requestId: "",
    fullPath: ctx.url.pathname,
    country: "",
    inviteCode: null,
    utmCampaign: null,
    utmContent: null,
    searchEngineReferrer: null,
    session: { id: "", createdAt: 0, expiresAt: 0, lastSeenAt: 0, deviceId: null, verifiedAt: null, user: STAND_IN },
    renderMode: "member",
    member: asPart({ render: newMemberRender() }),
  };
}

/**
 * A template's key: the close-up's path and the one query parameter it reads (related_cursor,
 * when it is one: anything else renders as none), the locale and whether the URL named it
 * (its canonical and hreflang links differ), device class, experiment groups, the pin's
 * version as the per-request read saw it, and the build. Any other parameter (utm_*,
 * invite_code, junk) reads the same template: it changes nothing the page renders.
 */
function memberKey(ctx: RequestContext, version: string, build: string = BUILD_VERSION): string {
  // Built as a string (it runs on every member request); it reads as the URL of the page with
  // the key's parts as parameters, so a path's purge finds it by its prefix (pathPrefix).
  const cursor = ctx.url.searchParams.get("related_cursor");
  let key = `${ctx.origin}${ctx.url.pathname}?`;
  if (cursor !== null && decodeTimeCursor(cursor)) key += `related_cursor=${encodeURIComponent(cursor)}&`;
  key += `__locale=${encodeURIComponent(ctx.locale)}`;
  if (ctx.explicitLocale) key += "&__explicit=1";
  key += `&__device=${ctx.userAgent.isMobile || ctx.userAgent.isTablet ? "handheld" : "desktop"}`;
  for (const [name, group] of Object.entries(ctx.experiments).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) key += `&__x_${encodeURIComponent(name)}=${encodeURIComponent(group)}`;
  return `${key}&__v=${encodeURIComponent(version)}&__build=${encodeURIComponent(build)}`;
}

// ---- The viewer's relation to the pin, and their social state: one statement -----------------

export interface MemberState {
  /** The pin it was read for. */
  pinId: string;
  /** Whom the state describes: the session's user when read beside the session. */
  viewerId: number | null;
  /**
   * What the page shows of the pin itself, as read now (its row's update time, counts, board
   * and topics): in the key, so an edit on any isolate starts a new template at once.
   */
  version: string;
  /** A stranger may open the pin (the pin rule for no viewer). */
  public: boolean;
  /** The viewer has something of their own on the page, or takes part in a block. */
  related: boolean;
  social: PinSocialData;
}

/**
 * The viewer's relation to the pin as SQL over its row `p`, pinner `u` and board `b`.
 * `public` is the close-up's rule for a stranger (the pin rule, src/visibility/). Any collaborator
 * row counts, whatever its status. A pin without a board or sponsorship reads 0 for those
 * terms, never NULL. The update times and counts make the pin's version (versionOf).
 */
const STRANGER_MAY_OPEN = visibleFlagSql("pin", { pin: "p", board: "b", pinner: "u" }, null);

function relationFields(viewer: ViewerRef): Array<[keyof RelationRow, string]> {
  const v = viewer.sql;
  return [
    ["viewer_id", v],
    ["updated_at", "p.updated_at"],
    ["comment_count", "p.comment_count"],
    ["save_count", "p.save_count"],
    ["board_updated_at", "b.updated_at"],
    ["public", STRANGER_MAY_OPEN],
    [
      "related",
      `(p.pinner_id = ${v}
        OR COALESCE(b.owner_id = ${v}, 0)
        OR EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = p.board_id AND bc.user_id = ${v})
        OR COALESCE(CASE WHEN json_valid(p.sponsorship)
                         THEN CAST(json_extract(p.sponsorship, '$.creatorId') AS INTEGER) = ${v}
                           OR CAST(json_extract(p.sponsorship, '$.sponsorId') AS INTEGER) = ${v} END, 0)
        OR EXISTS (SELECT 1 FROM blocks k WHERE k.blocker_id = ${v})
        OR EXISTS (SELECT 1 FROM blocks k WHERE k.blocked_id = ${v}))`,
    ],
  ];
}

interface RelationRow {
  viewer_id: number | null;
  updated_at: number;
  comment_count: number;
  save_count: number;
  board_updated_at: number | null;
  public: number;
  related: number;
}

/**
 * The relation and the social block's state as one JSON object, read in the session's own
 * statement (see memberStateFrom): a signed-in close-up costs the one statement any
 * signed-in request does. Kept beside a cached session until any write ends in the isolate
 * (SessionCompanion.key): the viewer's own saves, reactions and follows show at once.
 */
export function memberCompanion(pinId: string): SessionCompanion {
  return { subject: pinId, sql: memberStateSql, key: "member-page" };
}

/**
 * One SELECT over the pin, not one per part: D1 prepares every statement it runs, and the
 * planning is most of the statement's cost. The SQL depends only on how the viewer is named
 * (a session's row, or ?2), so it is built once for each.
 */
const memberSql = new Map<string, string>();
function memberStateSql(viewer: ViewerRef): string {
  let sql = memberSql.get(viewer.sql);
  if (sql === undefined) {
    const fields = [...relationFields(viewer), ...pinSocialFields(viewer)].map(([name, value]) => `'${name}', ${value}`);
    sql = `(SELECT json_object(${fields.join(", ")})
              FROM pins p JOIN users u ON u.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
             WHERE p.id = ?1)`;
    if (memberSql.size < 8) memberSql.set(viewer.sql, sql);
  }
  return sql;
}

type MemberRow = RelationRow & SocialRow;

/**
 * What the page shows of the pin itself: its row's update time, its counts (each reaction's,
 * so a switch from one reaction to another is a change too), its board's update time and the
 * ids of the topics it shows. Nothing of the viewer's: every viewer of the same pin shares it.
 */
function versionOf(row: MemberRow, social: PinSocialData): string {
  const reactions = social.reactions.reaction_counts.map(({ reaction_type, count }) => `${reaction_type}:${count}`).join(",");
  const topics = social.topics.map((topic) => topic.id).join(",");
  return [row.updated_at, row.comment_count, row.did_it_images_count, row.save_count, row.board_updated_at ?? "", reactions, topics].join(".");
}

/** The state from memberCompanion's value, or null when the pin does not exist. */
export function memberStateFrom(pinId: string, value: unknown): MemberState | null {
  if (typeof value !== "string") return null;
  const row = JSON.parse(value) as MemberRow;
  const social = pinSocialFromRow(row);
  return { pinId, viewerId: row.viewer_id, version: versionOf(row, social), public: row.public === 1, related: row.related !== 0, social };
}

export async function readMemberState(db: D1Database, pinId: string, viewerId: number): Promise<MemberState | null> {
  const viewer = viewerById(viewerId);
  const row = await db.prepare(`SELECT ${memberCompanion(pinId).sql(viewer)} AS state`).bind(pinId, ...viewer.binds).first<{ state: unknown }>();
  return memberStateFrom(pinId, row?.state);
}

/**
 * The member page's read beside the session, for the request-context middleware: for a GET
 * of a close-up, the companion SQL, and where its value goes (RequestContext.member).
 */
export function memberBesideSession(method: string, path: string): { companion: SessionCompanion; keep: (ctx: RequestContext, value: unknown) => void } | null {
  const pinId = memberPinOfPath(method, path);
  if (!pinId) return null;
  return {
    companion: memberCompanion(pinId),
    keep: (ctx, value) => {
      ctx.member = asPart<MemberState>({ state: memberStateFrom(pinId, value) });
    },
  };
}

/** The viewer's social block for the pin when it came with their session: the personal render reuses it. */
export function socialBesideSession(ctx: Pick<RequestContext, "member">, pinId: string, viewerId: number | null): PinSocialData | null {
  const state = ownOf<MemberState>(ctx).state;
  return state && state.pinId === pinId && state.viewerId === viewerId ? state.social : null;
}

// ---- Templates -----------------------------------------------------------------------------

interface RenderedIsland {
  slot: RenderedSlot;
  /** Everything of the region up to and including the island's opening tag (Astro's bootstrap script may come first). */
  open: string;
  /** From the end of React's HTML to the end of the region: Astro's end-of-children mark, if any, and the closing tag. */
  close: string;
  /** React's HTML in the template, for the stand-in's values. */
  inner: string;
  prefix: string | undefined;
  props: object;
}

/** A template's HTML cut at its marks: static text, with a marker object wherever a request's own part goes. */
export type TemplateParts = Array<string | { context: true } | RenderedIsland>;

/** A rendered island as the template keeps it: its static text already UTF-8. */
interface EncodedIsland {
  slot: RenderedSlot;
  open: Uint8Array;
  close: Uint8Array;
  /** open, the stand-in's HTML and close: the island as the template rendered it. */
  whole: Uint8Array;
  prefix: string | undefined;
  props: object;
  /** The island's component, prefix and template props, hashed: with a viewer's values, the key of its remembered renders. */
  identity: string;
}

interface MemberTemplate {
  /**
   * The parts, static text encoded once: a request then encodes only its own few kilobytes
   * and copies the rest, instead of joining and encoding the whole page again.
   */
  parts: Array<Uint8Array | { context: true } | EncodedIsland>;
  status: number;
  headers: Array<[string, string]>;
}

const utf8 = new TextEncoder();

async function encodeParts(parts: TemplateParts): Promise<MemberTemplate["parts"]> {
  return Promise.all(
    parts.map(async (part) => {
      if (typeof part === "string") return utf8.encode(part);
      if ("context" in part) return part;
      const { slot, open, close, inner, prefix, props } = part;
      const identity = await sha256Hex(`${slot}\u0000${prefix ?? ""}\u0000${JSON.stringify(props)}`);
      return { slot, open: utf8.encode(open), close: utf8.encode(close), whole: utf8.encode(open + inner + close), prefix, props, identity };
    }),
  );
}

/**
 * Cuts a template's HTML at its marks (which carry the render's nonce, so no content can forge
 * one). Null when a mark is missing, repeated or out of shape: the page is then served
 * personally instead, never half-filled.
 */
export function parseTemplate(html: string, member: MemberRender): TemplateParts | null {
  const parts: TemplateParts = [];
  const contextMark = contextMarkOf(member.nonce);
  const contextAt = html.indexOf(contextMark);
  if (contextAt < 0 || html.indexOf(contextMark, contextAt + 1) >= 0) return null;
  const cuts: Array<{ at: number; end: number; part: { context: true } | RenderedIsland }> = [{ at: contextAt, end: contextAt + contextMark.length, part: { context: true } }];
  for (const slot of RENDERED_SLOTS) {
    const open = openMark(member.nonce, slot);
    const closing = closeMark(member.nonce, slot);
    const start = html.indexOf(open);
    if (start < 0) continue;
    const close = html.indexOf(closing, start);
    const props = member.islands.get(slot);
    if (close < 0 || !props || html.indexOf(open, start + 1) >= 0) return null;
    const region = html.slice(start + open.length, close);
    const tagAt = region.indexOf("<astro-island");
    const tagEnd = tagAt < 0 ? -1 : region.indexOf(">", tagAt);
    if (tagEnd < 0 || !region.endsWith("</astro-island>") || region.indexOf("<astro-island", tagAt + 1) >= 0) return null;
    const openTag = region.slice(tagAt, tagEnd + 1);
    const end = region.endsWith(`${ASTRO_END}</astro-island>`) ? `${ASTRO_END}</astro-island>` : "</astro-island>";
    const inner = region.slice(tagEnd + 1, region.length - end.length);
    cuts.push({ at: start, end: close + closing.length, part: { slot, open: region.slice(0, tagEnd + 1), close: end, inner, prefix: /\sprefix="([^"]*)"/.exec(openTag)?.[1], props } });
  }
  cuts.sort((a, b) => a.at - b.at);
  let from = 0;
  for (const cut of cuts) {
    if (cut.at < from) return null;
    parts.push(html.slice(from, cut.at), cut.part);
    from = cut.end;
  }
  parts.push(html.slice(from));
  return parts;
}

/**
 * Renders one per-viewer island's HTML as Astro's React renderer would (islands.server.ts).
 * Passed in, so this module (which the page cache and every writer's purge import) carries no React.
 */
export type IslandRenderer = (slot: RenderedSlot, props: object, prefix: string | undefined) => Promise<string>;

/** Each slot's values for this viewer: what their islands take over the template's stand-ins. */
function viewerSlotValues(ctx: RequestContext, social: PinSocialData): Record<ViewerSlot, object> {
  const user = ctx.session!.user;
  const t = getT(ctx.locale);
  return {
    account: { viewer: accountCornerOf(user), country: ctx.country },
    save: viewerSaveProps(user),
    comments: { viewer: { id: String(user.id), username: user.username, full_name: user.full_name ?? "" }, country: ctx.country },
    reactions: { reactions: social.reactions, didIt: social.didIt },
    topics: { topics: topicItems(t, social.topics) },
  };
}

/**
 * The slot values an island's server HTML reads, where that is fewer than all of them: Save
 * draws its buttons from quick-save alone (the profile link is used on click). The worker test
 * comparing member and personal pages holds this true.
 */
const SERVER_HTML_VALUES: Partial<Record<RenderedSlot, readonly string[]>> = { save: ["quickSave"] };

/**
 * The values an island's server HTML reads, taken from `source` (the viewer's own, or the
 * template's stand-ins) by the names the viewer's values have: each as JSON, so equal text
 * means equal HTML.
 */
function serverHtmlValues(slot: RenderedSlot, source: object, own: object): string {
  const names = SERVER_HTML_VALUES[slot] ?? Object.keys(own);
  return names.map((name) => String(JSON.stringify((source as Record<string, unknown>)[name]))).join("\u0000");
}

/**
 * Island renders already made, as bytes: a render is a pure function of component, props (which
 * carry the locale and every string) and prefix, so it is remembered by the template island's
 * identity and the viewer's values its HTML reads. A person's account menu is the same on
 * every close-up of a locale, and rendering it again was most of a member page's own cost.
 * Kept as long as a template.
 */
const islandRenders = new BoundedLru<Uint8Array>({ maxEntries: 4096, maxBytes: 8 * 1024 * 1024, ttlMs: MEMBER_TTL_SECONDS * 1000 });

/** The template filled in for one viewer, as the response's bytes. */
async function fillTemplate(parts: MemberTemplate["parts"], ctx: RequestContext, social: PinSocialData, renderIsland: IslandRenderer, now = Date.now()): Promise<Uint8Array<ArrayBuffer>> {
  const values = viewerSlotValues(ctx, social);
  const head = utf8.encode(
    `<script type="application/json" id="pinloom-context">${serializeForScript(clientContext(ctx, BUILD_VERSION))}</script>` +
      `<script type="application/json" id="${VIEWER_SLOTS_ID}">${serializeForScript(values)}</script>`,
  );
  const chunks = await Promise.all(
    parts.map(async (part): Promise<Uint8Array | Uint8Array[]> => {
      if (part instanceof Uint8Array) return part;
      if ("context" in part) return head;
      const own = values[part.slot];
      const read = serverHtmlValues(part.slot, own, own);
      // Rendering is a pure function of the props: values equal to the stand-in's give the template's HTML.
      if (read === serverHtmlValues(part.slot, part.props, own)) return part.whole;
      const key = `${part.identity}\u0000${read}`;
      let html = islandRenders.get(key, now);
      if (!html) {
        html = utf8.encode(await renderIsland(part.slot, { ...part.props, ...own }, part.prefix));
        islandRenders.set(key, html, html.byteLength + 2 * key.length, now);
      }
      return [part.open, html, part.close];
    }),
  );
  return concatBytes(chunks.flat());
}

const templates = new BoundedLru<MemberTemplate>({ maxEntries: 256, maxBytes: 24 * 1024 * 1024, ttlMs: MEMBER_TTL_SECONDS * 1000 });
/** Keys whose render could not be a template (not 200, marks out of shape): rendered personally until they expire. */
const refused = new BoundedLru<true>({ maxEntries: 1024, maxBytes: 1024, ttlMs: MEMBER_TTL_SECONDS * 1000 });
/** Each purged path's purge number: a render that began before the path's latest purge is not kept. */
const purges = new BoundedLru<number>({ maxEntries: 4096, maxBytes: 4096, ttlMs: MEMBER_TTL_SECONDS * 1000 });
let purgeCount = 0;

const pathPrefix = (href: string) => `${href.slice(0, href.indexOf("?") < 0 ? href.length : href.indexOf("?"))}?`;

/** Drops every member template of a path (all locales, devices and groups) in this isolate. */
export function purgeMemberTemplates(origin: string, path: string, now = Date.now()): void {
  const prefix = pathPrefix(new URL(path, origin).href);
  purgeCount += 1;
  purges.set(prefix, purgeCount, 1, now);
  templates.deleteWhere((key) => key.startsWith(prefix));
  refused.deleteWhere((key) => key.startsWith(prefix));
}

/**
 * Whether no purge of the path came after `snapshot` (purgeCount when the render began). A
 * path with no record while the count moved on may have had its record evicted: not current.
 */
function unpurgedSince(key: string, snapshot: number, now: number): boolean {
  if (purgeCount === snapshot) return true;
  const last = purges.get(pathPrefix(key), now);
  return last !== undefined && last <= snapshot;
}

/** What a template holds in memory, roughly: its bytes, and its islands' props as JSON. */
function sizeOf(template: MemberTemplate): number {
  return template.parts.reduce(
    (bytes, part) =>
      bytes + (part instanceof Uint8Array ? part.byteLength : "context" in part ? 0 : part.open.byteLength + part.close.byteLength + part.whole.byteLength + 2 * JSON.stringify(part.props).length),
    0,
  );
}

/** Renders the page with a template's context (the request without its cookies), to its end. */
export type TemplateRenderer = (template: RequestContext) => Promise<Response>;

async function makeTemplate(render: TemplateRenderer, template: RequestContext): Promise<MemberTemplate | null> {
  const response = await render(template);
  const html = await response.text();
  if (response.status !== 200 || !(response.headers.get("content-type") ?? "").startsWith("text/html") || response.headers.has("set-cookie")) return null;
  const made = ownOf(template).render;
  const parts = made ? parseTemplate(html, made) : null;
  if (!parts) return null;
  const headers = [...response.headers].filter(([name]) => !["cache-control", "x-request-id", "content-length"].includes(name.toLowerCase()));
  return { parts: await encodeParts(parts), status: response.status, headers };
}

interface MemberRequest {
  ctx: RequestContext;
  method: string;
  db: D1Database;
  render: TemplateRenderer;
  renderIsland: IslandRenderer;
  now?: number;
}

/**
 * The member page for this request, or null when it must be rendered personally (see the top
 * of this file). Requests that miss together each render (as the signed-out cache's do): one
 * request never waits on another's I/O.
 */
export async function serveMemberPage({ ctx, method, db, render, renderIsland, now = Date.now() }: MemberRequest): Promise<Response | null> {
  const pinId = memberPinId(method, ctx);
  if (!pinId) return null;
  const viewerId = ctx.session!.user.id;
  // Read beside the session by the request-context middleware (one round trip), else here.
  // Null: no such pin (or the read failed), which a personal render answers, with no second read.
  const known = ownOf<MemberState>(ctx).state;
  const state = known === undefined ? await readMemberState(db, pinId, viewerId) : known;
  if (!state || state.pinId !== pinId || state.viewerId !== viewerId || !state.public || state.related) return null;
  const key = memberKey(ctx, state.version);
  let template = templates.get(key, now) ?? null;
  if (!template && refused.get(key, now)) return null;
  let status: string = MEMBER_CACHE_STATUS.hit;
  if (!template) {
    status = MEMBER_CACHE_STATUS.miss;
    const snapshot = purgeCount;
    template = await makeTemplate(render, templateContext(ctx));
    // A purge while it rendered (a comment deleted, a pin edited) may have outdated it: not kept.
    const current = unpurgedSince(key, snapshot, now);
    if (!template) {
      if (current && !templates.get(key, now)) refused.set(key, true, 1, now);
      return null;
    }
    if (current) {
      templates.set(key, template, sizeOf(template), now);
      refused.delete(key);
    }
  }
  const response = new Response(await fillTemplate(template.parts, ctx, state.social, renderIsland, now), { status: template.status, headers: template.headers });
  response.headers.set("x-pinloom-cache", status);
  return response;
}
