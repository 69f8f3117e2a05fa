// Onboarding's reads and writes in D1: the step kept on the account, the topics a person
// follows or might (GET /v3/users/me/interests/), creators to follow
// (GET /v3/orientation/nux_creator_recommendations/) and a board's topics
// (GET /v3/boards/{id}/interests/). Following itself goes through the existing follow calls.
import { badRequest } from "~/domain/errors.ts";
import { parseLocale } from "~/context/locales.ts";
import { userImageUrl } from "~/users/user.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { MAX_CREATOR_SUGGESTIONS, MAX_TOPICS_SHOWN, canMove, isFinished, stateOf, type BlendType, type CreatorAnswer, type InterestAnswer, type OnboardingState } from "./onboarding.ts";

interface OnboardingAnswer {
  step: OnboardingState;
  finished: boolean;
  first_home_feed_request_after_nux: boolean;
}

/** What the account holds (read with the session: no query of its own). */
export function onboardingOf(user: { onboarding_step?: string | null; first_home_feed_after_nux?: number | null }): OnboardingAnswer {
  const step = stateOf(user.onboarding_step);
  return { step, finished: isFinished(step), first_home_feed_request_after_nux: user.first_home_feed_after_nux === 1 };
}

interface OnboardingUpdate {
  step: OnboardingState;
  country?: string | undefined;
  locale?: string | undefined;
}

/**
 * Moves the account to `update.step` (onboarding.ts canMove), with the country and language
 * the last step may set, in one statement guarded by the step it was read at: two tabs racing
 * cannot both move it. Finishing it (done) raises the first-home-feed flag.
 */
export async function moveOnboarding(db: D1Database, viewerId: number, current: OnboardingState, update: OnboardingUpdate): Promise<OnboardingAnswer> {
  if (!canMove(current, update.step)) {
    throw badRequest([{ field: "step", reason: "onboarding:validation.stepNotAllowed", values: { from: current, to: update.step } }]);
  }
  const locale = update.locale === undefined ? null : parseLocale(update.locale);
  if (update.locale !== undefined && locale === null) throw badRequest([{ field: "locale", reason: "validation.invalidValue", values: { values: "en_US, fr, ar_SA, …" } }]);
  if ((update.country !== undefined || update.locale !== undefined) && update.step !== "done" && update.step !== "locale") {
    throw badRequest([{ field: update.country !== undefined ? "country" : "locale", reason: "onboarding:validation.localeStepOnly" }]);
  }
  // Only a finished onboarding has choices for the first home feed to start from; a skip has none.
  const ending = update.step === "done" && !isFinished(current);
  const result = await db
    .prepare(
      `UPDATE users SET onboarding_step = ?2,
              first_home_feed_after_nux = CASE WHEN ?3 = 1 THEN 1 ELSE first_home_feed_after_nux END,
              country = COALESCE(?4, country), locale = COALESCE(?5, locale)
       WHERE id = ?1 AND onboarding_step = ?6
       RETURNING onboarding_step, first_home_feed_after_nux`,
    )
    .bind(viewerId, update.step, ending ? 1 : 0, update.country ?? null, locale, current)
    .first<{ onboarding_step: string; first_home_feed_after_nux: number }>();
  // Another request moved it first: answer what is stored now, unchanged by this one.
  if (!result) {
    const stored = await db.prepare("SELECT onboarding_step, first_home_feed_after_nux FROM users WHERE id = ?1").bind(viewerId).first<{ onboarding_step: string; first_home_feed_after_nux: number }>();
    return onboardingOf(stored ?? {});
  }
  return onboardingOf(result);
}

/**
 * The topics for a person (spec 001 §7: GET /v3/users/me/interests/ with blend_type): the ones
 * they follow (followed), the ones they do not, most pins first (suggested), or both, followed
 * first (mixed).
 */
export async function interestsFor(db: D1Database, viewerId: number, blend: BlendType, limit = MAX_TOPICS_SHOWN): Promise<InterestAnswer[]> {
  const followed = "EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.target_type = 'interest' AND f.target_id = t.id)";
  const filter = blend === "followed" ? `WHERE ${followed}` : blend === "suggested" ? `WHERE NOT ${followed}` : "";
  const { results } = await db
    .prepare(
      `SELECT t.id, t.key, t.name, ${followed} AS is_followed,
              (SELECT COUNT(*) FROM pin_interests pi JOIN pins p ON p.id = pi.pin_id
               LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
               WHERE pi.interest_id = t.id AND ${visibleSql("feedPin", { pin: "p", board: "b", pinner: "pu" }, null)}) AS pin_count
       FROM interests t ${filter}
       ORDER BY is_followed DESC, pin_count DESC, t.id
       LIMIT ?2`,
    )
    .bind(viewerId, limit)
    .all<{ id: number; key: string; name: string; is_followed: number; pin_count: number }>();
  return results.map((row) => ({ id: String(row.id), key: row.key, name: row.name, is_followed: row.is_followed === 1, pin_count: row.pin_count }));
}

