// The body of PUT /v3/users/me/cookie_consent/, apart from the rules (consent.ts): the rules
// run in the browser too, and zod stays out of the pages' script.
import { z } from "zod";
import type { ConsentChoices } from "./consent.ts";

/** Form bodies carry booleans as text; JSON bodies as booleans. */
const flag = z.preprocess((value) => {
  if (value === "true" || value === "on" || value === "1") return true;
  if (value === "false" || value === "off" || value === "0") return false;
  return value;
}, z.boolean());

/** PUT /v3/users/me/cookie_consent/: all three choices, always together. */
export const consentBodySchema = z.strictObject({
  allow_personalization_cookies: flag,
  allow_analytic_cookies: flag,
  allow_marketing_cookies: flag,
});

export function choicesOfBody(body: z.output<typeof consentBodySchema>): ConsentChoices {
  return { personalization: body.allow_personalization_cookies, analytics: body.allow_analytic_cookies, marketing: body.allow_marketing_cookies };
}

