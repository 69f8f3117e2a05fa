// Recent searches of a signed-out person, kept on the device (spec 000 §9; the island
// applies addRecent with the cap of 20). Storage is injected so the rules are tested
// without a browser; a full or disabled storage just means nothing is remembered.
import { atom } from "nanostores";
import { addRecent, RECENT_CAP, removeRecent } from "./recent.ts";
import { sanitizeRecent } from "./state.ts";

export const DEVICE_RECENT_KEY = "pinloom:search:recent";

/** The device list as the islands show it (empty until loadDeviceRecent runs in the browser). */
export const $deviceRecent = atom<string[]>([]);

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function readDeviceRecent(storage: Store | null): string[] {
  if (!storage) return [];
  try {
    return sanitizeRecent(JSON.parse(storage.getItem(DEVICE_RECENT_KEY) ?? "[]"));
  } catch {
    return [];
  }
}

function write(storage: Store | null, list: string[]): string[] {
  $deviceRecent.set(list);
  try {
    if (list.length === 0) storage?.removeItem(DEVICE_RECENT_KEY);
    else storage?.setItem(DEVICE_RECENT_KEY, JSON.stringify(list));
  } catch {
    // storage full or disabled: nothing is remembered
  }
  return list;
}

export const addDeviceRecent = (storage: Store | null, query: string): string[] => write(storage, addRecent(readDeviceRecent(storage), query, RECENT_CAP));
export const removeDeviceRecent = (storage: Store | null, query: string): string[] => write(storage, removeRecent(readDeviceRecent(storage), query));
export const clearDeviceRecent = (storage: Store | null): string[] => write(storage, []);

export const loadDeviceRecent = (storage: Store | null): void => $deviceRecent.set(readDeviceRecent(storage));

export function localStorageOrNull(): Store | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}
