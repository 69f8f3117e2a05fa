// Account calls of spec 000 §7 under /v3: handshakes, the session exchange, the signed-in
// user, e-mail verification, the account switcher's batch, fingerprints and the human check.
// Answers follow the spec's shapes: {status, code, message, data} and the session payload.
import { Hono, type Context } from "hono";
import { z } from "zod";
import { sessionPayload, userRow } from "~/accounts/answer.server.ts";
import { failureWithData, success } from "~/server/answer.ts";
import { readFields } from "~/server/body.ts";
import { requireFullViewer, requireSession } from "~/accounts/guards.server.ts";
import { invalidToken, issueEmailVerification, issueToken, peekToken, reissueToken, spendWith, verifyEmail } from "~/accounts/handshake.server.ts";
import { mfaLogin, passwordLogin, providerLogin, userIdByFacebook, userIdByGoogle, type LoginOutcome } from "~/accounts/login.server.ts";
import { verifyFacebookToken } from "~/accounts/providers/facebook.server.ts";
import { verifyGoogleIdToken } from "~/accounts/providers/google.server.ts";
import { verifyTurnstile } from "~/accounts/providers/turnstile.server.ts";
import { parseSignup, prepareUser, runSignupBatch } from "~/accounts/register.server.ts";
import { clearCookie, deviceSessions, markSessionVerified, recordFingerprint, SESSION_COOKIE, signOutEverywhere, startSession } from "~/accounts/session.server.ts";
import { loginSchema, mfaLoginSchema, REGISTRATION_TYPES, type RegistrationType } from "~/accounts/signup.ts";
import { deviceIdOf, switcherRows, toSwitcherEntry } from "~/accounts/switcher.server.ts";
import type { AppEnv } from "~/server/context.ts";
import { clientIp, signupOrigin } from "~/server/client-ip.ts";
import { holds } from "~/visibility/rules.ts";
import { badRequest, isDomainError, zodProblems } from "~/domain/errors.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { answerOnce, claimOf } from "~/server/client-request.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { deliverPending, outboxStatement } from "~/mail/outbox.server.ts";
import { EMAIL_VERIFIED_PATH } from "~/mail/paths.ts";
import { autofillFlags } from "~/leads/lead-form.ts";
import { accountConsentCookies, loginConsent, signupConsent } from "./consent.ts";

export const accountRoutes = new Hono<AppEnv>();

/** Parses fields with a schema; 400 naming each field otherwise. */
function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  return parsed.data;
}

function answerLogin(c: Context<AppEnv>, outcome: LoginOutcome): Response {
  if (outcome.kind === "token") return success(c, { token: outcome.token });
  // Spec 000 §7: 409 is one of the handshake's statuses; the challenge rides in data.token.
  return failureWithData(c, new ApiError(409, ErrorCode.MfaRequired, { message: "accounts:login.mfaRequired" }), { token: outcome.challenge });
}

// ── Handshakes ────────────────────────────────────────────────────────────────────────────

accountRoutes.post("/register/:type/handshake/", async (c) => {
  const pathType = c.req.param("type");
  if (!(REGISTRATION_TYPES as readonly string[]).includes(pathType)) {
    throw badRequest([{ field: "registration_type", reason: "validation.invalidValue", values: { values: REGISTRATION_TYPES.join(", ") } }]);
  }
  // The install id names the browser install (spec §7); checked for shape, not stored yet.
  const installId = c.req.header("x-pinloom-install-id");
  if (installId !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(installId)) {
    throw badRequest([{ field: "X-Pinloom-Install-Id", reason: "validation.invalidFormat" }]);
  }
  const body = parseSignup(await readFields(c), c.var.ctx.country);
  const db = c.env.DB;
  // A sign-up sent again with the same client request id (its answer was lost) creates no
  // second account. Its token is not stored for the replay: the replay gets a fresh one while
  // the first was never used (src/accounts/handshake.server.ts reissueToken).
  const answer = await answerOnce(
    c,
    async () => {
      const prepared = await prepareUser(c.env, signupOrigin(c.req.raw), body, pathType as RegistrationType);
      const issued = await issueToken(db, prepared.userId, "register");
      // The user row, its register token and the request's claim in one batch: no account without its way in.
      await runSignupBatch(db, [prepared.statement, ...prepared.companions, ...signupConsent(c, prepared.userId), issued.statement, ...claimOf(c)]);
      return { token: issued.token as string | null, userId: prepared.userId };
    },
    {
      keep: ({ userId }) => ({ user_id: userId }),
      replay: async (kept) => {
        const userId = Number((kept as { user_id?: unknown }).user_id);
        return { token: await reissueToken(db, userId, "register"), userId };
      },
    },
  );
  return success(c, { token: answer.token });
});

