// Cookie consent on the account (users.allow_*_cookies, cookie_consent_at) and the stored ad
// identifier (users.epik) that goes with it. See consent.ts for the rules.
import type { ConsentChoices } from "./consent.ts";

/**
 * The account's choices, stamped now; the stored ad identifier is cleared in the same
 * statement when it may not stay (`keepAdId` false), so the two never disagree.
 */
function saveConsentStatement(db: D1Database, userId: number, choices: ConsentChoices, keepAdId: boolean, now = Date.now()): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET allow_personalization_cookies = ?2, allow_analytic_cookies = ?3, allow_marketing_cookies = ?4,
         cookie_consent_at = ?5, epik = CASE WHEN ?6 = 1 THEN epik ELSE NULL END
       WHERE id = ?1`,
    )
    .bind(userId, Number(choices.personalization), Number(choices.analytics), Number(choices.marketing), now, Number(keepAdId));
}

export async function saveAccountConsent(db: D1Database, userId: number, choices: ConsentChoices, keepAdId: boolean, now = Date.now()): Promise<void> {
  await saveConsentStatement(db, userId, choices, keepAdId, now).run();
}

/**
 * A new account takes what its browser chose before sign-up (the consent cookie) and the ad
 * identifier the browser holds when it may keep one: one statement for the sign-up batch,
 * after the account's INSERT. Nothing chosen and no identifier: nothing to write.
 */
export function signupConsentStatement(
  db: D1Database,
  userId: number,
  choices: ConsentChoices | null,
  adId: string | null,
  now = Date.now(),
): D1PreparedStatement | null {
  if (choices === null && adId === null) return null;
  if (choices === null) return db.prepare("UPDATE users SET epik = ?2 WHERE id = ?1").bind(userId, adId);
  return db
    .prepare(
      `UPDATE users SET allow_personalization_cookies = ?2, allow_analytic_cookies = ?3, allow_marketing_cookies = ?4,
         cookie_consent_at = ?5, epik = ?6
       WHERE id = ?1`,
    )
    .bind(userId, Number(choices.personalization), Number(choices.analytics), Number(choices.marketing), now, adId);
}

/**
 * At log-in: an account that never chose takes what this browser chose while signed out; an
 * account that chose keeps its own (the condition is in the statement, so it rides in the
 * session's batch without a read before it).
 */
export function adoptBrowserConsentStatement(db: D1Database, userId: number, choices: ConsentChoices, keepAdId: boolean, now = Date.now()): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET allow_personalization_cookies = ?2, allow_analytic_cookies = ?3, allow_marketing_cookies = ?4,
         cookie_consent_at = ?5, epik = CASE WHEN ?6 = 1 THEN epik ELSE NULL END
       WHERE id = ?1 AND cookie_consent_at IS NULL`,
    )
    .bind(userId, Number(choices.personalization), Number(choices.analytics), Number(choices.marketing), now, Number(keepAdId));
}
