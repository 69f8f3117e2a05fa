// The request and response header names of spec 000 §7, in one place: the client fetch layer
// (fetch.ts) sends them, the Worker reads them (src/server/csrf.ts checks X-CSRFToken) and
// stamps APP_VERSION on every answer (src/server/app-version.ts). Header names are
// case-insensitive; these are the spellings we send.

/** The double-submit CSRF token: the `csrftoken` cookie echoed back (src/server/csrf.ts). */
export const CSRF_HEADER = "X-CSRFToken";
export const CSRF_COOKIE = "csrftoken";
/** Marks a call as the app's own script (not a form post or a navigation). */
export const REQUESTED_WITH_HEADER = "X-Requested-With";
export const REQUESTED_WITH = "XMLHttpRequest";
/** The page (path and query) the call was made from. */
export const SOURCE_URL_HEADER = "X-Pinloom-Source-Url";
/** The persisted GraphQL query's name, when the call is one. */
export const QUERY_NAME_HEADER = "X-Pinloom-Query-Name";
/** "active" while the page is visible, "background" when it is hidden. */
export const APP_STATE_HEADER = "X-Pinloom-App-State";
/** Copied from the page's ?force_country= and ?force_country_from_ip= (testing other countries). */
export const FORCE_COUNTRY_HEADER = "X-Pinloom-Force-Country";
export const FORCE_COUNTRY_FROM_IP_HEADER = "X-Pinloom-Force-Country-From-IP";
/** Names one action of one person on a write, the same on each try (src/server/client-request.ts). */
export const CLIENT_REQUEST_HEADER = "X-Client-Request-Id";
/** Every Worker response: the build that answered (src/server/app-version.ts). */
export const APP_VERSION_HEADER = "X-App-Version";

/** Query parameters of the page that become forced-country headers. */
export const FORCE_COUNTRY_PARAMS = [
  ["force_country", FORCE_COUNTRY_HEADER],
  ["force_country_from_ip", FORCE_COUNTRY_FROM_IP_HEADER],
] as const;

export type AppState = "active" | "background";
