// The multi-account list's rules and its localStorage form, without any store: the account
// menu's store (accounts-store.ts) builds on it, and the per-page boot script uses it alone.
import type { PartnerInfo, SwitcherEntry } from "./switcher.ts";
export type { SwitcherEntry };

export const ACCOUNTS_KEY = "pinloom_accounts";
/** The switcher lists at most this many accounts (the server keeps sessions per device). */
export const MAX_ACCOUNTS = 5;

const str = (value: unknown, max = 320): string | null => (typeof value === "string" ? value.slice(0, max) : null);

function toPartner(value: unknown): PartnerInfo | null {
  if (value === null || typeof value !== "object") return null;
  const raw = value as Record<string, unknown>;
  return {
    contact_email: str(raw["contact_email"]),
    ownership_email: str(raw["ownership_email"]),
    business_name: str(raw["business_name"], 200),
    is_linked_business: raw["is_linked_business"] === true,
  };
}

/** One entry from untrusted JSON (storage or the network), or null when it is not one. */
export function toEntry(value: unknown, depth = 0): SwitcherEntry | null {
  if (value === null || typeof value !== "object") return null;
  const raw = value as Record<string, unknown>;
  const id = typeof raw["id"] === "number" ? String(raw["id"]) : str(raw["id"], 32);
  const username = str(raw["username"], 100);
  if (!id || !/^\d+$/.test(id) || !username) return null;
  const businesses = depth === 0 && Array.isArray(raw["businesses"]) ? raw["businesses"].slice(0, 20).map((b) => toEntry(b, 1)).filter((b) => b !== null) : [];
  return {
    id,
    username,
    email: str(raw["email"]),
    fullName: str(raw["fullName"], 200) ?? username,
    imageMediumUrl: str(raw["imageMediumUrl"], 2048),
    imageLargeUrl: str(raw["imageLargeUrl"], 2048),
    owners: depth === 0 && Array.isArray(raw["owners"]) ? raw["owners"].slice(0, 20).map((owner) => toEntry(owner, 1)).filter((owner) => owner !== null) : [],
    partner: toPartner(raw["partner"]),
    businesses,
    isLoggedIn: raw["isLoggedIn"] === true,
  };
}

/**
 * The stored list's rules in one place: valid entries only, one per id (first wins), at most
 * MAX_ACCOUNTS, and every account marked logged in when the first is not.
 */
export function normalizeAccounts(values: readonly unknown[]): SwitcherEntry[] {
  const seen = new Set<string>();
  const entries: SwitcherEntry[] = [];
  for (const value of values.slice(0, MAX_ACCOUNTS * 4)) {
    const entry = toEntry(value);
    if (!entry || seen.has(entry.id)) continue;
    seen.add(entry.id);
    entries.push(entry);
    if (entries.length === MAX_ACCOUNTS) break;
  }
  if (entries.length > 0 && !entries[0]!.isLoggedIn) return entries.map((entry) => ({ ...entry, isLoggedIn: true }));
  return entries;
}

export type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function readAccounts(storage: Store | null, log: (message: string, error: unknown) => void = console.error): SwitcherEntry[] {
  let text: string | null;
  try {
    text = storage?.getItem(ACCOUNTS_KEY) ?? null;
  } catch (error) {
    log("Could not read stored accounts", error);
    return [];
  }
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? normalizeAccounts(parsed) : [];
  } catch (error) {
    log("Stored accounts are not valid JSON", error);
    return [];
  }
}

function writeAccounts(storage: Store | null, entries: readonly SwitcherEntry[]): void {
  try {
    if (entries.length === 0) storage?.removeItem(ACCOUNTS_KEY);
    else storage?.setItem(ACCOUNTS_KEY, JSON.stringify(entries));
  } catch {
    // Private mode or a full quota: the list still lives in memory for this page.
  }
}

/** The current account first, then the others in the order the server gave them. */
function currentFirst(entries: readonly SwitcherEntry[], currentId: string | null): SwitcherEntry[] {
  if (currentId === null) return [...entries];
  const current = entries.filter((entry) => entry.id === currentId);
  return [...current, ...entries.filter((entry) => entry.id !== currentId)];
}

/** The rules, then storage: what the server answered becomes the stored list. */
export function storeAccounts(storage: Store | null, values: readonly unknown[], currentId: string | null = null): SwitcherEntry[] {
  const entries = normalizeAccounts(currentFirst(normalizeAccounts(values), currentId));
  writeAccounts(storage, entries);
  return entries;
}

export const browserStorage = (): Store | null => {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
};
