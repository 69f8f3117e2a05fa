// Board and section slugs (the URL segment of /{username}/{slug}/): the name lowercased,
// accents and punctuation dropped, spaces to hyphens, letters of any script kept; unique per
// owner (boards) or per board (sections) with -2, -3, ... appended. Pure; the server reads the
// taken slugs and writes the result in its batch, where the UNIQUE index settles any race.

/** The slug of a name, or `fallback` when nothing of the name survives (emoji only, say). */
export function slugify(name: string, fallback = "board"): string {
  const slug = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/[\s-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/, "");
  return slug === "" ? fallback : slug;
}

/** Bound on the suffixes tried; past it the slug gets the creation time (never a loop without end). */
export const MAX_SLUG_SUFFIX = 1000;

/**
 * `base` when free, else the first free `base-2`, `base-3`, ... among `taken` (compared
 * case-insensitively, as the URL is). `fallbackSuffix` ends the search past MAX_SLUG_SUFFIX.
 */
export function uniqueSlug(base: string, taken: Iterable<string>, fallbackSuffix: string | number = Date.now()): string {
  const used = new Set([...taken].map((slug) => slug.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let suffix = 2; suffix <= MAX_SLUG_SUFFIX; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
  return `${base}-${fallbackSuffix}`;
}
