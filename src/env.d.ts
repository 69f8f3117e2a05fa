/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    ctx: import("~/context/request-context.ts").RequestContext;
    t: import("i18next").TFunction;
    /** The string tables in the page's block, set by the layout (src/i18n/page-strings.ts). */
    pageStrings?: ReadonlySet<import("~/i18n/page-strings.ts").PageStringsName>;
  }
}

declare namespace astroHTML.JSX {
  interface IntrinsicAttributes {
    /**
     * Hydrate the island on first interaction (src/islands/interaction-directive.ts); `"eager"`
     * hydrates at once, still holding a press that lands before React is ready.
     */
    "client:interaction"?: boolean | "eager";
  }
}

// Optional configuration (not in wrangler.toml, so `wrangler types` does not list them): each
// outside service is on only when its variables are set (`wrangler secret put ...`).
interface Env {
  /** Cloudflare Turnstile secret: the human check at sign-up and PUT /v3/sessions/verify/. */
  TURNSTILE_SECRET_KEY?: string;
  /** Cloudflare Turnstile site key (public): the widget on the sign-up page. Both keys turn the check on. */
  TURNSTILE_SITE_KEY?: string;
  /** Facebook Login: sign-up and login with a Facebook access token (Graph debug_token). */
  FACEBOOK_APP_ID?: string;
  FACEBOOK_APP_SECRET?: string;
  /** Sign in with Google: the OAuth client id ID tokens must be issued to. */
  GOOGLE_CLIENT_ID?: string;
  /**
   * An upstream GraphQL origin (https URL): when set, POST /_/graphql/ forwards checked
   * persisted queries there as {queryHash, variables} instead of running them (functions/graphql.ts).
   */
  GRAPHQL_ORIGIN?: string;
  /**
   * Signs the attribution token in a promoted pin's markup (src/attribution/token.server.ts):
   * at least 32 characters, `wrangler secret put ATTRIBUTION_SECRET`. Unset in production,
   * no attribution ping is counted; unset in development, a fixed local secret is used.
   */
  ATTRIBUTION_SECRET?: string;
  /** Every domain this Worker serves, main and country ones, comma-separated ("pinloom.com,pinloom.fr"). */
  CCTLD_HOSTS?: string;
  /**
   * Workers AI (`[ai] binding = "AI"`): translates comments (GET /v3/aggregated_comments/{id}/translate/).
   * Optional: without it a translation answers an empty text; never needed locally.
   */
  AI?: import("~/comments/translate.ts").TranslationAi;
}
