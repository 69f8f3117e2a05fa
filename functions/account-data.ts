// A person's own account data under /v3: the language and country they use, the download of
// everything Pinloom holds about them, and deleting the account.
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireFullViewer } from "~/accounts/guards.server.ts";
import { requirePasscode } from "~/accounts/passcode.server.ts";
import { clearCookie, SESSION_COOKIE } from "~/accounts/session.server.ts";
import { accountArchive } from "~/account-data/archive.server.ts";
import { deleteAccount } from "~/account-data/delete.server.ts";
import { readAccountExport } from "~/account-data/export.server.ts";
import { boardPath, profilePaths } from "~/boards/write.server.ts";
import { LOCALE_COOKIE } from "~/context/request-context.ts";
import { LOCALES, parseLocale } from "~/context/locales.ts";
import { badRequest, type FieldProblem } from "~/domain/errors.ts";
import { parseCountry } from "~/regional/regional.ts";
import { saveLocaleAndCountry } from "~/regional/regional.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { enforce, type RateRule } from "~/server/rate-limit.server.ts";
import { assertAccountPassword } from "./passcode.ts";

export const accountDataRoutes = new Hono<AppEnv>();

const MAX_FIELD = 1024;
/** A download reads every list and streams the media: a few a day is plenty, a loop is not. */
const EXPORT_RULE: RateRule = { name: "account-export:user", limit: 5, windowMs: 60 * 60_000 };
const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;


// ── Language and country ──────────────────────────────────────────────────────────────────

const localeSchema = z.strictObject({ locale: z.string().max(16), country: z.string().max(8) });

/**
 * Saves the account's language and country and sets the locale cookie the pages read
 * (src/context/request-context.ts), so the next page is in the new language at once.
 */
accountDataRoutes.put("/users/settings/locale/", async (c) => {
  const session = requireFullViewer(c.var.ctx);
  const body = await readParsed(c, localeSchema);
  const locale = parseLocale(body.locale);
  const country = parseCountry(body.country);
  const problems: FieldProblem[] = [];
  // Exactly one of the 45 ids, in either form: "fr-CA" is not a choice this list offers.
  if (locale === null || locale.toLowerCase() !== body.locale.trim().replace(/-/g, "_").toLowerCase()) {
    problems.push({ field: "locale", reason: "validation.invalidValue", values: { values: LOCALES.join(", ") } });
  }
  if (country === null) problems.push({ field: "country", reason: "validation.invalidFormat" });
  if (problems.length > 0 || locale === null || country === null) throw badRequest(problems);
  await saveLocaleAndCountry(c.env.DB, session.user.id, locale, country);
  const cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_S}; Secure; SameSite=Lax`;
  return success(c, { locale, country }, [cookie]);
});

// ── The download ──────────────────────────────────────────────────────────────────────────

accountDataRoutes.get("/users/me/export/", async (c) => {
  const session = requireFullViewer(c.var.ctx);
  await enforce(c.env.DB, EXPORT_RULE, session.user.id);
  const data = await readAccountExport(c.env.DB, session.user.id);
  const { stream, done } = accountArchive(data, c.env.MEDIA);
  c.executionCtx.waitUntil(done.catch((error: unknown) => console.error(JSON.stringify({ event: "account_export_failed", user_id: session.user.id, error: String(error) }))));
  return new Response(stream, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="pinloom-${session.user.username}.zip"`,
      "Cache-Control": "private, no-store",
    },
  });
});

// ── Deleting the account ──────────────────────────────────────────────────────────────────

/** Form bodies carry booleans as text; JSON bodies as booleans. */
const flag = z.preprocess((value) => (value === "true" || value === "on" || value === "1" ? true : value === "false" || value === "off" || value === "0" ? false : value), z.boolean());
const deleteSchema = z.strictObject({ confirm: flag.optional(), password: z.string().max(MAX_FIELD).optional(), passcode: z.string().max(MAX_FIELD).optional() });

/**
 * A protected change, as the email and password changes are: a full login, the parental
 * passcode when one is set, and the account password when it has one; then one batch.
 */
async function deleteOwnAccount(c: Context<AppEnv>): Promise<Response> {
  const session = requireFullViewer(c.var.ctx);
  const body = await readParsed(c, deleteSchema);
  const problems: FieldProblem[] = [];
  if (body.confirm !== true) problems.push({ field: "confirm", reason: "personal:data.mustConfirm" });
  const hasPassword = session.user.has_password === 1;
  if (hasPassword && !body.password) problems.push({ field: "password", reason: "validation.required" });
  if (problems.length > 0) throw badRequest(problems);
  await requirePasscode(c.env.DB, c.var.ctx, body.passcode);
  if (hasPassword) await assertAccountPassword(c, session, body.password ?? "", "password");
  const username = session.user.username;
  const deleted = await deleteAccount(c.env.DB, session.user.id);
  // Their signed-out pages leave this location's edge cache now: the profile, boards and pins.
  purgePages(c, ["/", ...profilePaths(username), ...deleted.boardSlugs.map((slug) => boardPath(username, slug)), ...deleted.pinIds.map((id) => `/pin/${id}/`)]);
  return success(c, { deleted: true }, [clearCookie(SESSION_COOKIE)]);
}

accountDataRoutes.delete("/users/me/", deleteOwnAccount);
