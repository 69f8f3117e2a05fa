// Sessions for Worker tests, made the way the sign-in API makes them: a random token in the
// __Host- cookie, a sessions row keyed by its SHA-256 (src/accounts/session.server.ts).
import { env } from "cloudflare:workers";
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from "~/accounts/session.server.ts";
import { hashToken, newToken } from "~/accounts/tokens.ts";

export interface TestSession {
  token: string;
  id: string;
  /** `Cookie` header value carrying the session. */
  cookie: string;
}

/** Inserts a live session row for `userId` and answers the cookie that names it. */
export async function createSession(userId: number, now = Date.now()): Promise<TestSession> {
  const token = newToken();
  const id = await hashToken(token);
  await env.DB.prepare(
    `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, user_agent, ip, device_id)
     VALUES (?1, ?2, ?3, ?4, ?3, 'vitest', NULL, NULL)`,
  )
    .bind(id, userId, now, now + SESSION_LIFETIME_MS)
    .run();
  return { token, id, cookie: `${SESSION_COOKIE}=${token}` };
}