accountRoutes.post("/login/handshake/", async (c) => {
  const body = parseWith(loginSchema, await readFields(c));
  // The spec's login body may carry the second step too (mfa_token with the challenge token).
  if (body.mfa_token !== undefined && body.token !== undefined) {
    return success(c, { token: await mfaLogin(c.env.DB, c.req.raw, body.username_or_email, body.mfa_token, body.token) });
  }
  return answerLogin(c, await passwordLogin(c.env.DB, c.req.raw, body.username_or_email, body.password));
});

accountRoutes.post("/login/mfa/handshake/", async (c) => {
  const body = parseWith(mfaLoginSchema, await readFields(c));
  return success(c, { token: await mfaLogin(c.env.DB, c.req.raw, body.username_or_email, body.mfa_token, body.token) });
});

const facebookLoginSchema = z.strictObject({ facebook_id: z.string().regex(/^\d{1,32}$/), facebook_token: z.string().min(1).max(4096), referrer: z.string().max(2048).optional() });
accountRoutes.post("/login/facebook/handshake/", async (c) => {
  const body = parseWith(facebookLoginSchema, await readFields(c));
  await verifyFacebookToken(c.env, body.facebook_id, body.facebook_token);
  return answerLogin(c, await providerLogin(c.env.DB, c.req.raw, await userIdByFacebook(c.env.DB, body.facebook_id)));
});

const googleLoginSchema = z.strictObject({ id_token: z.string().min(1).max(4096), referrer: z.string().max(2048).optional() });
accountRoutes.post("/login/google/handshake/", async (c) => {
  const body = parseWith(googleLoginSchema, await readFields(c));
  const identity = await verifyGoogleIdToken(c.env, body.id_token);
  const db = c.env.DB;
  return answerLogin(c, await providerLogin(db, c.req.raw, await userIdByGoogle(db, identity)));
});

// ── Session exchange ──────────────────────────────────────────────────────────────────────

const exchangeSchema = z.strictObject({
  token: z.string().max(64),
  isRegistration: z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")]).default(false),
});

accountRoutes.post("/sessions/exchange/", async (c) => {
  const body = parseWith(exchangeSchema, await readFields(c));
  const db = c.env.DB;
  const purpose = body.isRegistration ? "register" : "login";
  const userId = await peekToken(db, body.token, purpose);
  if (userId === null) throw invalidToken();
  const session = await startSession(db, c.req.raw, userId);
  // The spend and the session row in one batch: a spent token always has its session, and a
  // token spent by a racing exchange starts nothing.
  await spendWith(db, body.token, purpose, userId, [...session.statements, ...loginConsent(c, userId)]);
  const row = await userRow(db, userId);
  if (!row) throw invalidToken();
  return success(c, sessionPayload(row, session.expiresAt), [...session.cookies, ...accountConsentCookies(row)]);
});

// ── The signed-in user ────────────────────────────────────────────────────────────────────

const ME_FIELDS = ["full_name", "email", "is_name_eligible_for_lead_form_autofill", "is_email_eligible_for_lead_form_autofill"] as const;

accountRoutes.get("/users/me/", (c) => {
  const session = requireSession(c.var.ctx);
  const fieldsParam = c.req.query("fields");
  const wanted = fieldsParam === undefined ? [...ME_FIELDS] : fieldsParam.split(",").map((field) => field.trim()).filter(Boolean).slice(0, 20);
  const unknown = wanted.find((field) => !(ME_FIELDS as readonly string[]).includes(field));
  if (unknown !== undefined) throw badRequest([{ field: "fields", reason: "validation.invalidValue", values: { values: ME_FIELDS.join(", ") } }]);
  const user = session.user;
  const full = c.var.ctx.viewerType === "AUTH";
  const all: Record<(typeof ME_FIELDS)[number], unknown> = {
    full_name: user.full_name,
    email: user.email,
    // Spec 000 §5: autofill only for signed-in users flagged eligible for each field.
    ...autofillFlags(user, full),
  };
  return success(c, Object.fromEntries(wanted.map((field) => [field, all[field as keyof typeof all]])));
});

// Sign out everywhere (account settings): every session of this account ends, on every device
// and this one too, so no device can switch into it without the password any more. It only
// takes access away, so it asks for no passcode and works from a limited login as well.
accountRoutes.delete("/users/me/sessions/", async (c) => {
  const session = requireSession(c.var.ctx);
  parseWith(z.strictObject({}), await readFields(c));
  await signOutEverywhere(c.env.DB, session.user.id);
  return success(c, { signed_out: true }, [clearCookie(SESSION_COOKIE)]);
});

// ── E-mail verification ───────────────────────────────────────────────────────────────────

