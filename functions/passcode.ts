// Parental passcode and protected settings calls under /v3 (spec 000 §2, §4, §5, §6).
//
// Every write here: a full (not limited-login) session, the body parsed whole (400 naming the
// field and reason), then requirePasscode, then ONE D1 batch. Body checks run before the
// passcode check so a typo in a form never costs a passcode try; conflicts that could reveal
// other accounts (a taken email) are answered only after the passcode.
import { requireFullViewer } from "~/accounts/guards.server.ts";
import { profilePaths } from "~/boards/write.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { Hono, type Context } from "hono";
import { z } from "zod";
import {
  PASSCODE_ERRORS,
  anonymizeEmail,
  isValidEmail,
  stripWhitespace,
  validatePasscode,
  validatePasscodeSetup,
  type PasscodeSetupErrors,
} from "~/accounts/passcode.ts";
import {
  assertPasscodeCheck,
  checkPasscode,
  disablePasscode,
  enablePasscode,
  hashPasscode,
  isEnabled,
  passcodeRequired,
  passcodeState,
  requirePasscode,
  resetPasscode,
} from "~/accounts/passcode.server.ts";
import { hashPassword, verifyPassword } from "~/accounts/password.ts";
import { readFields } from "~/server/body.ts";
import type { Session } from "~/accounts/session.server.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { badRequest, zodProblems, type FieldProblem } from "~/domain/errors.ts";
import { enforce, type RateRule } from "~/server/rate-limit.server.ts";
import { AUDIENCES, SETTINGS_GROUPS, passwordProblem, type SettingsGroup } from "~/settings/settings.ts";
import { emailTakenByOther, passwordHashOf, writeEmail, writePassword, writeProfilePrivacy, writeSettingsGroup } from "~/settings/settings.server.ts";

export const passcodeRoutes = new Hono<AppEnv>();

/** Account-password guesses behind the passcode reset and the password change. */
const PASSWORD_CHECK_RULE: RateRule = { name: "settings-password:account", limit: 10, windowMs: 15 * 60_000 };
const MAX_FIELD = 1024;

const ok = (c: Context<AppEnv>, data: Record<string, unknown>) =>
  c.json({ status: "success", code: 0, message: "ok", data }, 200, { "Cache-Control": "private, no-store" });

/** Settings belong to full logins: signed out 401, limited login 403 code 17 (src/accounts/guards.server.ts). */
const fullSession = (c: Context<AppEnv>) => requireFullViewer(c.var.ctx);

function parse<T extends z.ZodType>(schema: T, body: Record<string, unknown>): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest(zodProblems(result.error, "", body));
  return result.data;
}

/** Form bodies carry booleans as text; JSON bodies as booleans. */
const flag = z.preprocess((value) => {
  if (value === "true" || value === "on" || value === "1") return true;
  if (value === "false" || value === "off" || value === "0") return false;
  return value;
}, z.boolean());
const text = z.string().max(MAX_FIELD);
const passcodeField = { passcode: text.optional() };

const setupErrorsToProblems = (errors: PasscodeSetupErrors): FieldProblem[] =>
  Object.entries(errors).map(([field, key]) => ({ field, reason: `settings:${key}` }));

// --- The passcode itself -------------------------------------------------------------------

const setupSchema = z.strictObject({
  passcode: text,
  confirm_passcode: text,
  backup_email: text,
  confirm_backup_email: text,
  /** The passcode in force, when changing one. */
  current_passcode: text.optional(),
});

/** Set up a passcode, or change it (the current one is then required) with its backup email. */
passcodeRoutes.post("/users/parental_passcode/", async (c) => {
  const session = fullSession(c);
  const body = parse(setupSchema, await readFields(c));
  const errors = validatePasscodeSetup(body, session.user.email);
  if (Object.keys(errors).length > 0) throw badRequest(setupErrorsToProblems(errors));
  await requirePasscode(c.env.DB, c.var.ctx, body.current_passcode, "current_passcode");
  const email = body.backup_email.trim();
  const hash = await hashPasscode(stripWhitespace(body.passcode));
  await enablePasscode(c.env.DB, session.user.id, hash, email, anonymizeEmail(email));
  return ok(c, { is_parental_control_passcode_enabled: true, parental_control_anonymized_email: anonymizeEmail(email) });
});

