// This device's accounts for the switcher (spec 000 §3 "Account-switcher entry", §4
// "Multi-account local store", §6 "Account switching lists all accounts stored locally"):
// an atom-style store mirrored in localStorage. Rule of §4: when the first stored account is
// not marked logged in, all are marked logged in. A stored value that does not parse is
// logged and forgotten (§8), never thrown at the page.
import { atom } from "nanostores";
import { useStore } from "@nanostores/react";
import { browserStorage, readAccounts, storeAccounts, type Store, type SwitcherEntry } from "./accounts-list.client.ts";

export * from "./accounts-list.client.ts";

export const $accounts = atom<SwitcherEntry[]>([]);

/** The stored accounts in a React component, re-rendered on every change. */
export function useAccounts(): SwitcherEntry[] {
  return useStore($accounts);
}

/** Loads the stored list into $accounts (call once per page, in the browser). */
export function loadAccounts(storage: Store | null = browserStorage()): SwitcherEntry[] {
  const entries = readAccounts(storage);
  $accounts.set(entries);
  return entries;
}

/** Replaces the list with what the server answered, keeping the rules, and stores it. */
export function setAccounts(values: readonly unknown[], currentId: string | null = null, storage: Store | null = browserStorage()): SwitcherEntry[] {
  const entries = storeAccounts(storage, values, currentId);
  $accounts.set(entries);
  return entries;
}
