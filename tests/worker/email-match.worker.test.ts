// A person's matching hash (email_match) follows their address: written in the batch that makes
// the account, replaced in the one that changes the address, so conversions match who they are now.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { writeEmail } from "~/settings/settings.server.ts";

const hashOf = (userId: number) => env.DB.prepare("SELECT email_sha256 FROM email_match WHERE user_id = ?1").bind(userId).first<{ email_sha256: string }>();

describe("the matching hash of a person's address", () => {
  it("is written when the account is made and replaced when the address changes", async () => {
    const fields = { email: "Match.Me@pinloom.test", username: "match_me", password: "Sunny-Day#42", first_name: "Match", country: "US", locale: "en_US", referrer: "" };
    expect((await new Browser().form("/v3/register/email/handshake/", fields)).status).toBe(200);
    const user = await env.DB.prepare("SELECT id FROM users WHERE username = 'match_me'").first<{ id: number }>();
    // sha256("match.me@pinloom.test"), from `printf %s match.me@pinloom.test | sha256sum`.
    expect(await hashOf(user!.id)).toEqual({ email_sha256: "02c707c0e5adc044eff192c5105acb3b3e975c8eeeabaa8a927aad7b3b9368ad" });
    await writeEmail(env.DB, user!.id, "moved@pinloom.test");
    // sha256("moved@pinloom.test").
    expect(await hashOf(user!.id)).toEqual({ email_sha256: "3c6047b22196e1ab9481aa57ea36e8e5ef0b5188bf59464285c94d05b5a02a58" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM email_match WHERE user_id = ?1").bind(user!.id).first()).toEqual({ n: 1 });
  });
});
