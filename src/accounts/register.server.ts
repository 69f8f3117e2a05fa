// Sign-up (spec 000 §3 "Signup payload", §5 rules): checks in the order a person can fix
// them, then one INSERT the caller runs in the same D1 batch as whatever makes the account
// usable (the register token of the handshake, or the session of UserRegisterResource), so
// an account never exists half-made.
import { inviteKey } from "~/invites/invites.server.ts";
import { DomainError, badRequest } from "~/domain/errors.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { hashPassword } from "./password.ts";
import { verifyFacebookToken } from "./providers/facebook.server.ts";
import { isTurnstileConfigured, verifyTurnstile } from "./providers/turnstile.server.ts";
import { ageOn, MINIMUM_AGE, namesOf, registrationTypeOf, RULE_MESSAGES, signupProblems, signupSchema, type RegistrationType, type SignupBody } from "./signup.ts";
import { VIEWED_IMAGES_KEY } from "~/visits/trail.ts";
import { emailMatchStatements, emailSha256 } from "~/conversions/record.server.ts";

/** Ids are random in [1e14, 9e15): not guessable from sign-up order, below 2^53. */
function newUserId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2)) as unknown as [number, number];
  return 1e14 + ((high * 2 ** 32 + low) % (9e15 - 1e14));
}

const conflict = (field: "email" | "username" | "facebook_id") =>
  new DomainError("conflict", { message: `accounts:signup.${field}Taken`, extraData: { field } });

const ageRestricted = () => new DomainError("age_restricted", { message: "accounts:signup.ageRestricted" });

/** Parses and validates a sign-up body: 400 naming each field, password rule word for word. */
/**
 * The sign-up body, validated. A form from an edge-cached page cannot know the visitor's
 * country (a shared render carries nothing per visitor), so an empty or missing `country`
 * is the request's own (CF-IPCountry), never the first visitor's.
 */
export function parseSignup(input: Record<string, unknown>, requestCountry: string): SignupBody {
  const country = input["country"];
  const filled = country === undefined || country === "" ? { ...input, country: requestCountry } : input;
  const parsed = signupSchema.safeParse(filled);
  if (parsed.success) return parsed.data;
  const problems = signupProblems(parsed.error, filled);
  const passwordRule = problems.some((problem) => problem.reason === RULE_MESSAGES.passwordCharacters);
  throw badRequest(problems, passwordRule ? RULE_MESSAGES.passwordCharacters : "api.invalidParameters");
}

export interface PreparedUser {
  userId: number;
  statement: D1PreparedStatement;
  /** What goes in the same batch after the users row: the visit's trail (src/visits/), when it sent one. */
  companions: D1PreparedStatement[];
}

/** Where a sign-up came from, as its request shows it. */
export interface SignupOrigin {
  /** The client's address: the throttle's subject. */
  address: string;
  /** CF-Connecting-IP as sent, for the human check. */
  connectingIp: string | null;
  /** The host the form was posted to, which the human check's answer must name. */
  hostname: string;
}

/**
 * Everything before the write: throttle, registration type, age, human check, Facebook,
 * uniqueness. `pathType` is the {email|partner|facebook} of the handshake path, or null for
 * UserRegisterResource (which takes the type the body implies). `env` carries the outside
 * services' configuration.
 */
