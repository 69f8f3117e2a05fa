// This device's accounts for the switcher (spec 000 §3 "Account-switcher entry", §4
// "Multi-account local store", §6 "Account switching lists all accounts stored locally"):
// an atom-style store mirrored in localStorage. Rule of §4: when the first stored account is
// not marked logged in, all are marked logged in. A stored value that does not parse is
// logged and forgotten (§8), never thrown at the page.
//
// Not a nanostores atom on purpose: the shell's script (src/shell/AppShell.astro) uses
// nanostores and must stay one small inline script; any island importing nanostores too
// makes the bundler split nanostores into a shared chunk, and the shell script turns into an
// external module. The store below has the same get/set/listen shape, read in React through
// useSyncExternalStore (useAccounts).
import { useSyncExternalStore } from "react";
import { browserStorage, readAccounts, storeAccounts, writeAccounts, type Store, type SwitcherEntry } from "./accounts-list.ts";

export * from "./accounts-list.ts";

/** The smallest atom: a value, its listeners, and set() telling them. */
export function createAtom<T>(initial: T) {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next: T) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener(value);
    },
    listen(listener: (value: T) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export const $accounts = createAtom<SwitcherEntry[]>([]);

/** The stored accounts in a React component, re-rendered on every change. */
export function useAccounts(): SwitcherEntry[] {
  return useSyncExternalStore($accounts.listen, $accounts.get, $accounts.get);
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

export function clearAccounts(storage: Store | null = browserStorage()): void {
  $accounts.set([]);
  writeAccounts(storage, []);
}
