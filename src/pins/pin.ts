// Pins (spec 000 §3): the shapes read from D1's JSON columns, parsed at the door, and the
// rules that are pure functions of a pin. Imported by server code, pages and islands.
import { z } from "zod";
import type { PinImageSize } from "../media/media.ts";

export type PinKind = "image" | "video" | "carousel" | "story" | "recipe" | "article" | "product";

export const pinIdSchema = z.string().regex(/^\d{1,19}$/, "pin ids are digits");

const imageRef = z.object({ url: z.string(), width: z.number().int().positive(), height: z.number().int().positive() });
type ImageRef = z.infer<typeof imageRef>;

export const mediaAttributionSchema = z.object({
  author: z.string().nullish(),
  authorUrl: z.string().nullish(),
  ccUrl: z.string().nullish(),
  /** The licence's short name ("CC BY 4.0"), shown as the licence link's text when given. */
  licenseName: z.string().nullish(),
  link: z.string().nullish(),
  mediaType: z.string().nullish(),
  providerName: z.string().nullish(),
});

const offerSummary = z.object({
  price: z.number().nullish(),
  minPrice: z.number().nullish(),
  maxPrice: z.number().nullish(),
  standardPrice: z.number().nullish(),
  currency: z.string().default("USD"),
  inStock: z.boolean().default(true),
});

export const richMetadataSchema = z.object({
  recipe: z
    .object({
      name: z.string(),
      ingredients: z.array(z.object({ category: z.string().nullish(), items: z.array(z.object({ amount: z.string().nullish(), name: z.string() })) })),
      cookTimeMinutes: z.number().nullish(),
      prepTimeMinutes: z.number().nullish(),
      totalTimeMinutes: z.number().nullish(),
      servingsSummary: z.string().nullish(),
      diets: z.array(z.string()).default([]),
    })
    .optional(),
  aggregateRating: z
    .object({ ratingValue: z.number(), bestRating: z.number().default(5), reviewCount: z.number().int(), ratingCount: z.number().int() })
    .optional(),
  article: z.object({ datePublished: z.string(), author: z.string().nullish(), name: z.string().nullish() }).optional(),
  products: z
    .array(
      z.object({
        id: z.union([z.string(), z.number()]).transform(String),
        name: z.string(),
        brand: z.string().nullish(),
        offerSummary: offerSummary.optional(),
        shippingInfo: z.object({ freeShippingPrice: z.number().nullish(), freeShippingValue: z.number().nullish() }).optional(),
      }),
    )
    .optional(),
});

export const carouselDataSchema = z.object({
  slots: z.array(
    z.object({
      title: z.string().nullish(),
      details: z.string().nullish(),
      link: z.string().nullish(),
      dominantColor: z.string().nullish(),
      images: z.record(z.string(), imageRef),
    }),
  ),
});

export const storyPinDataSchema = z.object({
  pinTitle: z.string().nullish(),
  pages: z.array(
    z.object({
      id: z.union([z.string(), z.number()]).transform(String),
      backgroundColor: z.string().default("#ffffff"),
      image: imageRef.nullish(),
      images: z.record(z.string(), imageRef).optional(),
      /** An image block's picture (and a video block's poster) at the size a page shows. */
      blocks: z.array(z.looseObject({ type: z.string().transform((type) => type.toLowerCase()), text: z.string().nullish(), image: imageRef.nullish() })),
    }),
  ),
  totalVideoDuration: z.number().default(0),
  staticPageCount: z.number().int().optional(),
  hasProductPins: z.boolean().default(false),
  isDeleted: z.boolean().default(false),
});

/** JSON text from D1 → typed value; null when absent. A malformed value is a server fault. */
export function parseJsonColumn<T>(schema: z.ZodType<T>, text: string | null | undefined): T | null {
  if (text === null || text === undefined || text === "") return null;
  return schema.parse(JSON.parse(text));
}

export interface LinkCandidates {
  mobileLink?: string | null;
  trackedLink?: string | null;
  link?: string | null;
  originalImageUrl?: string | null;
}

/** Pin field bounds: a title as the grid shows it, the description as spec 000 §9, a link as spec 001 §5. */
export const PIN_TITLE_MAX = 100;
export const PIN_DESCRIPTION_MAX = 500;
export const PIN_LINK_MAX = 2048;

/** A link may leave the site only over http or https and never to a blocked host (spec 000 §5). */
export function isAllowedLink(link: string | null | undefined, blockedHosts: ReadonlySet<string>): link is string {
  if (!link) return false;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  // "spam.example." (a fully qualified name) reaches the same host as "spam.example".
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  for (const blocked of blockedHosts) if (host === blocked || host.endsWith(`.${blocked}`)) return false;
  return true;
}

/** Spec 000 §3 pin link choice: mobile link, else tracked link, else link, else the original image. */
export function choosePinLink(candidates: LinkCandidates, blockedHosts: ReadonlySet<string>): string | null {
  for (const link of [candidates.mobileLink, candidates.trackedLink, candidates.link]) {
    if (isAllowedLink(link, blockedHosts)) return link;
  }
  return candidates.originalImageUrl ?? null;
}

export type PinImages = Partial<Record<PinImageSize, ImageRef & { dominantColor: string }>>;