export async function prepareUser(env: Env, origin: SignupOrigin, body: SignupBody, pathType: RegistrationType | null, now = Date.now()): Promise<PreparedUser> {
  const db = env.DB;
  await enforce(db, RATE_RULES.signupPerIp, origin.address, now);
  const type = registrationTypeOf(body);
  if (pathType !== null && pathType !== type) {
    throw badRequest([{ field: "registration_type", reason: RULE_MESSAGES.registrationType, values: { expected: type } }]);
  }
  const age = body.birthday === undefined ? null : ageOn(body.birthday, new Date(now));
  if (age !== null && age < MINIMUM_AGE) throw ageRestricted();

  // The human check runs only when it is configured; without it e-mail sign-up still works.
  if (isTurnstileConfigured(env)) {
    if (body.recaptcha_v3_token === undefined) throw badRequest([{ field: "recaptcha_v3_token", reason: "validation.required" }]);
    await verifyTurnstile(env, body.recaptcha_v3_token, origin.connectingIp, origin.hostname);
  }
  if (type === "facebook") await verifyFacebookToken(env, body.facebook_id!, body.facebook_token!, now);

  const taken = await db
    .prepare("SELECT email = ?1 COLLATE NOCASE AS email_taken, username = ?2 COLLATE NOCASE AS username_taken FROM users WHERE email = ?1 COLLATE NOCASE OR username = ?2 COLLATE NOCASE LIMIT 2")
    .bind(body.email, body.username)
    .all<{ email_taken: number; username_taken: number }>();
  if (taken.results.some((row) => row.email_taken === 1)) throw conflict("email");
  if (taken.results.some((row) => row.username_taken === 1)) throw conflict("username");
  if (type === "facebook" && (await db.prepare("SELECT 1 FROM users WHERE facebook_id = ?1").bind(body.facebook_id!).first()) !== null) {
    throw conflict("facebook_id");
  }

  const userId = newUserId();
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const names = namesOf(body);
  const business = type === "partner";
  // An under-16 account starts private (?17 is its flag): the visibility rules treat it as
  // private anyway, and the settings then show what is true.
  const statement = db
    .prepare(
      `INSERT INTO users (id, username, email, password_hash, full_name, first_name, last_name, country, locale, gender,
         custom_gender, birthday, age_in_years, account_type, business_name, is_partner, is_under_16, is_under_18,
         email_verified, registration_type, facebook_id, connected_networks, signup_referrer, signup_utm_campaign,
         signup_invite_code, created_at, is_private_profile, onboarding_step)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, 0, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?17, 'welcome')`,
    )
    .bind(
      userId,
      body.username,
      body.email,
      passwordHash,
      names.fullName,
      names.firstName,
      names.lastName,
      body.country,
      body.locale,
      body.gender ?? null,
      body.gender === "custom" ? (body.custom_gender ?? null) : null,
      body.birthday ?? null,
      age,
      business ? "business" : "personal",
      business ? body.business_name! : null,
      business ? 1 : 0,
      age !== null && age < 16 ? 1 : 0,
      age !== null && age < 18 ? 1 : 0,
      type,
      type === "facebook" ? body.facebook_id! : null,
      type === "facebook" ? JSON.stringify({ facebook: {} }) : "{}",
      body.referrer ? body.referrer.slice(0, 2048) : null,
      body.utm_campaign ?? null,
      // The invite's key (SHA-256), never the bearer code itself: a leaked row opens nothing.
      body.invite_code === undefined ? null : await inviteKey(body.invite_code),
      now,
    );
  // The address's matching hash goes in with the account (conversions match people by it).
  return { userId, statement, companions: [...trailStatements(db, userId, body, now), ...emailMatchStatements(db, userId, await emailSha256(body.email))] };
}

/** The pages and images this visit saw before signing up (checked by signupSchema), as one row. */
function trailStatements(db: D1Database, userId: number, body: SignupBody, now: number): D1PreparedStatement[] {
  const pages = body.visited_pages ?? [];
  const images = (body.user_behavior_data?.[VIEWED_IMAGES_KEY] as string[] | undefined) ?? [];
  if (pages.length === 0 && images.length === 0) return [];
  return [
    db
      .prepare("INSERT INTO signup_trails (user_id, visited_pages, viewed_images, created_at) VALUES (?1, ?2, ?3, ?4)")
      .bind(userId, JSON.stringify(pages), JSON.stringify(images), now),
  ];
}

/** Runs the sign-up batch; a race lost on a unique column becomes the same 409 as the check. */
export async function runSignupBatch(db: D1Database, statements: D1PreparedStatement[]): Promise<void> {
  try {
    await db.batch(statements);
  } catch (error) {
    const text = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
    if (/UNIQUE constraint failed: users\.email/i.test(text)) throw conflict("email");
    if (/UNIQUE constraint failed: users\.username/i.test(text)) throw conflict("username");
    if (/UNIQUE constraint failed: users\.facebook_id/i.test(text)) throw conflict("facebook_id");
    throw error;
  }
}
