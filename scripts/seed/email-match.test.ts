import { describe, expect, it } from "vitest";
import { emailMatchRows } from "./email-match.ts";

describe("seeded matching hashes", () => {
  it("hash the trimmed, lower-cased address and skip people without one", () => {
    // sha256("ada@example.com"), written out from `printf %s ada@example.com | sha256sum`.
    expect(emailMatchRows([{ id: 7, email: "  Ada@Example.com " }, { id: 8, email: null }])).toEqual([
      { email_sha256: "b5fc85e55755f9e0d030a10ab4429b6b2944855f9a0d60077fe832becbc41d72", user_id: 7 },
    ]);
  });
});