interface CreatorRow {
  id: number;
  username: string;
  full_name: string;
  image_key: string | null;
  follower_count: number;
  matched: number;
  previews: string | null;
}

/**
 * Creators to follow while onboarding: people anyone may see, with pins anyone may see, whom
 * the person does not follow yet, neither side having blocked the other. Those with the most
 * pins in the person's followed topics first, then by followers, so a person who picked no
 * topic still gets the most followed creators.
 */
export async function creatorRecommendations(db: D1Database, viewerId: number, limit = MAX_CREATOR_SUGGESTIONS): Promise<CreatorAnswer[]> {
  const feedPin = visibleSql("feedPin", { pin: "p", board: "b", pinner: "u" }, null);
  const { results } = await db
    .prepare(
      `WITH fi AS (SELECT target_id AS id FROM follows WHERE follower_id = ?1 AND target_type = 'interest' LIMIT 500),
       scored AS (
         SELECT p.pinner_id AS id,
                SUM(CASE WHEN EXISTS (SELECT 1 FROM pin_interests pi WHERE pi.pin_id = p.id AND pi.interest_id IN (SELECT id FROM fi)) THEN 1 ELSE 0 END) AS matched
         FROM pins p JOIN users u ON u.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
         WHERE ${feedPin} AND u.id != ?1
           AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.target_type = 'user' AND f.target_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = ?1 AND k.blocked_id = u.id) OR (k.blocker_id = u.id AND k.blocked_id = ?1))
         GROUP BY p.pinner_id
       )
       SELECT u.id, u.username, u.full_name, u.image_key, u.follower_count, s.matched,
              (SELECT json_group_array(url) FROM (
                 SELECT i.url FROM pins p JOIN pin_images i ON i.pin_id = p.id AND i.size = '236x'
                 LEFT JOIN boards b ON b.id = p.board_id
                 WHERE p.pinner_id = u.id AND ${feedPin}
                 ORDER BY EXISTS (SELECT 1 FROM pin_interests pi WHERE pi.pin_id = p.id AND pi.interest_id IN (SELECT id FROM fi)) DESC, p.save_count DESC, p.id DESC
                 LIMIT 3)) AS previews
       FROM scored s JOIN users u ON u.id = s.id
       ORDER BY s.matched DESC, u.follower_count DESC, u.id
       LIMIT ?2`,
    )
    .bind(viewerId, limit)
    .all<CreatorRow>();
  return results.map((row) => ({
    id: String(row.id),
    username: row.username,
    full_name: row.full_name,
    image_medium_url: userImageUrl(row.image_key, "medium"),
    follower_count: row.follower_count,
    explicitly_followed_by_me: false,
    pins_in_your_topics: row.matched,
    preview_images: parsePreviews(row.previews),
  }));
}

function parsePreviews(text: string | null): string[] {
  try {
    const value: unknown = JSON.parse(text ?? "[]");
    return Array.isArray(value) ? value.filter((url): url is string => typeof url === "string").slice(0, 3) : [];
  } catch {
    return [];
  }
}

/**
 * A board's topics (spec 001 §3 Board.related_interest_ids; §7 GET /v3/boards/{id}/interests/):
 * the topics of the pins on it that the viewer may see, most pins first. The caller has
 * checked the viewer may see the board.
 */
export async function boardInterests(db: D1Database, boardId: number, viewerId: number | null, limit = 10): Promise<InterestAnswer[]> {
  const { results } = await db
    .prepare(
      `SELECT t.id, t.key, t.name, COUNT(*) AS pin_count,
              EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?2 AND f.target_type = 'interest' AND f.target_id = t.id) AS is_followed
       FROM board_pins bp
       JOIN pins p ON p.id = bp.pin_id JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id
       JOIN pin_interests pi ON pi.pin_id = p.id JOIN interests t ON t.id = pi.interest_id
       WHERE bp.board_id = ?1 AND ${visibleSql("gridPin", { pin: "p", board: "b", pinner: "pu" }, "?2")}
       GROUP BY t.id
       ORDER BY pin_count DESC, t.id
       LIMIT ?3`,
    )
    .bind(boardId, viewerId, limit)
    .all<{ id: number; key: string; name: string; pin_count: number; is_followed: number }>();
  return results.map((row) => ({ id: String(row.id), key: row.key, name: row.name, is_followed: row.is_followed === 1, pin_count: row.pin_count }));
}
