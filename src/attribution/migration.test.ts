// The migration that makes source_event_id unique per advertiser, run on a real SQLite holding
// rows written under the old index: every row stays, and the new rule holds afterwards.
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MIGRATIONS = fileURLToPath(new URL("../server/migrations/", import.meta.url));
const PER_ADVERTISER = "0016_attribution_unique_per_advertiser.sql";

function databaseBefore(file: string): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  for (const name of readdirSync(MIGRATIONS).filter((entry) => entry.endsWith(".sql")).sort()) {
    if (name >= file) break;
    db.exec(readFileSync(MIGRATIONS + name, "utf8"));
  }
  return db;
}

const insert = (db: DatabaseSync, id: string, advertiser: string | null) =>
  db
    .prepare(
      `INSERT OR IGNORE INTO attribution_pings (source_event_id, destination, source_event_type, expiry_seconds, priority, advertiser_id, received_at, pin_id)
       VALUES (?, 'https://shop.example', 'click', 604800, '2', ?, 0, 7)`,
    )
    .run(id, advertiser).changes;

describe("attribution ids unique per advertiser (migration)", () => {
  it("keeps every existing row, then takes the same id from two advertisers and one advertiser's id once", () => {
    const db = databaseBefore(PER_ADVERTISER);
    expect(insert(db, "1", "42")).toBe(1);
    expect(insert(db, "2", "43")).toBe(1);
    expect(insert(db, "3", null)).toBe(1);
    // The old rule: an id taken by one advertiser is refused to any other.
    expect(insert(db, "1", "43")).toBe(0);

    db.exec(readFileSync(MIGRATIONS + PER_ADVERTISER, "utf8"));
    const rows = db.prepare("SELECT source_event_id, advertiser_id FROM attribution_pings ORDER BY id").all();
    expect(rows).toEqual([
      { source_event_id: "1", advertiser_id: "42" },
      { source_event_id: "2", advertiser_id: "43" },
      { source_event_id: "3", advertiser_id: null },
    ]);

    expect(insert(db, "1", "43")).toBe(1);
    expect(insert(db, "1", "42")).toBe(0);
    expect(insert(db, "2", "43")).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM attribution_pings").get()).toEqual({ n: 4 });
  });
});
