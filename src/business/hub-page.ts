// The door of every business hub page: a signed-in, full-login viewer (anyone else goes to log
// in and comes back), and for a business's pages the business as the viewer's role sees it, or
// null when it is not theirs to see (the page answers 404, as the API does).
import type { AstroGlobal } from "astro";
import { env } from "cloudflare:workers";
import { withNext } from "~/accounts/safe-next.ts";
import { isDomainError } from "~/domain/errors.ts";
import { idOption } from "~/boards/options.ts";
import { getBusiness, type BusinessSummary } from "./business.server.ts";
import { GUEST_PAGES, hubGuest, type HubGuest } from "./hub-access.server.ts";
import type { ShortcutId } from "./navigation.ts";

export interface HubViewer {
  userId: number;
}

export function hubViewer(astro: AstroGlobal): HubViewer | Response {
  const { ctx } = astro.locals;
  if (ctx.viewerType !== "AUTH" || !ctx.session) return astro.redirect(withNext("/login/", astro.url.pathname + astro.url.search), 302);
  return { userId: ctx.session.user.id };
}

/** The business named by the path, or null (with the page's status set to 404). */
export async function hubBusiness(astro: AstroGlobal, userId: number): Promise<BusinessSummary | null> {
  const id = idOption.safeParse(astro.params["businessId"]);
  try {
    if (id.success) return await getBusiness(env.DB, userId, id.data);
  } catch (error) {
    if (!isDomainError(error, "not_found") && !isDomainError(error, "forbidden")) throw error;
  }
  astro.response.status = 404;
  return null;
}

/**
 * For a page a non-member may open: how the viewer works in the business named by the path
 * (hub-access.server.ts), when it offers them this page; the page's status goes back to 200
 * then. Call only after hubBusiness found no membership.
 */
export async function hubGuestPage(astro: AstroGlobal, userId: number, page: ShortcutId): Promise<HubGuest | null> {
  const id = idOption.safeParse(astro.params["businessId"]);
  const guest = id.success ? await hubGuest(env.DB, userId, id.data) : null;
  if (!guest || !GUEST_PAGES[guest.via].includes(page)) return null;
  astro.response.status = 200;
  return guest;
}
