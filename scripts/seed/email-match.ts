// The seeded people's matching hashes (email_match): conversions find a person by the SHA-256
// of their trimmed, lower-cased address, which the app writes when an account is made; seeded
// accounts are written straight to D1, so the seed writes theirs the same way.
import { createHash } from "node:crypto";
import { normalizedEmail } from "../../src/conversions/conversion.ts";

/** One row per person with an address, in the order given. */
export function emailMatchRows(users: ReadonlyArray<{ id: number; email?: string | null }>): Array<{ email_sha256: string; user_id: number }> {
  const rows: Array<{ email_sha256: string; user_id: number }> = [];
  const seen = new Set<string>();
  for (const user of users) {
    if (typeof user.email !== "string" || user.email.trim() === "") continue;
    const hash = createHash("sha256").update(normalizedEmail(user.email)).digest("hex");
    // Addresses are unique without regard to case; a repeat would break the primary key.
    if (seen.has(hash)) continue;
    seen.add(hash);
    rows.push({ email_sha256: hash, user_id: user.id });
  }
  return rows;
}
