import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PERSISTED_DOCUMENTS, type QueryName } from "./documents/index.ts";
import { QUERY_IDS } from "./query-ids.ts";
import { persistedDocuments } from "./registry.server.ts";
import { sha256Hex } from "~/runtime/sha256.ts";

const names = Object.keys(PERSISTED_DOCUMENTS) as QueryName[];

describe("persisted query ids", () => {
  it.each(names)("%s's id is the SHA-256 of its exact text", (name) => {
    expect(QUERY_IDS[name]).toBe(createHash("sha256").update(PERSISTED_DOCUMENTS[name], "utf8").digest("hex"));
  });

  it("lists every document and nothing else", () => {
    expect(Object.keys(QUERY_IDS).sort()).toEqual([...names].sort());
  });

  it("the registry keys each document by the same hash, and each parses to its named operation", async () => {
    const registry = await persistedDocuments();
    expect(registry.size).toBe(names.length);
    for (const name of names) {
      const entry = registry.get(QUERY_IDS[name]);
      expect(entry?.name).toBe(name);
      expect(entry?.operation.name?.value).toBe(name);
    }
  });

  it("sha256Hex agrees with node:crypto on text outside ASCII", async () => {
    const text = "query Ünïcode { pin }";
    expect(await sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
  });
});
