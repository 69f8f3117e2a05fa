import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ACCOUNTS_KEY, MAX_ACCOUNTS, normalizeAccounts, readAccounts, setAccounts, $accounts, type SwitcherEntry } from "./accounts-store.client.ts";

const entry = (id: number, isLoggedIn: boolean, extra: Partial<SwitcherEntry> = {}) => ({
  id: String(id),
  username: `user${id}`,
  email: `u${id}@pinloom.example`,
  fullName: `User ${id}`,
  imageMediumUrl: null,
  imageLargeUrl: null,
  owners: [],
  partner: null,
  businesses: [],
  isLoggedIn,
  ...extra,
});
const memory = (initial?: string) => {
  const map = new Map<string, string>(initial === undefined ? [] : [[ACCOUNTS_KEY, initial]]);
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
};

describe("the multi-account store rule (spec §4)", () => {
  it("marks every account logged in when the first is not", () => {
    const result = normalizeAccounts([entry(1, false), entry(2, false), entry(3, true)]);
    expect(result.map((e) => e.isLoggedIn)).toEqual([true, true, true]);
  });

  it("leaves the flags alone when the first is logged in", () => {
    const result = normalizeAccounts([entry(1, true), entry(2, false)]);
    expect(result.map((e) => e.isLoggedIn)).toEqual([true, false]);
  });

  it("holds for any list: the first is always logged in, and others keep their flag unless the first was not", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.integer({ min: 1, max: 30 }), on: fc.boolean() }), { maxLength: 12 }), (rows) => {
        const input = rows.map((row) => entry(row.id, row.on));
        const result = normalizeAccounts(input);
        expect(result.length).toBeLessThanOrEqual(MAX_ACCOUNTS);
        expect(new Set(result.map((e) => e.id)).size).toBe(result.length);
        if (result.length === 0) return;
        expect(result[0]!.isLoggedIn).toBe(true);
        const firstWasLoggedIn = input[0]!.isLoggedIn;
        if (!firstWasLoggedIn) expect(result.every((e) => e.isLoggedIn)).toBe(true);
        else for (const e of result) expect(e.isLoggedIn).toBe(input.find((i) => i.id === e.id)!.isLoggedIn);
      }),
    );
  });

  it("keeps business accounts and their businesses in the entry's shape", () => {
    const partner = { contact_email: "c@x.example", ownership_email: "o@x.example", business_name: "Bake & Bloom Studio", is_linked_business: true };
    const [result] = normalizeAccounts([entry(3, true, { partner, businesses: [entry(8, true, { partner }) as SwitcherEntry] })]);
    expect(result!.partner).toEqual(partner);
    expect(result!.businesses[0]!.partner!.business_name).toBe("Bake & Bloom Studio");
  });

  it("drops values that are not entries", () => {
    expect(normalizeAccounts([null, 3, { id: "x", username: "a" }, { id: "1" }, entry(2, true)]).map((e) => e.id)).toEqual(["2"]);
  });
});

describe("storage", () => {
  it("a stored value that is not JSON is logged only, and reads as no accounts", () => {
    const log = vi.fn();
    expect(readAccounts(memory("{not json"), log)).toEqual([]);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it("setAccounts stores the list with the current account first, and reading it back applies the rule", () => {
    const storage = memory();
    setAccounts([entry(1, true), entry(7, true)], "7", storage);
    expect($accounts.get().map((e) => e.id)).toEqual(["7", "1"]);
    expect(readAccounts(storage).map((e) => e.id)).toEqual(["7", "1"]);
    setAccounts([], null, storage);
    expect(storage.map.has(ACCOUNTS_KEY)).toBe(false);
  });
});

describe("the store", () => {
  it("tells the account menu of each change the list goes through", () => {
    const storage = memory();
    const seen: string[][] = [];
    const stop = $accounts.listen((entries) => seen.push(entries.map((entry) => entry.username)));
    setAccounts([entry(1, true, { username: "ava" })], "1", storage);
    setAccounts([], null, storage);
    stop();
    setAccounts([entry(2, true, { username: "sam" })], "2", storage);
    expect(seen).toEqual([["ava"], []]);
    expect($accounts.get().map((entry) => entry.username)).toEqual(["sam"]);
  });
});
