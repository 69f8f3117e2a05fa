// The door of every business hub page: a signed-in, full-login viewer (anyone else goes to log
// in and comes back), and for a business's pages the business as the viewer's role sees it, or
// null when it is not theirs to see (the page answers 404, as the API does).
import type { AstroGlobal } from "astro";
import { env } from "cloudflare:workers";
import { withNext } from "~/accounts/safe-next.ts";
import { isDomainError } from "~/domain/errors.ts";
import { idOption } from "~/boards/options.ts";
import { getBusiness, type BusinessSummary } from "./business.server.ts";

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