const notEnabled = () => new ApiError(409, ErrorCode.Conflict, { message: "settings:passcode.api.notEnabled", extraData: { field: "passcode" } });

/** Check a passcode (the full-page flow and the modal use it before a protected step). */
passcodeRoutes.post("/users/parental_passcode/verify/", async (c) => {
  const session = fullSession(c);
  const body = parse(z.strictObject(passcodeField), await readFields(c));
  const value = stripWhitespace(body.passcode ?? "");
  if (!isEnabled(await passcodeState(c.env.DB, session.user.id))) throw notEnabled();
  if (value === "") throw passcodeRequired();
  const problem = validatePasscode(value);
  if (problem) throw badRequest([{ field: "passcode", reason: `settings:${problem}` }]);
  const result = await checkPasscode(c.env.DB, session.user.id, value);
  if (result.status === "not_enabled") throw notEnabled();
  assertPasscodeCheck(result);
  return ok(c, { verified: true });
});

/** Turn the passcode off: needs the passcode itself. */
passcodeRoutes.delete("/users/parental_passcode/", async (c) => {
  const session = fullSession(c);
  const body = parse(z.strictObject(passcodeField), await readFields(c));
  if (!isEnabled(await passcodeState(c.env.DB, session.user.id))) throw notEnabled();
  await requirePasscode(c.env.DB, c.var.ctx, body.passcode);
  await disablePasscode(c.env.DB, session.user.id);
  return ok(c, { is_parental_control_passcode_enabled: false });
});

/** Checks the account password, throttled per account; a wrong one is a 400 on `field`. */
export async function assertAccountPassword(c: Context<AppEnv>, session: Session, password: string, field: string): Promise<void> {
  await enforce(c.env.DB, PASSWORD_CHECK_RULE, session.user.id);
  const hash = await passwordHashOf(c.env.DB, session.user.id);
  if (!hash || !(await verifyPassword(password, hash))) {
    throw badRequest([{ field, reason: "settings:passcode.api.wrongPassword" }]);
  }
}

const resetSchema = z.strictObject({ password: text, passcode: text, confirm_passcode: text });

/** Reset with the account password: a new passcode, the lock lifted, the backup email kept. */
passcodeRoutes.post("/users/parental_passcode/reset/", async (c) => {
  const session = fullSession(c);
  const body = parse(resetSchema, await readFields(c));
  const problems: FieldProblem[] = [];
  if (body.password === "") problems.push({ field: "password", reason: `settings:${PASSCODE_ERRORS.required}` });
  const passcodeError = validatePasscode(body.passcode);
  if (passcodeError) problems.push({ field: "passcode", reason: `settings:${passcodeError}` });
  const confirm = stripWhitespace(body.confirm_passcode);
  if (confirm === "") problems.push({ field: "confirm_passcode", reason: `settings:${PASSCODE_ERRORS.required}` });
  else if (confirm !== stripWhitespace(body.passcode)) problems.push({ field: "confirm_passcode", reason: `settings:${PASSCODE_ERRORS.passcodesMatch}` });
  if (problems.length > 0) throw badRequest(problems);
  if (!isEnabled(await passcodeState(c.env.DB, session.user.id))) throw notEnabled();
  await assertAccountPassword(c, session, body.password, "password");
  const hash = await hashPasscode(stripWhitespace(body.passcode));
  await resetPasscode(c.env.DB, session.user.id, hash);
  return ok(c, { is_parental_control_passcode_enabled: true, locked: false });
});

// --- Protected settings (spec 000 §2 settings groups) --------------------------------------

const audience = z.enum(AUDIENCES);
const groupRequestSchemas = {
  permissions: z.strictObject({ comments: audience, show_reactions: flag, allow_saves: flag, ...passcodeField }),
  mentions: z.strictObject({ from: audience, ...passcodeField }),
  messages: z.strictObject({ from: audience, contact_requests: flag, read_receipts: flag, ...passcodeField }),
} satisfies Record<SettingsGroup, z.ZodType>;

for (const group of Object.keys(groupRequestSchemas) as SettingsGroup[]) {
  passcodeRoutes.put(`/users/settings/${group}/`, async (c) => {
    const session = fullSession(c);
    const { passcode, ...values } = parse(groupRequestSchemas[group], await readFields(c));
    const stored = SETTINGS_GROUPS[group].parse(values);
    assertAllowedForAge(session, values);
    await requirePasscode(c.env.DB, c.var.ctx, passcode);
    await writeSettingsGroup(c.env.DB, session.user.id, group, stored);
    return ok(c, { [group]: stored });
  });
}

