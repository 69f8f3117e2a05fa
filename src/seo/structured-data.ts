// JSON-LD by page kind: for pins SocialMediaPosting, VideoObject for video pins, Recipe,
// Product with Offer, Article, and a BreadcrumbList; WebSite and Organization on home,
// CollectionPage on boards, ProfilePage on profiles. Pure functions of what the page shows.
import type { PinDetail } from "~/pins/pins.server.ts";
import { SITE_LOGO_PATH, SITE_NAME } from "./head.ts";

type JsonLd = Record<string, unknown>;

const CONTEXT = "https://schema.org";

/** Minutes → ISO 8601 duration (PT1H5M); null for nothing. */
export function isoMinutes(minutes: number | null | undefined): string | null {
  if (!minutes || minutes <= 0 || !Number.isFinite(minutes)) return null;
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  return `PT${hours ? `${hours}H` : ""}${rest ? `${rest}M` : ""}`;
}

/** Milliseconds → ISO 8601 duration with seconds (PT4S, PT1M30S). */
export function isoDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `PT${minutes ? `${minutes}M` : ""}${rest || !minutes ? `${rest}S` : ""}`;
}

function absolute(url: string, origin: string): string {
  return new URL(url, origin).href;
}

function imageOf(pin: PinDetail, origin: string): string | null {
  const image = pin.images["736x"] ?? pin.images.orig ?? pin.images["474x"];
  return image ? absolute(image.url, origin) : null;
}

function author(pin: PinDetail, origin: string): JsonLd {
  return { "@type": "Person", name: pin.pinner.fullName || pin.pinner.username, url: absolute(`/${pin.pinner.username}/`, origin) };
}

function compact(value: JsonLd): JsonLd {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)));
}

function interactions(pin: PinDetail): JsonLd[] {
  const likes = pin.reactionCounts.reduce((sum, reaction) => sum + reaction.reactionCount, 0);
  return [
    { "@type": "InteractionCounter", interactionType: "https://schema.org/CommentAction", userInteractionCount: pin.commentCount },
    { "@type": "InteractionCounter", interactionType: "https://schema.org/LikeAction", userInteractionCount: likes },
  ];
}

export function pinStructuredData(pin: PinDetail, canonical: string): JsonLd[] {
  const origin = new URL(canonical).origin;
  const image = imageOf(pin, origin);
  const base = { "@context": CONTEXT, url: canonical, name: pin.title, description: pin.description || null, image };
  const blocks: JsonLd[] = [];
  const video = pin.videos[0];

  if (video) {
    blocks.push(
      compact({
        ...base,
        "@type": "VideoObject",
        thumbnailUrl: absolute(video.thumbnail, origin),
        uploadDate: pin.createdAt,
        duration: isoDuration(video.durationMs),
        contentUrl: absolute(video.url, origin),
        width: video.width,
        height: video.height,
        author: author(pin, origin),
      }),
    );
  }

  const metadata = pin.richMetadata;
  if (metadata?.recipe) {
    const recipe = metadata.recipe;
    blocks.push(
      compact({
        ...base,
        "@type": "Recipe",
        name: recipe.name || pin.title,
        author: author(pin, origin),
        datePublished: pin.createdAt,
        recipeIngredient: recipe.ingredients.flatMap((group) => group.items.map((item) => [item.amount, item.name].filter(Boolean).join(" "))),
        prepTime: isoMinutes(recipe.prepTimeMinutes),
        cookTime: isoMinutes(recipe.cookTimeMinutes),
        totalTime: isoMinutes(recipe.totalTimeMinutes),
        recipeYield: recipe.servingsSummary ?? null,
        keywords: recipe.diets.join(", ") || null,
        aggregateRating: metadata.aggregateRating
          ? {
              "@type": "AggregateRating",
              ratingValue: metadata.aggregateRating.ratingValue,
              bestRating: metadata.aggregateRating.bestRating,
              ratingCount: metadata.aggregateRating.ratingCount,
              reviewCount: metadata.aggregateRating.reviewCount,
            }
          : null,
      }),
    );
  }

  if (metadata?.article) {
    blocks.push(
      compact({
        ...base,
        "@type": "Article",
        headline: pin.title.slice(0, 110),
        datePublished: metadata.article.datePublished,
        author: metadata.article.author ? { "@type": "Person", name: metadata.article.author } : author(pin, origin),
        publisher: { "@type": "Organization", name: pin.domain ?? SITE_NAME },
        mainEntityOfPage: pin.link ?? canonical,
      }),
    );
  }

  for (const product of metadata?.products ?? []) {
    const offer = product.offerSummary;
    const availability = offer?.inStock === false ? "https://schema.org/OutOfStock" : "https://schema.org/InStock";
    const ranged = offer && typeof offer.minPrice === "number" && typeof offer.maxPrice === "number" && offer.minPrice !== offer.maxPrice;
    blocks.push(
      compact({
        ...base,
        "@type": "Product",
        name: product.name,
        brand: product.brand ? { "@type": "Brand", name: product.brand } : null,
        sku: product.id,
        offers: offer
          ? compact(
              ranged
                ? { "@type": "AggregateOffer", lowPrice: offer.minPrice, highPrice: offer.maxPrice, priceCurrency: offer.currency, availability, url: pin.link ?? canonical }
                : { "@type": "Offer", price: offer.price ?? offer.minPrice, priceCurrency: offer.currency, availability, url: pin.link ?? canonical },
            )
          : null,
      }),
    );
  }

  if (blocks.length === 0) {
    blocks.push(
      compact({
        ...base,
        "@type": "SocialMediaPosting",
        headline: pin.title.slice(0, 110) || null,
        datePublished: pin.createdAt,
        author: author(pin, origin),
        interactionStatistic: interactions(pin),
        sharedContent: pin.link ? { "@type": "WebPage", url: pin.link } : null,
      }),
    );
  }

  const crumbs = [
    { name: SITE_NAME, url: absolute("/", origin) },
    { name: pin.pinner.fullName || pin.pinner.username, url: absolute(`/${pin.pinner.username}/`, origin) },
    ...(pin.board ? [{ name: pin.board.name, url: absolute(pin.board.url, origin) }] : []),
    { name: pin.title || SITE_NAME, url: canonical },
  ];
  blocks.push({
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) => ({ "@type": "ListItem", position: index + 1, name: crumb.name, item: crumb.url })),
  });
  return blocks;
}