accountRoutes.post("/users/email/verify/resend/", async (c) => {
  const session = requireSession(c.var.ctx);
  const db = c.env.DB;
  await enforce(db, RATE_RULES.emailResendPerAccount, session.user.id);
  if (session.user.email_verified === 1) return success(c, { sent: false });
  const user = session.user;
  // The mail goes into the outbox in the token's own batch, then out through the mail path
  // (src/mail/outbox.server.ts); a mail that cannot go out yet stays there, never dropped.
  await issueEmailVerification(db, user.id, Date.now(), (token) => {
    const link = new URL(`/v3/users/email/verify/?token=${token}`, c.req.url).toString();
    const t = c.var.t;
    const name = user.first_name || user.username;
    return [outboxStatement(db, { userId: user.id, kind: "email_verify", to: user.email, subject: t("personal:mail.verify.subject"), body: t("personal:mail.verify.body", { name, link }) })];
  });
  c.executionCtx.waitUntil(deliverPending(db, user.id, c.env.ENVIRONMENT !== "production"));
  return success(c, { sent: true });
});

accountRoutes.get("/users/email/verify/", async (c) => {
  const token = c.req.query("token") ?? "";
  const db = c.env.DB;
  const userId = await peekToken(db, token, "email_verify");
  let verified = false;
  if (userId !== null) {
    try {
      await verifyEmail(db, token, userId);
      verified = true;
    } catch (error) {
      if (!isDomainError(error, "unauthorized")) throw error;
    }
  }
  return c.redirect(`${EMAIL_VERIFIED_PATH}?result=${verified ? "verified" : "invalid"}`, 303);
});

// ── Account switcher batch ────────────────────────────────────────────────────────────────

const MAX_BATCH = 10;
const USER_PATH = /^\/?v3\/users\/(\d{1,20})\/?$/;
const batchItemSchema = z.strictObject({
  method: z.literal("GET"),
  path: z.string().max(64).regex(USER_PATH),
  params: z.strictObject({ fields: z.string().max(2000).optional() }).optional(),
});
const batchSchema = z.strictObject({
  requests: z.preprocess((value, context) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      context.addIssue({ code: "invalid_format", format: "json", input: value });
      return z.NEVER;
    }
  }, z.array(batchItemSchema).min(1).max(MAX_BATCH)),
});

accountRoutes.post("/batch/", async (c) => {
  await enforce(c.env.DB, RATE_RULES.batchPerIp, clientIp(c.req.raw));
  const { requests } = parseWith(batchSchema, await readFields(c));
  const db = c.env.DB;
  const ids = [...new Set(requests.map((request) => Number(USER_PATH.exec(request.path)![1])))];
  const deviceId = await deviceIdOf(c.req.raw);
  const onDevice = new Set(deviceId ? (await deviceSessions(db, deviceId)).map((session) => session.user.id) : []);
  const results = await switcherRows(db, ids);
  // Accounts not signed in on this device are answered only when a stranger may see their
  // profile (the profile page's rule): a private or limited account is simply not found.
  const byId = new Map(results.filter((row) => onDevice.has(row.id) || holds("profile", { rows: { user: row } }, null)).map((row) => [row.id, row]));
  const answers: Record<string, unknown> = {};
  for (const request of requests) {
    const row = byId.get(Number(USER_PATH.exec(request.path)![1]));
    // Private fields (e-mail, business contact) only for accounts signed in on this device.
    answers[request.path] = row ? { status: "success", data: toSwitcherEntry(row, onDevice.has(row.id)) } : { status: "failure", code: ErrorCode.NotFound };
  }
  return success(c, answers);
});

// ── Fingerprints and the human check ──────────────────────────────────────────────────────

const fingerprintSchema = z.strictObject({ fingerprint: z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/) });

accountRoutes.post("/spam/fingerprints/", async (c) => {
  // Spec 000 §6: not for limited-login viewers (403 code 17).
  const session = requireFullViewer(c.var.ctx);
  const { fingerprint } = parseWith(fingerprintSchema, await readFields(c));
  const db = c.env.DB;
  await enforce(db, RATE_RULES.fingerprintPerAccount, session.user.id);
  await recordFingerprint(db, session.user.id, fingerprint);
  return success(c, { recorded: true });
});

const verifySchema = z.strictObject({ recaptcha_token: z.string().min(1).max(2048) });

accountRoutes.put("/sessions/verify/", async (c) => {
  const session = requireSession(c.var.ctx);
  const { recaptcha_token } = parseWith(verifySchema, await readFields(c));
  await verifyTurnstile(c.env, recaptcha_token, c.req.header("cf-connecting-ip") ?? null, new URL(c.req.url).hostname);
  await markSessionVerified(c.env.DB, session.id);
  return success(c, { verified: true });
});
