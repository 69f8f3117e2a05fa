// Sign in with Google: the browser gets an ID token (a JWT signed by Google); the server asks
// Google's tokeninfo endpoint to check the signature and expiry, then checks the claims that
// make it ours: audience = our client id, issuer = Google, not expired.
// https://developers.google.com/identity/sign-in/web/backend-auth#calling-the-tokeninfo-endpoint
// On only when GOOGLE_CLIENT_ID is set.
import { z } from "zod";
import { providerJson, providerNotAvailable, providerRefused, providerUnreachable } from "./provider-errors.ts";

const TOKENINFO_URL = "https://oauth2.googleapis.com/tokeninfo";
const ISSUERS = new Set(["accounts.google.com", "https://accounts.google.com"]);

const claimsSchema = z.object({
  iss: z.string(),
  aud: z.string(),
  sub: z.string().regex(/^\d{1,64}$/),
  exp: z.coerce.number(),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
});

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
}

/** The Google account an ID token proves, or throws (503 not configured, 502, 401). */
export async function verifyGoogleIdToken(env: Env, idToken: string, now = Date.now()): Promise<GoogleIdentity> {
  const clientId = env.GOOGLE_CLIENT_ID;
  if (!clientId) throw providerNotAvailable("google");
  if (idToken.length === 0 || idToken.length > 4096) throw providerRefused("google", "invalid_token");
  const url = new URL(TOKENINFO_URL);
  url.searchParams.set("id_token", idToken);
  const { status, json } = await providerJson("google", url.toString());
  // tokeninfo answers 400 {"error": "invalid_token", ...} for a bad or expired token.
  if (status >= 400 && status < 500) throw providerRefused("google", "invalid_token");
  if (status !== 200) throw providerUnreachable("google", new Error(`tokeninfo answered ${status}`));
  const parsed = claimsSchema.safeParse(json);
  if (!parsed.success) throw providerUnreachable("google", parsed.error);
  const claims = parsed.data;
  if (claims.aud !== clientId) throw providerRefused("google", "audience");
  if (!ISSUERS.has(claims.iss)) throw providerRefused("google", "issuer");
  if (claims.exp * 1000 <= now) throw providerRefused("google", "expired");
  const verified = claims.email_verified === true || claims.email_verified === "true";
  return { sub: claims.sub, email: claims.email ?? null, emailVerified: verified };
}
