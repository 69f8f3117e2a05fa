// The experience platform's /v3 call (spec 002 §7), mounted at /v3:
//   PUT /v3/experiences/{placement:experience}/trigger/   {extra_context?}
// makes a triggerable experience eligible for the viewer (a person, or a signed-out browser by
// its unauthId). The resources (UserExperience*Resource) are in resources/experience-resources.ts;
// both read the viewer the same way, here.
import { Hono, type Context } from "hono";
import { cookieValue } from "~/context/cookies.ts";
import { asksConsent, consentState, CONSENT_COOKIE, consentRequired } from "~/consent/consent.ts";
import { PIN_GRID_FOOTER_EXPERIMENT } from "~/experiments/experiments.ts";
import { triggerBody } from "~/experiences/experiences.ts";
import { recordChange, type Viewer } from "~/experiences/experiences.server.ts";
import { FORCE_COUNTRY_HEADER } from "~/runtime/headers.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";

export const experienceRoutes = new Hono<AppEnv>();

/**
 * The viewer as the platform's rules need them. Consent is asked as the consent calls decide it
 * (the account's choice or the browser's cookie; a country forced for testing only adds the
 * question); the footer group is the footer experiment's.
 */
export function experienceViewer(c: Context<AppEnv>): Viewer {
  const ctx = c.var.ctx;
  const session = ctx.session;
  const state = consentState(ctx.country, session?.user ?? null, cookieValue(c.req.header("cookie") ?? null, CONSENT_COOKIE));
  const forced = consentRequired(c.req.header(FORCE_COUNTRY_HEADER)?.slice(0, 2) ?? "");
  return {
    userId: session?.user.id ?? null,
    fullLogin: ctx.viewerType === "AUTH",
    visitorId: session ? null : ctx.unauthId,
    isBot: ctx.isBot,
    consentAsked: asksConsent({ ...state, required: state.required || forced }),
    hideFooterGroup: ctx.experiments[PIN_GRID_FOOTER_EXPERIMENT] === "hide_footer",
  };
}

experienceRoutes.put("/experiences/:placed/trigger/", async (c) => {
  const input = await readParsed(c, triggerBody);
  return success(c, await recordChange(c.env.DB, experienceViewer(c), c.req.param("placed"), "triggered", { extraContext: input.extra_context }));
});
