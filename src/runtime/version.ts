// Version change (spec 000 §4): every relative fetch compares the answer's X-App-Version with
// the version this page's script was built as. A difference is reported once as a new version
// available, and the next route change (a same-origin link followed) becomes a full reload.
// On slow connections (slow-2g, 2g, 3g) the reload waits until the new version has been
// known for 24 hours: re-downloading the app costs those readers more than a stale page.
// The version seen is kept in localStorage, so "reported once" and "24 hours" span pages.

export const SLOW_EFFECTIVE_TYPES: ReadonlySet<string> = new Set(["slow-2g", "2g", "3g"]);
export const STALE_RELOAD_MS = 24 * 60 * 60 * 1000;
export const SEEN_VERSION_KEY = "pinloom:seen-version";
/** sessionStorage: set just before a forced reload, read and cleared by the next start-up. */
export const FORCED_RELOAD_KEY = "pinloom:forced-reload";

export interface SeenVersion {
  version: string;
  /** When this page (or an earlier one) first saw it, ms since the epoch. */
  seenAt: number;
}

export interface VersionNote {
  seen: SeenVersion | null;
  /** True the first time a given new version is seen: report it. */
  isNew: boolean;
}

/** The state after an answer carrying `header` (null when it had none). */
export function noteVersion(current: string, header: string | null, seen: SeenVersion | null, now: number): VersionNote {
  const version = header?.trim().slice(0, 64) ?? "";
  if (!version) return { seen, isNew: false };
  // The server runs our build again (we reloaded, or it rolled back): nothing newer is pending.
  if (version === current) return { seen: null, isNew: false };
  if (seen?.version === version) return { seen, isNew: false };
  return { seen: { version, seenAt: now }, isNew: true };
}

/** Whether following a link now should be a forced full reload. */
export function reloadOnNavigation(current: string, seen: SeenVersion | null, now: number, effectiveType: string | null | undefined): boolean {
  if (!seen || seen.version === current) return false;
  if (effectiveType && SLOW_EFFECTIVE_TYPES.has(effectiveType)) return now - seen.seenAt >= STALE_RELOAD_MS;
  return true;
}

export function parseSeen(text: string | null): SeenVersion | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<SeenVersion>;
    return typeof value.version === "string" && typeof value.seenAt === "number" && Number.isFinite(value.seenAt) ? { version: value.version, seenAt: value.seenAt } : null;
  } catch {
    return null;
  }
}

/** A click that should follow its link as a plain navigation (the one a forced reload may take over). */
export function isPlainNavigation(
  event: Pick<MouseEvent, "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey" | "defaultPrevented">,
  link: { href: string; target: string; hasDownload: boolean },
  origin: string,
): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (link.hasDownload || (link.target && link.target !== "_self")) return false;
  try {
    const url = new URL(link.href, origin);
    return url.origin === origin && (url.protocol === "https:" || url.protocol === "http:");
  } catch {
    return false;
  }
}
