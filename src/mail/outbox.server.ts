// Mail goes out through an outbox table (mail_outbox). The row is written in the same D1 batch
// as what the mail carries (a verification token), so no token exists without its mail and no
// mail is lost between the two. Delivery then hands each pending row to the transport:
//  - development (ENVIRONMENT is not "production"): the Worker log is the mailbox, as a
//    console e-mail backend is; the whole message, link included, is logged;
//  - production: no mail service is bound to this Worker yet, so a row stays pending, counted
//    (attempts, last_error) and logged as an error without its content; it is never dropped
//    and goes out once a transport is bound.
// A delivered row keeps who, what and when, and its body is blanked: it held a bearer link.

type MailKind = "email_verify";

interface Mail {
  userId: number;
  kind: MailKind;
  to: string;
  subject: string;
  body: string;
}

export function outboxStatement(db: D1Database, mail: Mail, now = Date.now()): D1PreparedStatement {
  return db
    .prepare("INSERT INTO mail_outbox (user_id, kind, to_address, subject, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    .bind(mail.userId, mail.kind, mail.to, mail.subject, mail.body, now);
}

/** Pending mails handed to the transport per run: a person's resend, or a short backlog. */
const DELIVER_PER_RUN = 20;
const NO_TRANSPORT = "no mail transport is configured";

interface PendingMail {
  id: number;
  user_id: number;
  kind: MailKind;
  to_address: string;
  subject: string;
  body: string;
}

/** Delivers the pending mails of `userId` (oldest first); answers how many went out. */
export async function deliverPending(db: D1Database, userId: number, development: boolean, now = Date.now()): Promise<number> {
  const { results } = await db
    .prepare("SELECT id, user_id, kind, to_address, subject, body FROM mail_outbox WHERE user_id = ?1 AND sent_at IS NULL ORDER BY created_at LIMIT ?2")
    .bind(userId, DELIVER_PER_RUN)
    .all<PendingMail>();
  if (results.length === 0) return 0;
  if (!development) {
    console.error(JSON.stringify({ event: "mail_pending", kind: results[0]!.kind, user_id: userId, count: results.length, reason: NO_TRANSPORT }));
    await db
      .prepare("UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?3 WHERE user_id = ?1 AND sent_at IS NULL AND id IN (SELECT value FROM json_each(?2))")
      .bind(userId, JSON.stringify(results.map((row) => row.id)), NO_TRANSPORT)
      .run();
    return 0;
  }
  for (const mail of results) {
    console.info(JSON.stringify({ event: "mail", kind: mail.kind, user_id: mail.user_id, to: mail.to_address, subject: mail.subject, body: mail.body }));
  }
  await db
    .prepare("UPDATE mail_outbox SET sent_at = ?2, attempts = attempts + 1, body = '', last_error = NULL WHERE id IN (SELECT value FROM json_each(?1)) AND sent_at IS NULL")
    .bind(JSON.stringify(results.map((row) => row.id)), now)
    .run();
  return results.length;
}
