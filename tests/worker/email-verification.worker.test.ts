// E-mail verification through the built Worker: each resend puts its mail in the outbox in the
// token's own batch (never dropped: with no mail transport, as here in production mode, it
// stays pending and counted), resends are bounded, the link verifies once and not after it
// expires, and it lands on its own page.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { RATE_RULES } from "~/server/rate-limit.server.ts";
import { Browser, USERS, seedAccounts } from "./accounts-helpers.ts";
import { fetchWorker } from "./fixtures.ts";

interface OutboxRow {
  kind: string;
  to_address: string;
  subject: string;
  body: string;
  sent_at: number | null;
  attempts: number;
  last_error: string | null;
}

const outbox = async (userId: number) =>
  (await env.DB.prepare("SELECT kind, to_address, subject, body, sent_at, attempts, last_error FROM mail_outbox WHERE user_id = ?1 ORDER BY id").bind(userId).all<OutboxRow>()).results;

const verified = async (userId: number) => (await env.DB.prepare("SELECT email_verified FROM users WHERE id = ?1").bind(userId).first<{ email_verified: number }>())?.email_verified;

/** The link a mail carries, as a path on this site. */
function linkIn(body: string): string {
  const match = /https?:\/\/[^/\s]+(\/v3\/users\/email\/verify\/\?token=[A-Za-z0-9_-]+)/.exec(body);
  if (!match) throw new Error(`no verification link in: ${body}`);
  return match[1]!;
}

beforeAll(async () => {
  await seedAccounts();
});

describe("resend", () => {
  it("puts the mail, with its link, in the outbox; without a transport it stays pending and counted, never dropped", async () => {
    const ben = new Browser();
    await ben.login(USERS.ben.username);
    expect((await ben.fetch("/v3/users/email/verify/resend/", { method: "POST" })).status).toBe(200);
    const deadline = Date.now() + 5_000;
    let rows = await outbox(USERS.ben.id);
    while (rows[0]?.attempts === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await outbox(USERS.ben.id);
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "email_verify", to_address: USERS.ben.email, subject: "Verify your email for Pinloom", sent_at: null, attempts: 1, last_error: "no mail transport is configured" });
    expect(rows[0]!.body).toContain("Hi ben,");

    // The mailed link verifies the address once; the second use lands on the expired-link page.
    const link = linkIn(rows[0]!.body);
    const first = await fetchWorker(link, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/email-verified/?result=verified");
    expect(await verified(USERS.ben.id)).toBe(1);
    const again = await fetchWorker(link, { redirect: "manual" });
    expect(again.headers.get("location")).toBe("/email-verified/?result=invalid");
  });

  it("is bounded per account: past the limit a 429, and no mail is queued for it", async () => {
    const noah = new Browser();
    await env.DB.prepare("UPDATE users SET has_mfa_enabled = 0 WHERE id = ?1").bind(USERS.noah.id).run();
    await noah.login(USERS.noah.username);
    const statuses: number[] = [];
    for (let index = 0; index <= RATE_RULES.emailResendPerAccount.limit; index += 1) {
      statuses.push((await noah.fetch("/v3/users/email/verify/resend/", { method: "POST" })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await outbox(USERS.noah.id)).toHaveLength(5);
  });
});

describe("the link", () => {
  it("does not verify once it has expired", async () => {
    const cal = new Browser();
    await cal.login(USERS.cal.username);
    expect((await cal.fetch("/v3/users/email/verify/resend/", { method: "POST" })).status).toBe(200);
    const [row] = await outbox(USERS.cal.id);
    await env.DB.prepare("UPDATE auth_tokens SET expires_at = ?2 WHERE user_id = ?1 AND purpose = 'email_verify'").bind(USERS.cal.id, Date.now() - 1).run();
    const response = await fetchWorker(linkIn(row!.body), { redirect: "manual" });
    expect(response.headers.get("location")).toBe("/email-verified/?result=invalid");
    expect(await verified(USERS.cal.id)).toBe(0);
  });

  it("lands on a page that says what happened", async () => {
    const done = await fetchWorker("/email-verified/?result=verified");
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Your email is verified");
    const expired = await fetchWorker("/email-verified/?result=invalid");
    expect(await expired.text()).toContain("The verification link has expired or was already used.");
  });
});
