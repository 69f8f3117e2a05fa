// The pin page's preloaded queries, embedded in its HTML (spec 000 §7: "Embedded query
// responses"): CloseupPageQuery, CloseupDetailQuery and the first page of
// CloseupRelatedModulesFeedQuery, executed by graphql-js over the lookup the page already
// made, so embedding costs no round trip. The browser's client (client.ts) reads them from its
// response cache instead of asking.
import type { RequestContext } from "~/context/request-context.ts";
import type { PinLookup } from "~/pins/pins.server.ts";
import { viewerIdOf } from "~/users/user.ts";
import type { QueryName } from "./documents/index.ts";
import { checkVariables, documentFor, executeLocally } from "./execute.server.ts";
import type { EmbeddedQueryResponse, GraphqlVariables } from "./protocol.ts";
import { QUERY_IDS } from "./query-ids.ts";
import { relatedKey } from "./schema.server.ts";

/**
 * isDesktop of a signed-out render. Signed-out pages are one shared cached copy whose key has
 * no device class, so their embedded answers must not depend on the User-Agent: they always
 * carry the desktop variant (the first comments are public and already in the page's HTML).
 */
export const SIGNED_OUT_IS_DESKTOP = true;

/** Variables of the pin page's preloaded queries, as the client will ask them. */
export function pinPageQueries(ctx: Pick<RequestContext, "isAuthenticated" | "userAgent">, pinId: string, relatedCursor: string | null): Array<[QueryName, GraphqlVariables]> {
  // Signed in, the page is private (never edge-cached), so it may follow the device.
  const isDesktop = ctx.isAuthenticated ? !ctx.userAgent.isMobile && !ctx.userAgent.isTablet : SIGNED_OUT_IS_DESKTOP;
  return [
    ["CloseupPageQuery", { pinId, isAuth: ctx.isAuthenticated }],
    ["CloseupDetailQuery", { pinId, isAuth: ctx.isAuthenticated, isDesktop }],
    ["CloseupRelatedModulesFeedQuery", relatedCursor ? { pinId, cursor: relatedCursor } : { pinId }],
  ];
}

export async function embeddedPinQueries(
  db: D1Database,
  ctx: Pick<RequestContext, "isAuthenticated" | "userAgent" | "session">,
  lookup: Extract<PinLookup, { status: "found" }>,
  relatedCursor: string | null,
): Promise<EmbeddedQueryResponse[]> {
  const pinId = lookup.pin.id;
  const context = {
    db,
    viewerId: viewerIdOf(ctx),
    pins: new Map([[pinId, Promise.resolve<PinLookup>(lookup)]]),
    related: new Map([[relatedKey(pinId, relatedCursor), Promise.resolve(lookup.pin.related)]]),
  };
  return Promise.all(
    pinPageQueries(ctx, pinId, relatedCursor).map(async ([queryName, variables]) => {
      const document = await documentFor(QUERY_IDS[queryName]);
      checkVariables(document, variables);
      return { queryName, variables, result: await executeLocally(document, variables, context) };
    }),
  );
}
