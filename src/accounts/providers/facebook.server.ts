// Facebook Login: the browser's SDK gives a user access token; the server asks the Graph API's
// debug_token endpoint, with our app token (APP_ID|APP_SECRET), whether that token is valid,
// was issued to OUR app, and belongs to the facebook_id the client claims.
// https://developers.facebook.com/docs/graph-api/reference/debug_token/
// On only when FACEBOOK_APP_ID and FACEBOOK_APP_SECRET are set.
import { z } from "zod";
import { providerJson, providerNotAvailable, providerRefused, providerUnreachable } from "./provider-errors.ts";

const GRAPH_URL = "https://graph.facebook.com/v21.0";

const debugTokenSchema = z.union([
  z.object({
    data: z.object({
      app_id: z.string().optional(),
      is_valid: z.boolean(),
      user_id: z.string().optional(),
      expires_at: z.number().optional(),
      error: z.object({ message: z.string().optional(), code: z.number().optional() }).optional(),
    }),
  }),
  z.object({ error: z.object({ message: z.string().optional(), type: z.string().optional(), code: z.number().optional() }) }),
]);

/** Throws unless `accessToken` is a live token of our app for Facebook user `facebookId`. */
export async function verifyFacebookToken(env: Env, facebookId: string, accessToken: string, now = Date.now()): Promise<void> {
  const appId = env.FACEBOOK_APP_ID;
  const appSecret = env.FACEBOOK_APP_SECRET;
  if (!appId || !appSecret) throw providerNotAvailable("facebook");
  if (accessToken.length > 4096) throw providerRefused("facebook", "token-too-long");
  const url = new URL(`${GRAPH_URL}/debug_token`);
  url.searchParams.set("input_token", accessToken);
  url.searchParams.set("access_token", `${appId}|${appSecret}`);
  const { json } = await providerJson("facebook", url.toString());
  const parsed = debugTokenSchema.safeParse(json);
  if (!parsed.success) throw providerUnreachable("facebook", parsed.error);
  // A top-level error means Facebook refused our app token: a configuration fault, not the user's.
  if (!("data" in parsed.data)) throw providerUnreachable("facebook", new Error(parsed.data.error.message ?? "graph error"));
  const data = parsed.data.data;
  if (!data.is_valid) throw providerRefused("facebook", "invalid-token");
  if (data.app_id !== appId) throw providerRefused("facebook", "other-app");
  if (data.user_id !== facebookId) throw providerRefused("facebook", "other-user");
  if (data.expires_at !== undefined && data.expires_at !== 0 && data.expires_at * 1000 <= now) throw providerRefused("facebook", "expired");
}
