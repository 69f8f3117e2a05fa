// The deterministic demo world. PURE: no I/O, no clock, no
// Math.random. Every value comes from one seeded Faker instance and a fixed base epoch, so
// the same options always give a byte-identical world (rows + media jobs).
//
// scripts/seed.ts turns the world into D1 rows and R2 objects; scripts/seed/media.ts renders
// the media jobs; docs/demo-accounts.md documents the fixed ids exported as FIXTURES.
import { MEDIA_TYPES, PIN_IMAGE_SIZES, USER_IMAGE_SIZES, mediaKeys, mediaUrl, sizeBox } from "../../src/media/media.ts";
import type { PinImageSize, UserImageSize } from "../../src/media/media.ts";
import { holds } from "../../src/visibility/rules.ts";

import { type BoardPinRow, type BoardPrivacy, type BoardRow, type BoardSectionRow, type ClipSpec, type CommentRow, type DemoCredential, type ImageJob, type ImageOutput, type ImageSpec, type ImageStyle, type MediaPlan, type PinImageRow, type PinKind, type PinRow, type PinTagRow, type Tables, type UserRow, type World, type WorldOptions } from "./types.ts";
import { Rng, SECOND, WeightedTable, at } from "./rng.ts";
import { Vocabulary } from "./vocabulary.ts";
import { PHOTOS, photoAttribution, photoByFile, type Photo, type PhotoCaption } from "./photos.ts";
import { ABOUTS, BOARD_NAMES, capitalize, BRANDS, type Brand, COMMENTS_GENERIC, COMMENTS_TOPIC, CTAS, CUISINES, DESTINATIONS, DIETS, DIY_DETAILS, DIY_PROJECTS, DIY_TITLES, EMAIL_HOSTS, FOOD_OPENERS, FOOD_TIPS, FOOD_TITLES, FRENCH_CAPTIONS, GARMENTS, HOME_DETAILS, HOME_ITEMS, HOME_STYLES, HOME_TITLES, KIND_PCT, LOCALES, PHOTO_PROVIDERS, PIN_ASPECTS, RECIPE_AMOUNTS, REPLIES, SEASONS, SECTION_TITLES, STORY_DIMS, STYLE_DETAILS, STYLE_TITLES, SUPPLIES, TOPICS, TOPIC_CATEGORY, TOPIC_HUES, TOPIC_LABEL, TOPIC_STYLES, TOPIC_WEIGHTS, TRAVEL_DETAILS, TRAVEL_SPOTS, TRAVEL_TITLES, type Topic, VIDEO_LANDSCAPE, VIDEO_PORTRAIT } from "./corpus.ts";

// Other scripts import the world's types and tables from here.
export * from "./types.ts";
// ---------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------

export const DEFAULT_SEED = 20261122;
export const DEFAULT_PINS = 1000;
export const MIN_PINS = 40;
/** Every time in the world is this instant minus a deterministic offset. */
export const BASE_EPOCH = Date.UTC(2026, 9, 1);
/** Above this many pins, pin images come from a shared pool (bench worlds). */
export const POOL_THRESHOLD = 2000;
const POOL_SIZE = 1000;
/** Pool sets 0..STORY_POOL_SIZE-1 are 9:16 (story pages); the rest have mixed aspects. */
const STORY_POOL_SIZE = 100;
/** In a pooled world only this many pins stay videos; the rest of the video quota become images. */
export const POOLED_VIDEO_LIMIT = 24;
/** Avatar sets a pooled world renders; its users share them (users/pool-N). */
export const POOLED_AVATARS = 200;
/** Distinct video clips rendered; every video pin reuses one of them under its own keys. */
const CLIP_COUNT = 6;
/** Clips below this index are drawn (the showcase videos' titles describe no photo); the rest film a photo. */
const PHOTO_CLIP_START = 2;
/** The photos clips PHOTO_CLIP_START.. film, in order (even clips are portrait). */
const CLIP_PHOTOS = ["forest-stream.jpg", "dune-grass-sea.jpg", "spaniels-wooden-hut.jpg", "storm-over-road.jpg"] as const;
/** Kinds whose generated pins show a photo and take their title from it (recipes and products name dishes and items no photo shows). */
const PHOTO_KINDS: ReadonlySet<PinKind> = new Set(["image", "article", "carousel", "story", "video"]);
const CAPTION_LOCALES = ["en_US", "fr"] as const;

/** Password of every documented demo account (docs/demo-accounts.md). */
export const DEMO_PASSWORD = "PinloomDemo#2026";
/** Base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s) of the MFA demo account. */
export const DEMO_MFA_SECRET = "PINLOOMDEMOTOTPSECRETKEY23456ABC";
/** The distinctive name of the secret board; leak tests search every public surface for it. */
export const SECRET_BOARD_NAME = "Surprise party for Maya";

const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const USER_ID_START = 1;
const BOARD_ID_START = 10001;
const SECTION_ID_START = 50001;
const PIN_ID_START = 100001;
const COMMENT_ID_START = 1000001;

/** Fixed ids: stable for any --pins >= MIN_PINS and the default seed (documented). */
export const FIXTURES = {
  users: {
    demo: 1,
    merchant: 2,
    business: 3,
    limited: 4,
    teen: 5,
    mfa: 6,
    friend: 7,
    /** Business creator accounts that own a link domain. */
    creatorNest: 8,
    creatorMeadow: 9,
    employee: 10,
    writeBanned: 11,
    privateProfile: 12,
  },
  boards: {
    secret: 10001,
    weeknight: 10002,
    collaborative: 10003,
    protected: 10004,
    friendSecret: 10005,
    merchant: 10006,
    business: 10007,
    teen: 10008,
    archived: 10009,
    friendTravel: 10010,
    mfaHome: 10011,
    limitedHome: 10012,
  },
  sections: {
    secretDecorations: 50001,
    secretCake: 50002,
    weeknightPasta: 50003,
    weeknightSoups: 50004,
    weeknightSheetPan: 50005,
  },
  pins: {
    image: 100001,
    video: 100002,
    carousel: 100003,
    story: 100004,
    recipe: 100005,
    article: 100006,
    product: 100007,
    productOutOfStock: 100008,
    deleted: 100009,
    hidden: 100010,
    unsafe: 100011,
    promoted: 100012,
    secret: 100013,
    secretByCollaborator: 100014,
    protected: 100015,
    friendSecret: 100016,
    linkOnly: 100017,
    blockedLink: 100018,
    javascriptLink: 100019,
    mobileLinkOnly: 100020,
    commentsDisabled: 100021,
    attributed: 100022,
    teen: 100023,
    archivedBoard: 100024,
    videoLandscape: 100025,
  },
  domains: {
    blocked: "dealsgalore-now.example",
    business: "bakeandbloom.example",
    merchant: "marlowandmain.example",
  },
} as const;

// ---------------------------------------------------------------------------------------
// Small pure helpers
// ---------------------------------------------------------------------------------------


function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing ${what}`);
  return value;
}

/** Board/section slug: lowercased, punctuation removed, spaces to hyphens. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/[\s-]+/g, "-");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}


function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

function hex2(value: number): string {
  return Math.max(0, Math.min(255, Math.round(value))).toString(16).padStart(2, "0");
}

function hslToHex(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  const sat = s / 100;
  const light = l / 100;
  const chroma = (1 - Math.abs(2 * light - 1)) * sat;
  const x = chroma * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = light - chroma / 2;
  const [r, g, b] =
    hue < 60 ? [chroma, x, 0] : hue < 120 ? [x, chroma, 0] : hue < 180 ? [0, chroma, x] : hue < 240 ? [0, x, chroma] : hue < 300 ? [x, 0, chroma] : [chroma, 0, x];
  return `#${hex2((r + m) * 255)}${hex2((g + m) * 255)}${hex2((b + m) * 255)}`;
}

/** Width x height of one pin image size for an original of origW x origH. */
function sizeDims(size: PinImageSize, origW: number, origH: number): { width: number; height: number } {
  const box = sizeBox(size);
  if (!box) return { width: origW, height: origH };
  if (box.height !== undefined) return { width: box.width, height: box.height };
  return { width: box.width, height: Math.round((box.width * origH) / origW) };
}

/** Sizes stored for carousel slots and story pages. */
const SLOT_IMAGE_SIZES = ["236x", "474x", "736x", "orig"] as const satisfies readonly PinImageSize[];

function poolImageKey(index: number, size: PinImageSize): string {
  return `pool/${index}/${size}.jpg`;
}

// ---------------------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------------------

type UserMeta = { row: UserRow; topics: Topic[]; popular: number };
type BoardMeta = {
  row: BoardRow;
  topic: Topic;
  sections: BoardSectionRow[];
  accepted: number[];
  pins: Set<number>;
};
type PinMeta = { row: PinRow; topic: Topic; publicFirst: boolean; keyword: string };

/**
 * Tags on a few pins, so close-ups show dots and "Shop the look" from the start: the tomato orzo
 * tags the banana bread and a pin on its pinner's secret board (tagged for her and that board's
 * people only: everyone else's close-up leaves it out), and the first public style pin (the
 * style topic is mostly products) tags the merchant's two products. Chosen without the random stream, so they move nothing else.
 */
function pinTagRows(pins: readonly PinMeta[], P: typeof FIXTURES.pins): PinTagRow[] {
  const byId = new Map(pins.map((pin) => [pin.row.id, pin]));
  const rows: PinTagRow[] = [];
  const tag = (pinId: number, position: number, x: number, y: number, taggedPinId: number) => {
    const pin = byId.get(pinId);
    if (!pin || !byId.has(taggedPinId)) return;
    rows.push({ pin_id: pinId, tag_key: `seed-${pinId}-${position}`, item_index: 0, position, x, y, tagged_pin_id: taggedPinId, link: null, created_at: pin.row.created_at });
  };
  tag(P.image, 0, 0.28, 0.66, P.recipe);
  tag(P.image, 1, 0.71, 0.31, P.secret);
  const showcaseIds = new Set<number>(Object.values(P));
  const style = pins.find(
    (pin) => !showcaseIds.has(pin.row.id) && (pin.row.kind === "image" || pin.row.kind === "product") && pin.topic === "style" && pin.publicFirst && !pin.row.is_hidden && !pin.row.is_unsafe && !pin.row.is_deleted,
  );
  if (style) {
    tag(style.row.id, 0, 0.34, 0.42, P.product);
    tag(style.row.id, 1, 0.62, 0.78, P.productOutOfStock);
  }
  return rows;
}

type PinSpec = {
  id: number;
  kind: PinKind;
  board: BoardMeta;
  pinner?: number;
  section?: number | null;
  title?: string;
  keyword?: string;
  linkMode?: "full" | "linkOnly" | "mobileOnly" | "none" | "blocked" | "javascript" | "auto";
  flags?: Partial<Pick<PinRow, "is_deleted" | "is_hidden" | "is_unsafe" | "comments_disabled">>;
  promoted?: boolean;
  /** A demo sponsorship (spec 001 §4): this sponsor, status 0 (pending) so every action can be tried. */
  sponsor?: number;
  outOfStock?: boolean;
  attributed?: boolean;
  clip?: number;
  /** The photograph the pin shows; its title, text and topic then come from the photo. */
  photo?: Photo;
};