/** The site's own identity, the publisher named on every page kind. */
function organization(origin: string): JsonLd {
  return { "@type": "Organization", "@id": absolute("/#organization", origin), name: SITE_NAME, url: absolute("/", origin), logo: absolute(SITE_LOGO_PATH, origin) };
}

/**
 * The home page: the site (with the search box search engines may show, its target the real
 * search page's URL) and the organization behind it.
 */
export function homeStructuredData(origin: string, searchPathPrefix: string): JsonLd[] {
  return [
    {
      "@context": CONTEXT,
      "@type": "WebSite",
      "@id": absolute("/#website", origin),
      name: SITE_NAME,
      url: absolute("/", origin),
      publisher: { "@id": absolute("/#organization", origin) },
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: `${absolute(searchPathPrefix, origin)}{search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    },
    { "@context": CONTEXT, ...organization(origin) },
  ];
}

/** A pin as a list entry: its position on the page and its close-up's URL. */
interface ListedPin {
  id: string;
  title: string;
  image: string | null;
}

function pinList(pins: readonly ListedPin[], origin: string): JsonLd {
  return {
    "@type": "ItemList",
    numberOfItems: pins.length,
    itemListElement: pins.map((pin, index) =>
      compact({ "@type": "ListItem", position: index + 1, url: absolute(`/pin/${pin.id}/`, origin), name: pin.title || null, image: pin.image ? absolute(pin.image, origin) : null }),
    ),
  };
}

export interface BoardStructuredInput {
  name: string;
  description: string;
  owner: { name: string; url: string };
  /** The pins the page shows, which are the ones the viewer may open. */
  pins: readonly ListedPin[];
}

/** A board: a collection page whose main entity is the list of its pins on this page. */
export function boardStructuredData(board: BoardStructuredInput, canonical: string): JsonLd[] {
  const origin = new URL(canonical).origin;
  const owner = absolute(board.owner.url, origin);
  return [
    compact({
      "@context": CONTEXT,
      "@type": "CollectionPage",
      url: canonical,
      name: board.name,
      description: board.description.trim() || null,
      author: { "@type": "Person", name: board.owner.name, url: owner },
      isPartOf: { "@type": "WebSite", name: SITE_NAME, url: absolute("/", origin) },
      mainEntity: pinList(board.pins, origin),
    }),
    {
      "@context": CONTEXT,
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: SITE_NAME, item: absolute("/", origin) },
        { "@type": "ListItem", position: 2, name: board.owner.name, item: owner },
        { "@type": "ListItem", position: 3, name: board.name, item: canonical },
      ],
    },
  ];
}

export interface SectionStructuredInput {
  name: string;
  board: { name: string; url: string };
  owner: { name: string; url: string };
  /** The pins the page shows, which are the ones the viewer may open. */
  pins: readonly ListedPin[];
}

/** A board section: a collection page within its board, and the breadcrumb owner › board › section. */
export function sectionStructuredData(section: SectionStructuredInput, canonical: string): JsonLd[] {
  const origin = new URL(canonical).origin;
  const owner = absolute(section.owner.url, origin);
  const board = absolute(section.board.url, origin);
  return [
    {
      "@context": CONTEXT,
      "@type": "CollectionPage",
      url: canonical,
      name: section.name,
      author: { "@type": "Person", name: section.owner.name, url: owner },
      isPartOf: { "@type": "CollectionPage", name: section.board.name, url: board },
      mainEntity: pinList(section.pins, origin),
    },
    {
      "@context": CONTEXT,
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: SITE_NAME, item: absolute("/", origin) },
        { "@type": "ListItem", position: 2, name: section.owner.name, item: owner },
        { "@type": "ListItem", position: 3, name: section.board.name, item: board },
        { "@type": "ListItem", position: 4, name: section.name, item: canonical },
      ],
    },
  ];
}

export interface ProfileStructuredInput {
  name: string;
  username: string;
  about: string;
  /** A business account is described as an Organization, a person's as a Person. */
  isBusiness: boolean;
  avatar: string | null;
  followerCount: number;
}

/** A profile: a ProfilePage whose main entity is the person (or the business) it belongs to. */
export function profileStructuredData(profile: ProfileStructuredInput, canonical: string): JsonLd[] {
  const origin = new URL(canonical).origin;
  return [
    {
      "@context": CONTEXT,
      "@type": "ProfilePage",
      url: canonical,
      mainEntity: compact({
        "@type": profile.isBusiness ? "Organization" : "Person",
        name: profile.name,
        alternateName: `@${profile.username}`,
        identifier: profile.username,
        url: canonical,
        description: profile.about.trim() || null,
        image: profile.avatar ? absolute(profile.avatar, origin) : null,
        interactionStatistic: { "@type": "InteractionCounter", interactionType: "https://schema.org/FollowAction", userInteractionCount: profile.followerCount },
      }),
    },
  ];
}