/**
 * The under-16 restriction (spec 000 §6 restricting flags): the profile stays private, and
 * nobody the account does not follow may mention or message it (comments, likewise, from
 * people it follows at most). Under-18 accounts are candidates for the passcode instead.
 */
function assertAllowedForAge(session: Session, values: Record<string, unknown>): void {
  if (session.user.is_under_16 !== 1) return;
  const open = Object.entries(values).filter(([field, value]) => (field === "from" || field === "comments") && value === "anyone");
  if (open.length > 0) throw badRequest(open.map(([field]) => ({ field, reason: "settings:settings.under16.audience" })));
}

passcodeRoutes.put("/users/settings/privacy/", async (c) => {
  const session = fullSession(c);
  const body = parse(z.strictObject({ is_private_profile: flag, ...passcodeField }), await readFields(c));
  if (!body.is_private_profile && session.user.is_under_16 === 1) throw badRequest([{ field: "is_private_profile", reason: "settings:settings.under16.private" }]);
  await requirePasscode(c.env.DB, c.var.ctx, body.passcode);
  await writeProfilePrivacy(c.env.DB, session.user.id, body.is_private_profile);
  // Signed-out renders of the profile and the home feed (which lists the profile's pins) are
  // dropped from this location's edge cache at once; see docs/decisions.md for the rest.
  purgePages(c, ["/", ...profilePaths(session.user.username)]);
  return ok(c, { is_private_profile: body.is_private_profile });
});

const emailTaken = () =>
  new ApiError(409, ErrorCode.Conflict, { message: "settings:settings.email.taken", extraData: { field: "email" } });

passcodeRoutes.put("/users/settings/email/", async (c) => {
  const session = fullSession(c);
  const body = parse(z.strictObject({ email: text, current_password: text.optional(), ...passcodeField }), await readFields(c));
  const email = body.email.trim();
  if (email === "") throw badRequest([{ field: "email", reason: `settings:${PASSCODE_ERRORS.required}` }]);
  if (!isValidEmail(email)) throw badRequest([{ field: "email", reason: `settings:${PASSCODE_ERRORS.invalidEmail}` }]);
  if (email.toLowerCase() === session.user.email.toLowerCase()) throw badRequest([{ field: "email", reason: "settings:settings.email.same" }]);
  // The login address is the key to the account: changing it asks for the password, as a
  // password change does (a signed-in browser alone, or a switched-to account, is not enough).
  const hasPassword = session.user.has_password === 1;
  if (hasPassword && !body.current_password) throw badRequest([{ field: "current_password", reason: `settings:${PASSCODE_ERRORS.required}` }]);
  await requirePasscode(c.env.DB, c.var.ctx, body.passcode);
  if (hasPassword) await assertAccountPassword(c, session, body.current_password ?? "", "current_password");
  if (await emailTakenByOther(c.env.DB, session.user.id, email)) throw emailTaken();
  try {
    await writeEmail(c.env.DB, session.user.id, email);
  } catch (error) {
    // Another account took the address between the check and the write.
    if (String(error).includes("UNIQUE")) throw emailTaken();
    throw error;
  }
  return ok(c, { email });
});

passcodeRoutes.put("/users/settings/password/", async (c) => {
  const session = fullSession(c);
  const body = parse(z.strictObject({ current_password: text, new_password: text.max(256), ...passcodeField }), await readFields(c));
  const problems: FieldProblem[] = [];
  if (body.current_password === "") problems.push({ field: "current_password", reason: `settings:${PASSCODE_ERRORS.required}` });
  const rule = passwordProblem(body.new_password);
  if (rule) problems.push({ field: "new_password", ...rule });
  if (problems.length > 0) throw badRequest(problems);
  await requirePasscode(c.env.DB, c.var.ctx, body.passcode);
  await assertAccountPassword(c, session, body.current_password, "current_password");
  const hash = await hashPassword(body.new_password);
  await writePassword(c.env.DB, session.user.id, session.id, hash);
  return ok(c, { has_password: true });
});