export function buildWorld(options: WorldOptions): World {
  const seed = options.seed ?? DEFAULT_SEED;
  const pinTotal = Math.floor(options.pins);
  if (!Number.isFinite(pinTotal) || pinTotal < MIN_PINS) throw new Error(`buildWorld: pins must be >= ${MIN_PINS}`);
  const rng = new Rng(seed);
  const faker = rng.faker;
  const pooled = pinTotal > POOL_THRESHOLD;
  // Bench worlds only, from its own random stream (scripts/seed/vocabulary.ts).
  const vocab = pooled ? new Vocabulary(seed) : null;

  const tables: Tables = {
    users: [],
    link_domains: [],
    boards: [],
    board_sections: [],
    board_collaborators: [],
    pins: [],
    pin_images: [],
    pin_video_formats: [],
    board_pins: [],
    follows: [],
    reactions: [],
    pin_reaction_counts: [],
    comments: [],
    pin_tags: [],
  };
  const media: MediaPlan = { images: [], clips: [], videos: [], texts: [] };
  const credentials: DemoCredential[] = [];

  // ----- palettes and pictures ---------------------------------------------------------
  function palette(topic: Topic): string[] {
    const [h0, h1] = TOPIC_HUES[topic];
    const hue = rng.int(h0, h1);
    const muted = topic === "home" || (topic === "style" && rng.chance(0.3));
    const sat = muted ? rng.int(12, 35) : rng.int(40, 75);
    const light = rng.int(topic === "home" ? 55 : 45, topic === "home" ? 80 : 70);
    return [
      hslToHex(hue, sat, light),
      hslToHex(hue + rng.int(20, 50), Math.min(90, sat + 10), Math.max(25, light - 20)),
      hslToHex(hue + 180 + rng.int(-25, 25), Math.max(20, sat - 5), rng.int(35, 60)),
      hslToHex(hue + rng.int(-10, 10), Math.max(10, sat - 25), rng.int(85, 94)),
      hslToHex(hue + rng.int(-15, 15), Math.min(60, sat), rng.int(14, 24)),
    ];
  }

  function picture(topic: Topic, width: number, height: number, text: string | null, forceStyle?: ImageStyle): ImageSpec {
    const style = forceStyle ?? rng.weighted(TOPIC_STYLES[topic]);
    return { style, width, height, palette: palette(topic), seed: rng.int(1, 2 ** 31 - 1), text: style === "quote" || style === "avatar" ? text : null };
  }

  function photoSpec(photo: Photo, width: number, height: number): ImageSpec {
    return { style: "photo", width, height, palette: [photo.dominant], seed: 0, text: null, photo: photo.file };
  }

  /**
   * A photo pin's aspect: the pin aspects no taller than 2:3, so a landscape photo is
   * never cropped to a sliver and blown up (stories and video posters keep their 9:16).
   */
  function photoAspect(): { width: number; height: number } {
    const [a, b] = rng.weighted(PIN_ASPECTS.filter(([[w, h]]) => h / w <= 1.5));
    return { width: 736, height: Math.round((736 * b) / a) };
  }

  function pinAspect(): { width: number; height: number } {
    const [a, b] = rng.weighted(PIN_ASPECTS);
    const width = rng.chance(0.15) ? 1000 : 736;
    return { width, height: Math.round((width * b) / a) };
  }

  // ----- image pool (bench worlds) -------------------------------------------------------
  const pool: Array<{ spec: ImageSpec }> = [];
  if (pooled) {
    for (let index = 0; index < POOL_SIZE; index++) {
      const topic = rng.weighted(TOPIC_WEIGHTS);
      const dims = index < STORY_POOL_SIZE ? STORY_DIMS : pinAspect();
      const spec = picture(topic, dims.width, dims.height, null, index < STORY_POOL_SIZE ? "blobs" : rng.weighted(TOPIC_STYLES[topic].filter(([s]) => s !== "quote")));
      pool.push({ spec });
      media.images.push({
        spec,
        shareKey: null,
        outputs: PIN_IMAGE_SIZES.map((size) => ({ key: poolImageKey(index, size), ...sizeDims(size, spec.width, spec.height) })),
      });
    }
  }

  // ----- video clips ---------------------------------------------------------------------
  // Every clip draws its picture (the draws keep the rest of the world as documented); the
  // photo clips then film their photo instead.
  function clipSpec(index: number, drawn: ImageSpec, box: { width: number; height: number }): ImageSpec {
    const file = CLIP_PHOTOS[index - PHOTO_CLIP_START];
    return index < PHOTO_CLIP_START || file === undefined ? drawn : photoSpec(photoByFile(file), box.width, box.height);
  }
  for (let index = 0; index < CLIP_COUNT; index++) {
    const portrait = index % 2 === 0;
    const box = portrait ? VIDEO_PORTRAIT : VIDEO_LANDSCAPE;
    const topic = at(TOPICS, index % TOPICS.length);
    const durationMs = [4000, 3000, 5000][index % 3] ?? 4000;
    const fps = 24;
    media.clips.push({
      index,
      width: box.width,
      height: box.height,
      fps,
      frames: (fps * durationMs) / 1000,
      durationMs,
      spec: clipSpec(index, picture(topic, box.width, box.height, null, rng.pick(["blobs", "stripes", "bauhaus", "horizon"] as const)), box),
    });
  }

  // ----- users ---------------------------------------------------------------------------
  const users: UserMeta[] = [];
  const usernames = new Set<string>();
  const emails = new Set<string>();

  function baseUser(id: number, first: string, last: string, username: string, email: string): UserRow {
    return {
      id,
      username,
      email,
      password_hash: null,
      full_name: `${first} ${last}`.trim(),
      first_name: first,
      last_name: last,
      about: "",
      country: "US",
      locale: "en_US",
      gender: null,
      custom_gender: null,
      birthday: null,
      age_in_years: null,
      image_key: `users/${id}`,
      account_type: "personal",
      business_name: null,
      is_partner: 0,
      is_verified_merchant: 0,
      verified_identity: 0,
      is_ads_only_profile: 0,
      domain_url: null,
      domain_verified: 0,
      is_employee: 0,
      is_under_16: 0,
      is_under_18: 0,
      is_write_banned: 0,
      is_private_profile: 0,
      login_state: "full",
      email_verified: 1,
      has_mfa_enabled: 0,
      mfa_secret: null,
      is_parental_control_passcode_enabled: 0,
      parental_passcode_hash: null,
      parental_control_anonymized_email: null,
      allow_personalization_cookies: 1,
      allow_analytic_cookies: 1,
      allow_marketing_cookies: 0,
      third_party_marketing_tracking_enabled: 1,
      should_show_messaging: 1,
      show_personal_boutique: 0,
      save_behavior: 0,
      phone_country: null,
      phone_number: null,
      connected_networks: "{}",
      follower_count: 0,
      following_count: 0,
      pin_count: 0,
      board_count: 0,
      secret_board_count: 0,
      scheduled_pin_count: 0,
      group_board_count: 0,
      resurrection_date: null,
      created_at: 0,
      // The demo world's people are past onboarding (src/onboarding/); a sign-up starts it.
      onboarding_step: "done",
      first_home_feed_after_nux: 0,
    };
  }

  function birthdayFor(age: number): { birthday: string; age: number } {
    // A birthday strictly before the base date's month/day keeps the age exact at BASE_EPOCH.
    const baseDate = new Date(BASE_EPOCH);
    const year = baseDate.getUTCFullYear() - age;
    const month = rng.int(1, 9);
    const day = rng.int(1, 28);
    return { birthday: `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`, age };
  }

  function addUser(row: UserRow, topics: Topic[], popular: number): UserMeta {
    usernames.add(row.username.toLowerCase());
    emails.add(row.email.toLowerCase());
    const meta: UserMeta = { row, topics, popular };
    users.push(meta);
    tables.users.push(row);
    return meta;
  }

  type FixedUser = {
    first: string;
    last: string;
    username: string;
    email: string;
    role: string;
    topics: Topic[];
    popular: number;
    patch: Partial<UserRow>;
  };
  const fixedUsers: FixedUser[] = [
    { first: "Ava", last: "Thompson", username: "demo", email: "demo@pinloom.example", role: "plain demo account", topics: ["food", "home"], popular: 4, patch: { about: "Cooking, plants and slow Sundays. This is the Pinloom demo account." } },
    {
      first: "Marlow",
      last: "& Main",
      username: "marlowandmain",
      email: "shop@marlowandmain.example",
      role: "verified merchant (business)",
      topics: ["style", "home"],
      popular: 8,
      patch: {
        full_name: "Marlow & Main",
        account_type: "business",
        business_name: "Marlow & Main",
        is_verified_merchant: 1,
        verified_identity: 1,
        domain_url: "https://marlowandmain.example",
        domain_verified: 1,
        show_personal_boutique: 1,
        about: "Thoughtful everyday clothing and homeware. Free shipping over $75.",
      },
    },
    {
      first: "Bake",
      last: "& Bloom Studio",
      username: "bakeandbloom",
      email: "hello@bakeandbloom.example",
      role: "business account (partner)",
      topics: ["food"],
      popular: 8,
      patch: {
        full_name: "Bake & Bloom Studio",
        account_type: "business",
        business_name: "Bake & Bloom Studio",
        is_partner: 1,
        domain_url: "https://bakeandbloom.example",
        domain_verified: 1,
        about: "Seasonal baking, one bake at a time. Recipes on bakeandbloom.example.",
      },
    },
    { first: "Lou", last: "Harper", username: "lou_limited", email: "lou@pinloom.example", role: "limited-login account", topics: ["home"], popular: 1, patch: { login_state: "limited", about: "Reading nooks and quiet corners." } },
    {
      first: "Mia",
      last: "Rivera",
      username: "mia_sketches",
      email: "mia@pinloom.example",
      role: "under-16 account",
      topics: ["diy"],
      popular: 1,
      patch: { is_under_16: 1, is_under_18: 1, is_private_profile: 1, allow_marketing_cookies: 0, third_party_marketing_tracking_enabled: 0, about: "Sketching and paper crafts." },
    },
    {
      first: "Noah",
      last: "Kim",
      username: "noah_secure",
      email: "noah@pinloom.example",
      role: "MFA-enabled account",
      topics: ["home", "travel"],
      popular: 2,
      patch: { has_mfa_enabled: 1, mfa_secret: DEMO_MFA_SECRET, phone_country: "US", phone_number: "+1 555 0100", about: "Tidy desks and long train rides." },
    },
    { first: "Sam", last: "Okafor", username: "sam", email: "sam@pinloom.example", role: "second plain demo account (collaborator)", topics: ["travel", "food"], popular: 3, patch: { about: "Trips, markets and whatever is for dinner." } },
  ];
  fixedUsers.forEach((fixed, index) => {
    const id = USER_ID_START + index;
    const row = baseUser(id, fixed.first, fixed.last, fixed.username, fixed.email);
    const age = fixed.username === "mia_sketches" ? birthdayFor(15) : birthdayFor(rng.int(24, 48));
    Object.assign(row, {
      gender: rng.pick(["female", "male", "unspecified"]),
      birthday: age.birthday,
      age_in_years: age.age,
      created_at: rng.time(BASE_EPOCH - 3 * 365 * DAY, BASE_EPOCH - 200 * DAY),
      allow_marketing_cookies: rng.chance(0.5) ? 1 : 0,
    });
    Object.assign(row, fixed.patch);
    if (row.account_type === "business") Object.assign(row, { gender: null, birthday: null, age_in_years: null, first_name: "", last_name: "" });
    addUser(row, fixed.topics, fixed.popular);
    credentials.push({ userId: id, username: fixed.username, email: fixed.email, password: DEMO_PASSWORD, role: fixed.role, mfaSecret: row.mfa_secret });
  });

  const userTotal = Math.max(55, Math.ceil(pinTotal / 18));
  for (let id = USER_ID_START + fixedUsers.length; id < USER_ID_START + userTotal; id++) {
    const sex = rng.pick(["female", "male"] as const);
    let first = faker.person.firstName(sex);
    // "Maya" is the leak-test marker of the secret board: no public name may contain it.
    while (/maya/i.test(first)) first = faker.person.firstName(sex);
    let last = faker.person.lastName();
    while (/maya/i.test(last)) last = faker.person.lastName();
    let username = faker.internet
      .username({ firstName: first, lastName: last })
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, "_")
      .replace(/_+/g, "_")
      .slice(0, 24);
    if (username.length < 3) username = `${username}_pins`;
    while (usernames.has(username)) username = `${username.slice(0, 24)}${rng.int(1, 999)}`;
    let email = `${username.replace(/_/g, ".")}@${rng.pick(EMAIL_HOSTS)}`;
    while (emails.has(email)) email = `${username}${rng.int(1, 9999)}@${rng.pick(EMAIL_HOSTS)}`;
    const row = baseUser(id, first, last, username, email);
    const topics = rng.sample(TOPICS, rng.int(1, 2));
    const [country, locale] = rng.weighted(LOCALES);
    const hasBirthday = rng.chance(0.8);
    const age = birthdayFor(rng.int(19, 67));
    const custom = rng.chance(0.03);
    Object.assign(row, {
      about: rng.chance(0.75) ? rng.pick(ABOUTS[at(topics, 0)]) : "",
      country,
      locale,
      gender: custom ? "custom" : rng.chance(0.1) ? "unspecified" : sex,
      custom_gender: custom ? "non-binary" : null,
      birthday: hasBirthday ? age.birthday : null,
      age_in_years: hasBirthday ? age.age : null,
      email_verified: rng.chance(0.85) ? 1 : 0,
      verified_identity: rng.chance(0.05) ? 1 : 0,
      allow_personalization_cookies: rng.chance(0.7) ? 1 : 0,
      allow_analytic_cookies: rng.chance(0.6) ? 1 : 0,
      allow_marketing_cookies: rng.chance(0.35) ? 1 : 0,
      third_party_marketing_tracking_enabled: rng.chance(0.8) ? 1 : 0,
      should_show_messaging: rng.chance(0.9) ? 1 : 0,
      save_behavior: rng.chance(0.2) ? 1 : 0,
      connected_networks: rng.chance(0.15) ? JSON.stringify({ google: { connected: true } }) : rng.chance(0.08) ? JSON.stringify({ facebook: { connected: true } }) : "{}",
      resurrection_date: null,
      created_at: rng.time(BASE_EPOCH - 4 * 365 * DAY, BASE_EPOCH - 45 * DAY),
    });
    if (rng.chance(0.05)) Object.assign(row, { phone_country: country, phone_number: `+1 555 01${String(rng.int(0, 99)).padStart(2, "0")}` });
    if (id === FIXTURES.users.creatorNest || id === FIXTURES.users.creatorMeadow) {
      const brand = id === FIXTURES.users.creatorNest ? "Nest & Nook" : "Makers Meadow";
      const domain = id === FIXTURES.users.creatorNest ? "nestandnook.example" : "makersmeadow.example";
      Object.assign(row, {
        full_name: brand,
        first_name: "",
        last_name: "",
        account_type: "business",
        business_name: brand,
        is_partner: rng.chance(0.5) ? 1 : 0,
        domain_url: `https://${domain}`,
        domain_verified: 1,
        gender: null,
        custom_gender: null,
        birthday: null,
        age_in_years: null,
      });
      topics.splice(0, topics.length, id === FIXTURES.users.creatorNest ? "home" : "diy");
    }
    if (id === FIXTURES.users.employee) row.is_employee = 1;
    if (id === FIXTURES.users.writeBanned) row.is_write_banned = 1;
    if (id === FIXTURES.users.privateProfile || (id > FIXTURES.users.privateProfile && rng.chance(0.04))) row.is_private_profile = 1;
    if (id === FIXTURES.users.privateProfile + 1) row.resurrection_date = rng.time(BASE_EPOCH - 30 * DAY, BASE_EPOCH - DAY);
    const business = row.account_type === "business";
    addUser(row, topics, business ? 5 : rng.chance(0.1) ? 3 : 1);
  }
  const userById = new Map(users.map((user) => [user.row.id, user]));
  const userOf = (id: number): UserMeta => must(userById.get(id), `user ${id}`);
  const allUserIds = users.map((user) => user.row.id);

  // Avatars: initials on a colour. A pooled world shares POOLED_AVATARS rendered sets: its users
  // point image_key at one of them (users/pool-N), so 200 sets are rendered and stored, not
  // one per user (the 100,000-pin world has 5,556 users: 22,224 puts saved).
  const avatarSizes = Object.keys(USER_IMAGE_SIZES) as UserImageSize[];
  for (const user of users) {
    const topic = at(user.topics, 0);
    const initials = (user.row.account_type === "business" ? (user.row.business_name ?? user.row.full_name) : user.row.full_name)
      .split(/\s+/)
      .filter((word) => /^[A-Za-z]/.test(word))
      .slice(0, 2)
      .map((word) => word.charAt(0).toUpperCase())
      .join("");
    // Drawn for every user, pooled or not, so the rest of the world's draws stay the same.
    const spec = picture(topic, 280, 280, pooled ? null : initials, "avatar");
    if (pooled) {
      const set = `pool-${user.row.id % POOLED_AVATARS}`;
      user.row.image_key = `users/${set}`;
      if (user.row.id >= POOLED_AVATARS + USER_ID_START) continue;
      spec.text = null;
      media.images.push({ spec, shareKey: null, outputs: avatarSizes.map((size) => ({ key: mediaKeys.userImage(set, size), width: USER_IMAGE_SIZES[size], height: USER_IMAGE_SIZES[size] })) });
      continue;
    }
    media.images.push({
      spec,
      shareKey: null,
      outputs: avatarSizes.map((size) => ({
        key: mediaKeys.userImage(user.row.id, size),
        width: USER_IMAGE_SIZES[size],
        height: USER_IMAGE_SIZES[size],
      })),
    });
  }

  // ----- link domains --------------------------------------------------------------------
  const officialByDomain: Record<string, number> = {
    "bakeandbloom.example": FIXTURES.users.business,
    "marlowandmain.example": FIXTURES.users.merchant,
    "nestandnook.example": FIXTURES.users.creatorNest,
    "makersmeadow.example": FIXTURES.users.creatorMeadow,
  };
  for (const brand of BRANDS) {
    tables.link_domains.push({ domain: brand.domain, official_user_id: officialByDomain[brand.domain] ?? null, is_blocked: brand.blocked ? 1 : 0 });
  }
  for (const provider of PHOTO_PROVIDERS) tables.link_domains.push({ domain: provider.domain, official_user_id: null, is_blocked: 0 });
  const brandsByTopic = (topic: Topic, shop: boolean | null): Brand[] =>
    BRANDS.filter((brand) => !brand.blocked && brand.topic === topic && (shop === null || brand.shop === shop || BRANDS.every((b) => b.topic !== topic || b.shop !== shop)));

  // ----- boards --------------------------------------------------------------------------
  const boards: BoardMeta[] = [];
  const boardById = new Map<number, BoardMeta>();
  const slugsByOwner = new Map<number, Set<string>>();
  let nextSectionId = SECTION_ID_START;

  function boardName(topic: Topic): string {
    const template = rng.pick(BOARD_NAMES[topic]);
    return template
      .replace("{cuisine}", rng.pick(CUISINES))
      .replace("{homestyle}", capitalize(rng.pick(HOME_STYLES)))
      .replace("{color}", faker.color.human())
      .replace("{place}", capitalize(rng.pick(DESTINATIONS).replace(/^the /, "")))
      .replace("{season}", capitalize(rng.pick(SEASONS)));
  }

  function addBoard(input: {
    id: number;
    owner: number;
    name: string;
    topic: Topic;
    privacy: BoardPrivacy;
    description?: string;
    sections?: string[];
    archived?: boolean;
    createdAt?: number;
  }): BoardMeta {
    const owner = userOf(input.owner);
    const taken = slugsByOwner.get(input.owner) ?? new Set<string>();
    slugsByOwner.set(input.owner, taken);
    let name = input.name.slice(0, 50).trim();
    let slug = slugify(name);
    for (let n = 2; taken.has(slug); n++) {
      name = `${input.name.slice(0, 46).trim()} ${n}`;
      slug = slugify(name);
    }
    taken.add(slug);
    const createdAt = input.createdAt ?? rng.time(owner.row.created_at + HOUR, owner.row.created_at + (BASE_EPOCH - owner.row.created_at) * 0.6);
    const drawn =
      input.description ??
      (rng.chance(0.3) ? "" : `${rng.pick(["Ideas for", "Collecting", "Everything about", "Inspiration for"])} ${name.toLowerCase()}. ${rng.pick(detailsFor(input.topic))}`);
    const description = vocab && input.description === undefined ? `${drawn} ${vocab.sentence()}`.trim() : drawn;
    const row: BoardRow = {
      id: input.id,
      owner_id: input.owner,
      name,
      slug,
      description: description.slice(0, 500),
      privacy: input.privacy,
      layout: rng.chance(0.1) ? "custom" : "default",
      cover_pin_id: null,
      category: TOPIC_CATEGORY[input.topic],
      is_collaborative: 0,
      pin_count: 0,
      sectionless_pin_count: 0,
      section_count: 0,
      collaborator_count: 0,
      follower_count: 0,
      archived_at: input.archived ? rng.time(BASE_EPOCH - 60 * DAY, BASE_EPOCH - 10 * DAY) : null,
      created_at: createdAt,
      updated_at: createdAt,
    };
    const meta: BoardMeta = { row, topic: input.topic, sections: [], accepted: [], pins: new Set() };
    const sectionTitles = input.sections ?? [];
    const sectionSlugs = new Set<string>();
    sectionTitles.forEach((title, position) => {
      const sectionSlug = slugify(title);
      if (sectionSlugs.has(sectionSlug)) return;
      sectionSlugs.add(sectionSlug);
      meta.sections.push({
        id: nextSectionId++,
        board_id: row.id,
        title,
        slug: sectionSlug,
        position,
        pin_count: 0,
        created_at: rng.time(createdAt, createdAt + 2 * DAY),
      });
    });
    boards.push(meta);
    boardById.set(row.id, meta);
    tables.boards.push(row);
    tables.board_sections.push(...meta.sections);
    return meta;
  }

  function addCollaborator(board: BoardMeta, userId: number, status: "new" | "accepted", type: "invite" | "request" = "invite"): void {
    board.row.is_collaborative = 1;
    if (status === "accepted") board.accepted.push(userId);
    tables.board_collaborators.push({
      board_id: board.row.id,
      user_id: userId,
      status,
      access: rng.chance(0.8) ? "write,delete" : "write",
      type,
      invited_by: type === "invite" ? board.row.owner_id : null,
      created_at: rng.time(Math.max(board.row.created_at, userOf(userId).row.created_at), Math.max(board.row.created_at, userOf(userId).row.created_at) + DAY),
    });
  }

  const U = FIXTURES.users;
  const B = FIXTURES.boards;
  const secretBoard = addBoard({ id: B.secret, owner: U.demo, name: SECRET_BOARD_NAME, topic: "diy", privacy: "secret", description: "Shh! Decorations, cake and the guest list. Party is on the 24th.", sections: ["Decorations", "Cake"] });
  const weeknight = addBoard({ id: B.weeknight, owner: U.demo, name: "Weeknight dinners", topic: "food", privacy: "public", description: "Dinners that are on the table in under 40 minutes.", sections: ["Pasta", "Soups", "Sheet pan dinners"] });
  const collaborative = addBoard({ id: B.collaborative, owner: U.demo, name: "Family recipes we share", topic: "food", privacy: "public", description: "A shared board for the family cookbook." });
  const protectedBoard = addBoard({ id: B.protected, owner: U.demo, name: "Holiday gift list", topic: "style", privacy: "protected", description: "Gift ideas for everyone on the list." });
  const friendSecret = addBoard({ id: B.friendSecret, owner: U.friend, name: "Secret reno plans", topic: "home", privacy: "secret", description: "Kitchen ideas before we tell the landlord." });
  const merchantBoard = addBoard({ id: B.merchant, owner: U.merchant, name: "Autumn collection", topic: "style", privacy: "public", description: "New arrivals from Marlow & Main for the cooler months." });
  const businessBoard = addBoard({ id: B.business, owner: U.business, name: "Spring bakes", topic: "food", privacy: "public", description: "Light, bright bakes from the Bake & Bloom kitchen." });
  const teenBoard = addBoard({ id: B.teen, owner: U.teen, name: "Sketchbook ideas", topic: "diy", privacy: "public", description: "Things to draw and make." });
  const archivedBoard = addBoard({ id: B.archived, owner: U.demo, name: "Old apartment ideas", topic: "home", privacy: "public", description: "From the flat on Elm Street.", archived: true });
  const friendTravel = addBoard({ id: B.friendTravel, owner: U.friend, name: "Lisbon trip", topic: "travel", privacy: "public", description: "Tiles, trams and pastel de nata." });
  addBoard({ id: B.mfaHome, owner: U.mfa, name: "Home office setup", topic: "home", privacy: "public" });
  addBoard({ id: B.limitedHome, owner: U.limited, name: "Cozy reads corner", topic: "home", privacy: "public" });
  addCollaborator(secretBoard, U.friend, "accepted");
  addCollaborator(collaborative, U.friend, "accepted");
  addCollaborator(collaborative, U.mfa, "accepted");
  addCollaborator(collaborative, U.limited, "new");
  addCollaborator(collaborative, USER_ID_START + fixedUsers.length + 5, "new", "request");

  // Random boards: every other user gets one, the rest go to a weighted draw of owners.
  const boardTotal = Math.max(40, Math.round(pinTotal * 0.15));
  const owners: number[] = [];
  const extraForFixed: Array<readonly [number, number]> = [
    [U.demo, 2],
    [U.merchant, 2],
    [U.business, 2],
    [U.friend, 2],
    [U.mfa, 1],
  ];
  for (const [owner, count] of extraForFixed) for (let i = 0; i < count; i++) owners.push(owner);
  const randomUsers = users.filter((user) => user.row.id > U.friend);
  for (const user of randomUsers) owners.push(user.row.id);
  const ownerWeights = new WeightedTable(randomUsers.map((user) => [user.row.id, user.popular] as const));
  while (owners.length + boards.length < boardTotal) owners.push(rng.draw(ownerWeights));
  owners.length = Math.max(0, Math.min(owners.length, boardTotal - boards.length));
  let nextBoardId = BOARD_ID_START + boards.length;
  for (const ownerId of owners) {
    const owner = userOf(ownerId);
    const topic = rng.chance(0.85) ? rng.pick(owner.topics) : rng.weighted(TOPIC_WEIGHTS);
    const protectedAllowed = owner.row.is_under_16 === 0;
    const privacy: BoardPrivacy = rng.chance(0.1) ? "secret" : protectedAllowed && rng.chance(0.04) ? "protected" : "public";
    const sections = rng.chance(0.25) ? rng.sample(SECTION_TITLES[topic], rng.int(2, 4)) : [];
    const board = addBoard({ id: nextBoardId++, owner: ownerId, name: boardName(topic), topic, privacy, sections });
    if (rng.chance(0.12)) {
      const candidates = rng.sample(allUserIds, 4).filter((id) => id !== ownerId && id !== U.teen);
      for (const userId of candidates.slice(0, rng.int(1, 3))) {
        const accepted = rng.chance(0.75);
        addCollaborator(board, userId, accepted ? "accepted" : "new", !accepted && rng.chance(0.4) ? "request" : "invite");
      }
    }
  }
  const boardOf = (id: number): BoardMeta => must(boardById.get(id), `board ${id}`);

  // Boards by topic with draw weights (archived boards take no new random pins).
  const boardsByTopic = new Map<Topic, BoardMeta[]>();
  for (const topic of TOPICS) boardsByTopic.set(topic, boards.filter((board) => board.topic === topic && board.row.archived_at === null));
  const emptyByTopic = new Map<Topic, BoardMeta[]>();
  for (const topic of TOPICS) emptyByTopic.set(topic, rng.shuffle(must(boardsByTopic.get(topic), "topic boards")));
  const boardWeight = (board: BoardMeta): number => (board.row.privacy === "public" ? 1 : board.row.privacy === "secret" ? 0.6 : 0.5) * (board.row.owner_id <= U.friend ? 1.3 : 1);
  const activeBoards = boards.filter((board) => board.row.archived_at === null);
  const boardTables = new Map<Topic, WeightedTable<BoardMeta>>();
  for (const topic of TOPICS) {
    const candidates = boardsByTopic.get(topic) ?? [];
    if (candidates.length > 0) boardTables.set(topic, new WeightedTable(candidates.map((board) => [board, boardWeight(board)] as const)));
  }
  const merchantBoards = activeBoards.filter((b) => b.row.owner_id === U.merchant && b.row.privacy === "public" && (b.topic === "style" || b.topic === "home"));
  const businessBoards = activeBoards.filter((b) => b.row.owner_id === U.business && b.row.privacy === "public" && b.topic === "food");

  function chooseBoard(topic: Topic): BoardMeta {
    const table = boardTables.get(topic);
    if (!table) return rng.pick(activeBoards);
    const empty = emptyByTopic.get(topic) ?? [];
    while (empty.length > 0 && at(empty, empty.length - 1).pins.size > 0) empty.pop();
    if (empty.length > 0 && rng.chance(0.7)) return must(empty.pop(), "empty board");
    return rng.draw(table);
  }

  // ----- text ------------------------------------------------------------------------------
  function detailsFor(topic: Topic): readonly string[] {
    return topic === "food" ? FOOD_TIPS : topic === "home" ? HOME_DETAILS : topic === "travel" ? TRAVEL_DETAILS : topic === "style" ? STYLE_DETAILS : DIY_DETAILS;
  }

  function titleFor(topic: Topic): { title: string; keyword: string } {
    switch (topic) {
      case "food": {
        const dish = faker.food.dish();
        return { title: rng.pick(FOOD_TITLES)(dish, rng), keyword: dish.toLowerCase() };
      }
      case "home": {
        const [title, keyword] = rng.pick(HOME_TITLES)(rng);
        return { title, keyword };
      }
      case "travel": {
        const place = rng.pick(DESTINATIONS);
        return { title: capitalize(rng.pick(TRAVEL_TITLES)(place, rng)), keyword: place };
      }
      case "style": {
        const garment = rng.pick(GARMENTS);
        return { title: rng.pick(STYLE_TITLES)(garment, rng), keyword: garment };
      }
      case "diy": {
        const project = rng.pick(DIY_PROJECTS);
        return { title: rng.pick(DIY_TITLES)(project, rng), keyword: project };
      }
    }
  }

  type Segment = { text: string; bold?: boolean; href?: string };

  /** A pin's description; `lead` (a photo caption's description) stands in for the generated opening. */
  function describe(topic: Topic, keyword: string, brand: Brand | null, link: string | null, lead: string | null = null): { text: string; html: string } {
    const segments: Segment[] = [];
    if (lead !== null) {
      segments.push({ text: lead });
      return describeSegments(segments, brand, link);
    }
    const opener =
      topic === "food"
        ? rng.pick(FOOD_OPENERS)
        : rng.pick(topic === "home" ? ["Loving this", "So much inspiration in this", "A fresh look at"] : topic === "travel" ? ["Planning a trip to", "Notes from", "Dreaming of"] : topic === "style" ? ["Styling the", "All about the", "Why I keep reaching for the"] : ["Making a", "Weekend project:", "How I made a"]);
    segments.push({ text: `${opener} ` }, { text: keyword, bold: true }, { text: ". " });
    if (topic === "food") {
      const finish = rng.pick(["fresh herbs", "a squeeze of lemon", "toasted seeds", "a drizzle of olive oil", "flaky salt", "a spoon of yogurt"]);
      segments.push({ text: `Made with ${faker.food.ingredient()} and ${faker.food.ingredient()}, finished with ${finish}. ` });
    }
    segments.push({ text: `${rng.pick(detailsFor(topic))}` });
    return describeSegments(segments, brand, link);
  }

  function describeSegments(segments: Segment[], brand: Brand | null, link: string | null): { text: string; html: string } {
    if (brand && link && link.startsWith("https://") && rng.chance(0.7)) {
      segments.push({ text: ` ${rng.pick(CTAS)} ` }, { text: brand.domain, href: link }, { text: "." });
    }
    if (vocab) segments.push({ text: ` ${vocab.sentence()}` });
    const cleaned = segments.filter((segment) => segment.text !== "");
    let text = "";
    let html = "";
    for (const segment of cleaned) {
      text += segment.text;
      const escaped = escapeHtml(segment.text);
      html += segment.href ? `<a href="${escapeHtml(segment.href)}" rel="nofollow">${escaped}</a>` : segment.bold ? `<b>${escaped}</b>` : escaped;
    }
    if (text.length > 500) {
      const short = truncate(text, 500);
      return { text: short, html: `<p>${escapeHtml(short)}</p>` };
    }
    return { text, html: `<p>${html}</p>` };
  }

  function altFor(topic: Topic, keyword: string): string {
    switch (topic) {
      case "food":
        return `${capitalize(rng.pick(["A bowl of", "A plate of", "A tray of", "Close-up of"]))} ${keyword} on a ${rng.pick(["linen napkin", "wooden table", "marble counter", "blue plate"])}`;
      case "home":
        return `A ${keyword} with ${rng.pick(HOME_ITEMS)} and soft daylight`;
      case "travel":
        return `${rng.pick(["A street in", "The coastline of", "Rooftops of", "A quiet square in"])} ${keyword} at ${rng.pick(["golden hour", "sunrise", "dusk"])}`;
      case "style":
        return `A person wearing a ${faker.color.human()} ${keyword}`;
      case "diy":
        return `A handmade ${keyword} on a workbench`;
    }
  }

  function slotTitle(topic: Topic): string {
    switch (topic) {
      case "food":
        return faker.food.dish();
      case "home":
        return capitalize(rng.pick(HOME_ITEMS).replace(/^an? /, ""));
      case "travel":
        return `${capitalize(rng.pick(TRAVEL_SPOTS).replace(/^an? |^the /, ""))} in ${rng.pick(DESTINATIONS)}`;
      case "style":
        return `${capitalize(faker.color.human())} ${rng.pick(GARMENTS)}`;
      case "diy":
        return capitalize(rng.pick(DIY_PROJECTS));
    }
  }

  // ----- pins ------------------------------------------------------------------------------
  const pins: PinMeta[] = [];
  const pinById = new Map<number, PinMeta>();
  const pinOf = (id: number): PinMeta => must(pinById.get(id), `pin ${id}`);
  let videoCount = 0;

  function pinImageRows(pinId: number, width: number, height: number, dominant: string, urlFor: (size: PinImageSize) => string): PinImageRow[] {
    return PIN_IMAGE_SIZES.map((size) => ({ pin_id: pinId, size, url: urlFor(size), dominant_color: dominant, ...sizeDims(size, width, height) }));
  }

  function imageRef(url: string, width: number, height: number): { url: string; width: number; height: number } {
    return { url, width, height };
  }

  function linkFor(pinId: number, brand: Brand, keyword: string, topic: Topic): string {
    const section = topic === "food" ? "recipes" : topic === "travel" ? "guides" : brand.shop ? "shop" : "blog";
    return `https://${brand.domain}/${section}/${slugify(keyword) || "idea"}-${pinId % 10000}`;
  }

  function createPin(spec: PinSpec): PinMeta {
    const board = spec.board;
    const photo = spec.photo ?? null;
    const caption: PhotoCaption | null = photo ? rng.pick(photo.captions) : null;
    // A photo pin is about its photo (its board was chosen for the photo's topic).
    const topic = photo ? photo.topic : board.topic;
    const id = spec.id;
    const pinnerId = spec.pinner ?? (board.accepted.length > 0 && rng.chance(0.25) ? rng.pick(board.accepted) : board.row.owner_id);
    const pinner = userOf(pinnerId);
    const publicFirst = board.row.privacy === "public";
    const kind = spec.kind;
    const generated = caption ?? titleFor(kind === "recipe" ? "food" : topic);
    const keyword = spec.keyword ?? generated.keyword;
    const title = truncate(spec.title ?? generated.title, 100);
    const createdAt = rng.time(Math.max(board.row.created_at + 2 * DAY, pinner.row.created_at + DAY), BASE_EPOCH - HOUR);

    // Link and domain
    const shopNeeded = kind === "product";
    const brandChoices = brandsByTopic(topic, shopNeeded ? true : null);
    let brand: Brand | null = spec.pinner === U.merchant || pinnerId === U.merchant ? must(BRANDS.find((b) => b.domain === "marlowandmain.example"), "brand") : pinnerId === U.business ? must(BRANDS.find((b) => b.domain === "bakeandbloom.example"), "brand") : brandChoices.length > 0 ? rng.pick(brandChoices) : null;
    let linkMode = spec.linkMode ?? "auto";
    if (linkMode === "auto") {
      linkMode = kind === "product" || kind === "article" || kind === "recipe" ? rng.weighted([["linkOnly", 45], ["full", 35], ["mobileOnly", 5], ["blocked", publicFirst ? 1 : 0]] as const) : rng.weighted([["none", 14], ["linkOnly", 48], ["full", 30], ["mobileOnly", 6], ["blocked", publicFirst ? 1 : 0]] as const);
    }
    let link: string | null = null;
    let mobileLink: string | null = null;
    let trackedLink: string | null = null;
    let trackingParams: string | null = null;
    let domain: string | null = null;
    if (linkMode === "blocked") brand = must(BRANDS.find((b) => b.blocked), "blocked brand");
    if (linkMode === "javascript") {
      link = "javascript:alert(document.cookie)";
    } else if (linkMode !== "none" && brand) {
      const url = linkFor(id, brand, keyword, topic);
      domain = brand.domain;
      if (linkMode === "mobileOnly") {
        mobileLink = `${url}?view=mobile`;
      } else {
        link = url;
        if (linkMode === "full") {
          trackingParams = `utm_source=pinloom&utm_medium=social&utm_campaign=pin_${id}`;
          trackedLink = `${url}?${trackingParams}`;
          if (rng.chance(0.6)) mobileLink = `${url}?view=mobile`;
        }
      }
    } else {
      brand = null;
    }
    const text = describe(kind === "recipe" ? "food" : topic, keyword, brand && !brand.blocked ? brand : null, link ?? mobileLink, caption?.description ?? null);

    // Pictures
    const dims = kind === "story" ? STORY_DIMS : kind === "carousel" ? (() => { const side = rng.pick([[1, 1], [4, 5], [2, 3]] as const); return { width: 736, height: Math.round((736 * side[1]) / side[0]) }; })() : photo ? photoAspect() : pinAspect();
    let clip: ClipSpec | null = null;
    if (kind === "video") {
      clip = at(media.clips, spec.clip ?? videoCount % CLIP_COUNT);
      videoCount++;
    }
    const usePool = pooled && kind !== "video";
    let origW = dims.width;
    let origH = dims.height;
    let imageSpec: ImageSpec;
    let poolIndex = -1;
    if (clip) {
      const box = clip.width < clip.height ? VIDEO_PORTRAIT : VIDEO_LANDSCAPE;
      origW = box.posterW;
      origH = box.posterH;
      imageSpec = { ...clip.spec, width: origW, height: origH };
    } else if (usePool) {
      poolIndex = kind === "story" ? rng.int(0, STORY_POOL_SIZE - 1) : rng.int(STORY_POOL_SIZE, POOL_SIZE - 1);
      imageSpec = at(pool, poolIndex).spec;
      origW = imageSpec.width;
      origH = imageSpec.height;
    } else if (photo) {
      imageSpec = photoSpec(photo, origW, origH);
    } else {
      imageSpec = picture(kind === "recipe" ? "food" : topic, origW, origH, title);
    }
    // Carousel slots and story pages after the first show other photos of the same topic.
    const sameTopic = photo ? PHOTOS.filter((candidate) => candidate.topic === photo.topic) : [];
    const dominant = must(imageSpec.palette[0], "palette");
    const pinUrl = (size: PinImageSize): string => mediaUrl(usePool ? poolImageKey(poolIndex, size) : mediaKeys.pinImage(id, size));
    tables.pin_images.push(...pinImageRows(id, origW, origH, dominant, pinUrl));
    const pinJob: ImageJob | null = usePool
      ? null
      : { spec: imageSpec, shareKey: null, outputs: PIN_IMAGE_SIZES.map((size) => ({ key: mediaKeys.pinImage(id, size), ...sizeDims(size, origW, origH) })) };
    if (pinJob) media.images.push(pinJob);

    // Kind-specific JSON
    let richMetadata: string | null = null;
    let storyPinData: string | null = null;
    let carouselData: string | null = null;
    let priceValue: number | null = null;
    let isOos = 0;
    let isStale = 0;
    if (kind === "recipe") {
      const categories = rng.chance(0.6) ? ["Ingredients"] : rng.sample(["For the base", "For the sauce", "For the topping", "To serve"], rng.int(2, 3));
      const prep = rng.pick([5, 10, 15, 20, 25, 30, 45]);
      const cook = rng.pick([0, 10, 15, 20, 25, 30, 40, 45, 60, 90]);
      const recipe = {
        name: capitalize(keyword),
        ingredients: categories.map((category) => ({
          category,
          items: Array.from({ length: rng.int(2, 6) }, () => ({ amount: rng.pick(RECIPE_AMOUNTS), name: faker.food.ingredient() })),
        })),
        cookTimeMinutes: cook,
        prepTimeMinutes: prep,
        totalTimeMinutes: cook + prep,
        servingsSummary: `Serves ${rng.int(2, 8)}`,
        diets: rng.chance(0.5) ? rng.sample(DIETS, rng.int(1, 2)) : [],
      };
      const reviewCount = rng.int(3, 480);
      richMetadata = JSON.stringify(
        rng.chance(0.85)
          ? { recipe, aggregateRating: { ratingValue: rng.int(35, 50) / 10, bestRating: 5, reviewCount, ratingCount: reviewCount + rng.int(0, 300) } }
          : { recipe },
      );
    } else if (kind === "article") {
      richMetadata = JSON.stringify({
        article: { datePublished: new Date(rng.time(createdAt - 120 * DAY, createdAt - DAY)).toISOString(), author: faker.person.fullName(), name: title },
      });
    } else if (kind === "product") {
      const cents = rng.pick([0, 0.5, 0.95, 0.99]);
      const price = Number((rng.int(12, 240) + cents).toFixed(2));
      const onSale = rng.chance(0.3);
      const standardPrice = onSale ? Number((price * (1 + rng.int(10, 40) / 100)).toFixed(2)) : price;
      const inStock = spec.outOfStock === true ? false : spec.outOfStock === false ? true : !rng.chance(0.15);
      isOos = inStock ? 0 : 1;
      isStale = rng.chance(0.03) ? 1 : 0;
      priceValue = price;
      richMetadata = JSON.stringify({
        products: [
          {
            id: `sku-${id}`,
            name: vocab ? vocab.productName(keyword) : title,
            brand: vocab && pinnerId !== U.merchant ? vocab.brand() : (brand?.name ?? "Marlow & Main"),
            offerSummary: {
              price,
              minPrice: price,
              maxPrice: rng.chance(0.3) ? Number((price + rng.int(5, 40)).toFixed(2)) : price,
              standardPrice,
              currency: "USD",
              inStock,
            },
            shippingInfo: { freeShippingPrice: rng.pick([50, 75, 100]), freeShippingValue: 0 },
          },
        ],
      });
    } else if (kind === "carousel") {
      const slotCount = rng.int(2, 5);
      const slots = [];
      for (let slot = 0; slot < slotCount; slot++) {
        const slotPhoto = photo ? (slot === 0 ? photo : rng.pick(sameTopic)) : null;
        const slotCaption = slotPhoto ? (slot === 0 && caption ? caption : rng.pick(slotPhoto.captions)) : null;
        const slotSpec = slot === 0 || usePool ? imageSpec : slotPhoto ? photoSpec(slotPhoto, origW, origH) : picture(topic, origW, origH, null);
        const slotPool = usePool ? (slot === 0 ? poolIndex : rng.int(STORY_POOL_SIZE, POOL_SIZE - 1)) : -1;
        const slotDims = usePool ? at(pool, slotPool).spec : { width: origW, height: origH };
        const images: Record<string, { url: string; width: number; height: number }> = {};
        const outputs: ImageOutput[] = [];
        for (const size of SLOT_IMAGE_SIZES) {
          const sizeWH = sizeDims(size, slotDims.width, slotDims.height);
          const key = usePool ? poolImageKey(slotPool, size) : mediaKeys.slotImage(id, slot, size);
          images[size] = imageRef(mediaUrl(key), sizeWH.width, sizeWH.height);
          outputs.push({ key, ...sizeWH });
        }
        if (!usePool) {
          if (slot === 0 && pinJob) pinJob.outputs.push(...outputs);
          else media.images.push({ spec: slotSpec, shareKey: null, outputs });
        }
        slots.push({
          title: slotCaption ? slotCaption.title : slotTitle(topic),
          details: slotCaption ? slotCaption.description : rng.pick(detailsFor(topic)),
          link: brand ? `${linkFor(id, brand, keyword, topic)}#item-${slot + 1}` : null,
          dominantColor: usePool ? must(at(pool, slotPool).spec.palette[0], "palette") : must(slotSpec.palette[0], "palette"),
          images,
        });
      }
      carouselData = JSON.stringify({ slots });
    } else if (kind === "story") {
      const pageCount = rng.int(3, 6);
      const pages = [];
      const foodStory = topic === "food";
      const diyStory = topic === "diy";
      for (let page = 0; page < pageCount; page++) {
        const pagePhoto = photo ? (page === 0 ? photo : rng.pick(sameTopic)) : null;
        const pageCaption = pagePhoto ? (page === 0 && caption ? caption : rng.pick(pagePhoto.captions)) : null;
        const pageSpec = page === 0 || usePool ? imageSpec : pagePhoto ? photoSpec(pagePhoto, STORY_DIMS.width, STORY_DIMS.height) : picture(topic, STORY_DIMS.width, STORY_DIMS.height, null);
        const pagePool = usePool ? (page === 0 ? poolIndex : rng.int(0, STORY_POOL_SIZE - 1)) : -1;
        const images: Record<string, { url: string; width: number; height: number }> = {};
        const outputs: ImageOutput[] = [];
        for (const size of SLOT_IMAGE_SIZES) {
          const sizeWH = sizeDims(size, STORY_DIMS.width, STORY_DIMS.height);
          const key = usePool ? poolImageKey(pagePool, size) : mediaKeys.storyImage(id, page, size);
          images[size] = imageRef(mediaUrl(key), sizeWH.width, sizeWH.height);
          outputs.push({ key, ...sizeWH });
        }
        if (!usePool) {
          if (page === 0 && pinJob) pinJob.outputs.push(...outputs);
          else media.images.push({ spec: pageSpec, shareKey: null, outputs });
        }
        const blocks: Array<Record<string, string>> = [];
        if (page === 0) {
          blocks.push({ type: "heading", text: title }, { type: "paragraph", text: pageCaption ? pageCaption.description : rng.pick(detailsFor(topic)) });
        } else if (page === pageCount - 1) {
          blocks.push({ type: "heading", text: rng.pick(["Enjoy!", "That's it!", "Finished!", "Your turn"]) }, { type: "paragraph", text: rng.pick(detailsFor(topic)) });
          if (link) blocks.push({ type: "link", text: rng.pick(["Read the full guide", "Get the recipe", "See more"]), url: link });
        } else if (foodStory && page === 1) {
          blocks.push({ type: "heading", text: "Ingredients" });
          for (let i = 0; i < rng.int(3, 6); i++) blocks.push({ type: "ingredient", text: faker.food.ingredient(), amount: rng.pick(RECIPE_AMOUNTS) });
        } else if (diyStory && page === 1) {
          blocks.push({ type: "heading", text: "Supplies" });
          for (const supply of rng.sample(SUPPLIES, rng.int(3, 5))) blocks.push({ type: "supply", text: supply, quantity: String(rng.int(1, 3)) });
        } else if (pageCaption) {
          blocks.push({ type: "heading", text: pageCaption.title }, { type: "paragraph", text: pageCaption.description });
        } else {
          blocks.push({ type: "heading", text: `Step ${page}` }, { type: "paragraph", text: rng.pick(detailsFor(topic)) });
        }
        pages.push({
          id: `${id}-page-${page + 1}`,
          backgroundColor: usePool ? must(at(pool, pagePool).spec.palette[3], "palette") : pagePhoto ? pagePhoto.dominant : must(pageSpec.palette[3], "palette"),
          image: must(images["736x"], "736x"),
          images,
          blocks,
        });
      }
      storyPinData = JSON.stringify({
        pinTitle: title,
        pages,
        metadata: {
          templateType: foodStory ? "recipe" : diyStory ? "diy" : "guide",
          topic,
          difficulty: rng.pick(["easy", "medium", "advanced"]),
          timeMinutes: rng.pick([10, 20, 30, 45, 60, 90]),
          version: "1",
        },
        totalVideoDuration: 0,
        staticPageCount: pageCount,
        hasProductPins: false,
        isDeleted: false,
        musicAttributions: [],
      });
    }

    if (clip) {
      const thumbnail = mediaUrl(mediaKeys.pinImage(id, "orig"));
      const captions: Record<string, string> = {};
      for (const locale of CAPTION_LOCALES) {
        const key = mediaKeys.captions(id, locale);
        captions[locale] = mediaUrl(key);
        media.texts.push({ key, contentType: must(MEDIA_TYPES["vtt"], "vtt type"), body: captionsFor(locale, topic, title, caption?.description ?? null, clip.durationMs) });
      }
      const mp4Key = mediaKeys.video(id, "mp4");
      const webmKey = mediaKeys.video(id, "webm");
      media.videos.push({ pinId: id, clip: clip.index, mp4Key, webmKey });
      for (const [format, key, mime] of [["V_720P", mp4Key, "video/mp4"], ["V_WEBM", webmKey, "video/webm"]] as const) {
        tables.pin_video_formats.push({
          pin_id: id,
          format,
          url: mediaUrl(key),
          mime_type: mime,
          width: clip.width,
          height: clip.height,
          duration_ms: clip.durationMs,
          thumbnail,
          captions_urls: JSON.stringify(captions),
        });
      }
    }

    // Flags
    const flags = spec.flags ?? {};
    const randomFlags = spec.flags === undefined && publicFirst;
    const isUnsafe = flags.is_unsafe ?? (randomFlags && rng.chance(0.005) ? 1 : 0);
    const isHidden = flags.is_hidden ?? (randomFlags && rng.chance(0.005) ? 1 : 0);
    const isDeleted = flags.is_deleted ?? (randomFlags && rng.chance(0.005) ? 1 : 0);
    const commentsDisabled = flags.comments_disabled ?? (randomFlags && rng.chance(0.02) ? 1 : 0);
    const promoted = spec.promoted ?? (randomFlags && isUnsafe + isHidden + isDeleted === 0 && rng.chance(0.02));
    let promoterId: number | null = null;
    let sponsorship: string | null = null;
    if (promoted) {
      promoterId = pinner.row.account_type === "business" ? pinnerId : rng.pick([U.merchant, U.business, U.creatorNest, U.creatorMeadow]);
      // Status 1 is approved (src/social/sponsorship.ts). The chance is drawn whatever the
      // fixture says, so a fixture sponsor leaves every later draw as it was.
      const drawn = promoterId !== pinnerId || rng.chance(0.3);
      if (spec.sponsor !== undefined) sponsorship = JSON.stringify({ creatorId: String(pinnerId), sponsorId: String(spec.sponsor), status: 0 });
      else if (drawn) sponsorship = JSON.stringify({ creatorId: String(pinnerId), sponsorId: String(promoterId), status: 1 });
    }
    const attributed = spec.attributed ?? (publicFirst && rng.chance(0.07));
    let mediaAttribution: string | null = null;
    let closeupAttribution: number | null = null;
    if (attributed) {
      const provider = rng.pick(PHOTO_PROVIDERS);
      const author = faker.person.fullName();
      const handle = slugify(author);
      mediaAttribution = JSON.stringify({
        author,
        authorUrl: `https://${provider.domain}/@${handle}`,
        ccUrl: "https://creativecommons.org/licenses/by/4.0/",
        link: `https://${provider.domain}/photos/${rng.hex(10)}`,
        mediaType: "image",
        providerName: provider.name,
      });
      const others = rng.sample(allUserIds, 3).filter((userId) => userId !== pinnerId);
      closeupAttribution = others[0] ?? null;
    } else if (publicFirst && rng.chance(0.03)) {
      const others = rng.sample(allUserIds, 3).filter((userId) => userId !== pinnerId);
      closeupAttribution = others[0] ?? null;
    }
    // A licensed photo always names its photographer and licence.
    if (photo) mediaAttribution = JSON.stringify(photoAttribution(photo));

    const section = spec.section !== undefined ? spec.section : board.sections.length > 0 && rng.chance(0.7) ? rng.pick(board.sections).id : null;
    if (section !== null && !board.sections.some((candidate) => candidate.id === section)) throw new Error(`section ${section} is not on board ${board.row.id}`);
    const altText = rng.chance(0.6) ? (caption ? caption.alt : altFor(kind === "recipe" ? "food" : topic, keyword)) : null;
    const hasSeo = spec.flags !== undefined || rng.chance(0.9);
    const row: PinRow = {
      id,
      pinner_id: pinnerId,
      native_creator_id: rng.chance(0.7) ? pinnerId : brand ? (officialByDomain[brand.domain] ?? null) : null,
      origin_pinner_id: pinnerId,
      promoter_id: promoterId,
      board_id: board.row.id,
      section_id: section,
      kind,
      title,
      grid_title: rng.chance(0.85) ? title : "",
      description: text.text,
      description_html: text.html,
      alt_text: altText,
      auto_alt_text: rng.chance(0.9) ? `This may contain: ${(caption ? caption.alt : altFor(kind === "recipe" ? "food" : topic, keyword)).toLowerCase()}` : null,
      dominant_color: dominant,
      category: TOPIC_CATEGORY[kind === "recipe" ? "food" : topic],
      domain,
      link,
      mobile_link: mobileLink,
      tracked_link: trackedLink,
      tracking_params: trackingParams,
      image_signature: rng.hex(32),
      price_currency: kind === "product" ? "USD" : null,
      price_value: priceValue,
      seo_title: hasSeo ? truncate(`${title} | ${TOPIC_LABEL[kind === "recipe" ? "food" : topic]} ideas`, 100) : null,
      seo_description: hasSeo ? truncate(text.text, 160) : null,
      seo_url: `/pin/${id}/`,
      seo_noindex_reason: isUnsafe ? "unsafe" : null,
      comments_disabled: commentsDisabled,
      is_unsafe: isUnsafe,
      is_hidden: isHidden,
      is_promoted: promoted ? 1 : 0,
      is_downstream_promotion: promoted && promoterId !== pinnerId ? 1 : 0,
      promoted_is_removable: promoted && rng.chance(0.5) ? 1 : 0,
      is_eligible_for_pdp: kind === "product" ? 1 : 0,
      is_oos_product: isOos,
      is_stale_product: isStale,
      is_deleted: isDeleted,
      closeup_attribution_user_id: closeupAttribution,
      media_attribution: mediaAttribution,
      rich_metadata: richMetadata,
      story_pin_data: storyPinData,
      carousel_data: carouselData,
      sponsorship,
      save_count: 0,
      share_count: publicFirst ? rng.int(0, rng.chance(0.1) ? 400 : 30) : 0,
      comment_count: 0,
      did_it_images_count: 0,
      created_at: createdAt,
      updated_at: rng.chance(0.2) ? rng.time(createdAt, BASE_EPOCH) : createdAt,
    };
    const meta: PinMeta = { row, topic: kind === "recipe" ? "food" : topic, publicFirst, keyword };
    pins.push(meta);
    pinById.set(id, meta);
    tables.pins.push(row);
    saveToBoard(meta, board, section, pinnerId, createdAt);
    return meta;
  }

  function captionsFor(locale: string, topic: Topic, title: string, detail: string | null, durationMs: number): string {
    const lines = locale === "fr" ? FRENCH_CAPTIONS[topic] : [title, detail ?? rng.pick(detailsFor(topic)), "Save it for later!"];
    const cue = (ms: number): string => {
      const total = Math.round(ms);
      const s = Math.floor(total / 1000);
      return `00:00:${String(s).padStart(2, "0")}.${String(total % 1000).padStart(3, "0")}`;
    };
    const step = durationMs / lines.length;
    const body = lines.map((line, index) => `${index + 1}\n${cue(index * step)} --> ${cue((index + 1) * step)}\n${line}`).join("\n\n");
    return `WEBVTT\n\n${body}\n`;
  }

  function saveToBoard(pin: PinMeta, board: BoardMeta, section: number | null, savedBy: number, createdAt: number): void {
    board.pins.add(pin.row.id);
    tables.board_pins.push({ board_id: board.row.id, pin_id: pin.row.id, section_id: section, saved_by: savedBy, position: 0, created_at: createdAt });
  }

  // Showcase pins: fixed ids, documented in docs/demo-accounts.md.
  const P = FIXTURES.pins;
  const S = FIXTURES.sections;
  const showcase: PinSpec[] = [
    { id: P.image, kind: "image", board: weeknight, pinner: U.demo, section: S.weeknightPasta, title: "Creamy tomato orzo with burrata", keyword: "tomato orzo", linkMode: "full", flags: {} },
    { id: P.video, kind: "video", board: businessBoard, pinner: U.business, section: null, title: "Cinnamon knots, step by step", keyword: "cinnamon knots", linkMode: "full", flags: {}, clip: 0 },
    { id: P.carousel, kind: "carousel", board: merchantBoard, pinner: U.merchant, section: null, title: "Five autumn layers from Marlow & Main", keyword: "autumn layers", linkMode: "full", flags: {} },
    { id: P.story, kind: "story", board: collaborative, pinner: U.demo, section: null, title: "Grandma's apple cake in five steps", keyword: "apple cake", linkMode: "linkOnly", flags: {} },
    { id: P.recipe, kind: "recipe", board: businessBoard, pinner: U.business, section: null, title: "Brown butter banana bread", keyword: "brown butter banana bread", linkMode: "full", flags: {} },
    { id: P.article, kind: "article", board: friendTravel, pinner: U.friend, section: null, title: "A slow weekend in Lisbon: where to eat and walk", keyword: "Lisbon", linkMode: "linkOnly", flags: {} },
    { id: P.product, kind: "product", board: merchantBoard, pinner: U.merchant, section: null, title: "Marlow & Main wool-blend overshirt", keyword: "wool-blend overshirt", linkMode: "full", flags: {}, outOfStock: false },
    { id: P.productOutOfStock, kind: "product", board: merchantBoard, pinner: U.merchant, section: null, title: "Marlow & Main ribbed knit beanie", keyword: "ribbed knit beanie", linkMode: "linkOnly", flags: {}, outOfStock: true },
    { id: P.deleted, kind: "image", board: weeknight, pinner: U.demo, section: S.weeknightSoups, title: "One-pot weeknight chili", keyword: "weeknight chili", linkMode: "linkOnly", flags: { is_deleted: 1 } },
    { id: P.hidden, kind: "image", board: friendTravel, pinner: U.friend, section: null, title: "Tram 28 at sunrise", keyword: "Lisbon", linkMode: "none", flags: { is_hidden: 1 } },
    { id: P.unsafe, kind: "image", board: friendTravel, pinner: U.friend, section: null, title: "Cliff jumping near Cascais", keyword: "Cascais", linkMode: "none", flags: { is_unsafe: 1 } },
    { id: P.promoted, kind: "image", board: businessBoard, pinner: U.business, section: null, title: "Lemon drizzle loaf for spring", keyword: "lemon drizzle loaf", linkMode: "full", flags: {}, promoted: true, sponsor: U.merchant },
    { id: P.secret, kind: "image", board: secretBoard, pinner: U.demo, section: S.secretDecorations, title: `${SECRET_BOARD_NAME}: balloon garland ideas`, keyword: "balloon garland", linkMode: "none", flags: {} },
    { id: P.secretByCollaborator, kind: "image", board: secretBoard, pinner: U.friend, section: S.secretCake, title: `${SECRET_BOARD_NAME}: the cake`, keyword: "birthday cake", linkMode: "none", flags: {} },
    { id: P.protected, kind: "product", board: protectedBoard, pinner: U.demo, section: null, title: "Cashmere scarf for Dad", keyword: "cashmere scarf", linkMode: "linkOnly", flags: {} },
    { id: P.friendSecret, kind: "image", board: friendSecret, pinner: U.friend, section: null, title: "Green kitchen cabinets we might paint", keyword: "green kitchen", linkMode: "none", flags: {} },
    { id: P.linkOnly, kind: "image", board: collaborative, pinner: U.demo, section: null, title: "Sunday roast potatoes", keyword: "roast potatoes", linkMode: "linkOnly", flags: {} },
    { id: P.blockedLink, kind: "image", board: friendTravel, pinner: U.friend, section: null, title: "Cheap flights to Lisbon (too good to be true)", keyword: "cheap flights", linkMode: "blocked", flags: {} },
    { id: P.javascriptLink, kind: "image", board: friendTravel, pinner: U.friend, section: null, title: "Pastel de nata at Belém", keyword: "pastel de nata", linkMode: "javascript", flags: {} },
    { id: P.mobileLinkOnly, kind: "image", board: weeknight, pinner: U.demo, section: S.weeknightSheetPan, title: "Sheet-pan harissa chicken", keyword: "harissa chicken", linkMode: "mobileOnly", flags: {} },
    { id: P.commentsDisabled, kind: "image", board: businessBoard, pinner: U.business, section: null, title: "Rhubarb and custard tart", keyword: "rhubarb tart", linkMode: "linkOnly", flags: { comments_disabled: 1 } },
    { id: P.attributed, kind: "image", board: collaborative, pinner: U.demo, section: null, title: "Fig and walnut loaf", keyword: "fig loaf", linkMode: "none", flags: {}, attributed: true },
    { id: P.teen, kind: "image", board: teenBoard, pinner: U.teen, section: null, title: "Paper lanterns for a rainy afternoon", keyword: "paper lanterns", linkMode: "none", flags: {} },
    { id: P.archivedBoard, kind: "image", board: archivedBoard, pinner: U.demo, section: null, title: "Tiny balcony with string lights", keyword: "balcony", linkMode: "none", flags: {} },
    { id: P.videoLandscape, kind: "video", board: merchantBoard, pinner: U.merchant, section: null, title: "Packing the autumn collection", keyword: "autumn collection", linkMode: "linkOnly", flags: {}, clip: 1 },
  ];
  for (const spec of showcase) createPin(spec);

  // Kind quotas for the rest, then shuffled.
  const quotas = new Map<PinKind, number>();
  let assigned = 0;
  for (const [kind, pct] of KIND_PCT) {
    const count = kind === "image" ? 0 : Math.max(1, Math.round((pinTotal * pct) / 100));
    quotas.set(kind, count);
    assigned += count;
  }
  quotas.set("image", pinTotal - assigned);
  if (pooled) {
    const videos = quotas.get("video") ?? 0;
    const kept = Math.min(videos, POOLED_VIDEO_LIMIT);
    quotas.set("video", kept);
    quotas.set("image", (quotas.get("image") ?? 0) + videos - kept);
  }
  for (const spec of showcase) quotas.set(spec.kind, (quotas.get(spec.kind) ?? 0) - 1);
  const kindPool: PinKind[] = [];
  let deficit = 0;
  for (const [kind] of KIND_PCT) {
    const count = quotas.get(kind) ?? 0;
    if (count < 0) deficit -= count;
    for (let i = 0; i < count; i++) kindPool.push(kind);
  }
  for (let i = 0; i < deficit; i++) {
    const index = kindPool.indexOf("image");
    if (index >= 0) kindPool.splice(index, 1);
  }
  const kinds = rng.shuffle(kindPool);
  const productTopics: ReadonlyArray<readonly [Topic, number]> = [["style", 5], ["home", 4], ["diy", 1]];
  let nextPinId = PIN_ID_START + showcase.length;
  let photoVideos = 0;
  for (const kind of kinds) {
    // The photo comes first and decides the pin's topic, so its title and board fit the picture.
    let photo: Photo | null = null;
    let clip: number | null = null;
    if (kind === "video") {
      clip = PHOTO_CLIP_START + (photoVideos++ % (CLIP_COUNT - PHOTO_CLIP_START));
      photo = photoByFile(must(at(media.clips, clip).spec.photo, "clip photo"));
    } else if (!pooled && PHOTO_KINDS.has(kind)) {
      photo = rng.pick(PHOTOS);
    }
    let board: BoardMeta;
    if (photo) {
      board = chooseBoard(photo.topic);
    } else if (kind === "product" && merchantBoards.length > 0 && rng.chance(0.3)) {
      board = rng.pick(merchantBoards);
    } else if (kind === "recipe" && businessBoards.length > 0 && rng.chance(0.2)) {
      board = rng.pick(businessBoards);
    } else {
      const topic = kind === "recipe" ? "food" : kind === "product" ? rng.weighted(productTopics) : rng.weighted(TOPIC_WEIGHTS);
      board = chooseBoard(topic);
    }
    createPin({ id: nextPinId++, kind, board, ...(photo ? { photo } : {}), ...(clip !== null ? { clip } : {}) });
  }

  // ----- re-saves: public pins land on more boards (never on secret ones: a secret board only
  // holds pins that appear on no public board) ---------------------------------------------------
  const saveTargets = activeBoards.filter((board) => board.row.privacy !== "secret");
  const saveTargetsByTopic = new Map<Topic, BoardMeta[]>();
  for (const topic of TOPICS) saveTargetsByTopic.set(topic, saveTargets.filter((board) => board.topic === topic));
  for (const pin of pins) {
    if (!pin.publicFirst || pin.row.is_deleted) continue;
    if (pin.row.id === P.secret || pin.row.id === P.secretByCollaborator) continue;
    const saves = rng.weighted([[0, 35], [1, 25], [2, 18], [3, 12], [4, 7], [6, 3]] as const);
    for (let i = 0; i < saves; i++) {
      const sameTopic = saveTargetsByTopic.get(pin.topic) ?? [];
      const board = sameTopic.length > 0 && rng.chance(0.6) ? rng.pick(sameTopic) : rng.pick(saveTargets);
      if (board.pins.has(pin.row.id)) continue;
      const savedBy = board.accepted.length > 0 && rng.chance(0.3) ? rng.pick(board.accepted) : board.row.owner_id;
      const section = board.sections.length > 0 && rng.chance(0.6) ? rng.pick(board.sections).id : null;
      const createdAt = rng.time(Math.max(pin.row.created_at + MINUTE, board.row.created_at + 2 * DAY, userOf(savedBy).row.created_at + DAY), BASE_EPOCH - MINUTE);
      saveToBoard(pin, board, section, savedBy, createdAt);
    }
  }

  // Positions: newest save first (smallest position), per board.
  const savesByBoard = new Map<number, BoardPinRow[]>();
  for (const save of tables.board_pins) {
    const list = savesByBoard.get(save.board_id) ?? [];
    list.push(save);
    savesByBoard.set(save.board_id, list);
  }
  for (const list of savesByBoard.values()) {
    list.sort((a, b) => b.created_at - a.created_at || a.pin_id - b.pin_id);
    list.forEach((save, index) => {
      save.position = index + 1;
    });
  }

  // ----- follows ------------------------------------------------------------------------------
  const popularWeights = new WeightedTable(users.map((user) => [user.row.id, user.popular] as const));
  const publicBoards = activeBoards.filter((board) => board.row.privacy === "public");
  for (const user of users) {
    const follower = user.row.id;
    const targets = new Set<number>();
    const wanted = follower === U.demo ? 12 : follower === U.friend ? 8 : rng.int(2, 14);
    if (follower === U.demo) for (const id of [U.merchant, U.business, U.friend]) targets.add(id);
    if (follower === U.friend) targets.add(U.demo);
    for (let tries = 0; targets.size < wanted && tries < wanted * 4; tries++) {
      const target = rng.chance(0.5) ? rng.draw(popularWeights) : rng.pick(allUserIds);
      if (target !== follower) targets.add(target);
    }
    for (const target of [...targets].sort((a, b) => a - b)) {
      const created = rng.time(Math.max(user.row.created_at, userOf(target).row.created_at), BASE_EPOCH - MINUTE);
      tables.follows.push({ follower_id: follower, target_type: "user", target_id: target, explicit: rng.chance(0.95) ? 1 : 0, created_at: created });
    }
    const boardTargets = new Set<number>();
    if (follower === U.demo) boardTargets.add(B.merchant);
    if (follower === U.friend) boardTargets.add(B.weeknight);
    const boardWanted = rng.int(0, 4);
    for (let tries = 0; boardTargets.size < boardWanted && tries < 12; tries++) {
      const board = rng.pick(publicBoards);
      if (board.row.owner_id !== follower) boardTargets.add(board.row.id);
    }
    for (const target of [...boardTargets].sort((a, b) => a - b)) {
      const board = boardOf(target);
      tables.follows.push({
        follower_id: follower,
        target_type: "board",
        target_id: target,
        explicit: 1,
        created_at: rng.time(Math.max(user.row.created_at, board.row.created_at), BASE_EPOCH - MINUTE),
      });
    }
  }

  // ----- reactions ----------------------------------------------------------------------------
  const reactionTypes: ReadonlyArray<readonly [number, number]> = [[1, 60], [2, 15], [3, 10], [4, 8], [5, 7]];
  for (const pin of pins) {
    if (!pin.publicFirst || pin.row.is_deleted) continue;
    const count = rng.weighted([[0, 20], [1, 15], [2, 15], [3, 12], [5, 12], [8, 10], [12, 8], [20, 8]] as const);
    const reactors = rng.sample(allUserIds, count + 1).filter((id) => id !== pin.row.pinner_id).slice(0, count);
    const counts = new Map<number, number>();
    for (const userId of reactors.sort((a, b) => a - b)) {
      const type = rng.weighted(reactionTypes);
      counts.set(type, (counts.get(type) ?? 0) + 1);
      tables.reactions.push({ pin_id: pin.row.id, user_id: userId, reaction_type: type, created_at: rng.time(Math.max(pin.row.created_at, userOf(userId).row.created_at), BASE_EPOCH - MINUTE) });
    }
    for (const [type, total] of [...counts].sort((a, b) => a[0] - b[0])) tables.pin_reaction_counts.push({ pin_id: pin.row.id, reaction_type: type, count: total });
  }

  // ----- comments -----------------------------------------------------------------------------
  let nextCommentId = COMMENT_ID_START;
  function comment(pin: PinMeta, userId: number, parent: CommentRow | null, text: string, after: number, tags: string = "[]"): CommentRow {
    const created = rng.time(Math.max(after + MINUTE, userOf(userId).row.created_at), BASE_EPOCH - MINUTE);
    const row: CommentRow = {
      id: nextCommentId++,
      pin_id: pin.row.id,
      user_id: userId,
      parent_id: parent ? parent.id : null,
      text: text.slice(0, 2000),
      tags,
      like_count: rng.chance(0.5) ? 0 : rng.int(1, rng.chance(0.1) ? 120 : 15),
      helpful_count: pin.row.kind === "recipe" && rng.chance(0.4) ? rng.int(1, 25) : 0,
      reply_count: 0,
      highlighted_by_pin_owner: !parent && rng.chance(0.06) ? 1 : 0,
      is_hidden: rng.chance(0.01) ? 1 : 0,
      created_at: created,
      updated_at: rng.chance(0.05) ? rng.time(created, BASE_EPOCH) : created,
    };
    tables.comments.push(row);
    if (parent) parent.reply_count++;
    return row;
  }
  const secretPin = pinOf(P.secret);
  comment(secretPin, U.friend, null, "Maya is going to love this! I can pick up the balloons on Friday.", secretPin.row.created_at);
  for (const pin of pins) {
    if (!pin.publicFirst || pin.row.comments_disabled || pin.row.is_deleted) continue;
    const topLevel = pin.row.id === P.image ? 4 : rng.weighted([[0, 22], [1, 18], [2, 17], [3, 14], [4, 11], [5, 8], [7, 6], [10, 4]] as const);
    for (let i = 0; i < topLevel; i++) {
      const author = rng.chance(0.15) ? rng.draw(popularWeights) : rng.pick(allUserIds);
      const pieces = [rng.chance(0.55) ? rng.pick(COMMENTS_TOPIC[pin.topic]) : rng.pick(COMMENTS_GENERIC)];
      if (rng.chance(0.25)) pieces.push(rng.pick(COMMENTS_GENERIC));
      const parent = comment(pin, author, null, pieces.join(" "), pin.row.created_at);
      if (rng.chance(0.28) || (pin.row.id === P.image && i === 0)) {
        const replies = rng.int(1, 2);
        for (let r = 0; r < replies; r++) {
          const byOwner = rng.chance(0.4);
          const replier = byOwner ? pin.row.pinner_id : rng.pick(allUserIds);
          const mention = replier !== author && rng.chance(0.35);
          const handle = `@${userOf(author).row.username}`;
          const body = rng.pick(REPLIES);
          const text = mention ? `${handle} ${body}` : body;
          const tags = mention ? JSON.stringify([{ userId: String(author), offset: 0, length: handle.length }]) : "[]";
          comment(pin, replier, parent, text, parent.created_at, tags);
        }
      }
    }
  }

  // ----- counters -----------------------------------------------------------------------------
  for (const save of tables.board_pins) {
    const board = boardOf(save.board_id);
    board.row.pin_count++;
    if (save.section_id === null) board.row.sectionless_pin_count++;
    else must(board.sections.find((section) => section.id === save.section_id), "section").pin_count++;
    board.row.updated_at = Math.max(board.row.updated_at, save.created_at);
    // save_count counts the saves a stranger could see: on boards the board rule shows to anyone
    // (the server recounts it the same way, src/boards/counts.server.ts).
    if (holds("board", { rows: { board: board.row } }, null)) pinOf(save.pin_id).row.save_count++;
  }
  for (const board of boards) {
    board.row.section_count = board.sections.length;
    board.row.collaborator_count = board.accepted.length;
    const list = (savesByBoard.get(board.row.id) ?? []).slice().sort((a, b) => a.position - b.position);
    const cover = list.find((save) => {
      const pin = pinOf(save.pin_id).row;
      return pin.is_deleted === 0 && pin.is_hidden === 0 && pin.is_unsafe === 0;
    });
    board.row.cover_pin_id = cover ? cover.pin_id : null;
    const owner = userOf(board.row.owner_id).row;
    if (board.row.archived_at === null) {
      if (board.row.privacy === "secret") owner.secret_board_count++;
      else owner.board_count++;
    }
    if (board.row.is_collaborative) {
      owner.group_board_count++;
      for (const userId of board.accepted) userOf(userId).row.group_board_count++;
    }
  }
  // A user's pin_count counts the pins they created that are not deleted (as the server recounts it).
  for (const pin of tables.pins) if (pin.is_deleted === 0) userOf(pin.pinner_id).row.pin_count++;
  for (const follow of tables.follows) {
    if (follow.target_type === "user") {
      userOf(follow.follower_id).row.following_count++;
      userOf(follow.target_id).row.follower_count++;
    } else if (follow.target_type === "board") {
      boardOf(follow.target_id).row.follower_count++;
    }
  }
  for (const row of tables.comments) pinOf(row.pin_id).row.comment_count++;

  tables.pin_tags.push(...pinTagRows(pins, P));

  // Pins showing the same photo at the same sizes get the same bytes: each such set renders once.
  for (const job of media.images) {
    if (job.spec.photo) job.shareKey = `photo:${job.spec.photo}:${job.spec.width}x${job.spec.height}:${job.outputs.map((output) => `${output.width}x${output.height}`).join(",")}`;
  }
  return { seed, pinCount: pinTotal, baseEpoch: BASE_EPOCH, pooled, tables, media, credentials };
}
