// Everything Pinloom holds about a person, read for their download: the account and its
// settings, boards and sections, the pins they made, their saves, comments, follows, reactions
// and tried-it posts, the messages they sent and what they sent to advertisers' lead forms. One D1 batch; every
// list bounded (a list cut short says so in the manifest). Secrets are never read: no password,
// passcode or second-factor hash.

/** Rows per list: far above a real account, and a bound on one request's memory. */
const EXPORT_ROW_LIMIT = 10_000;

/** The account columns a person gets back: theirs to know, nothing that unlocks anything. */
const ACCOUNT_COLUMNS = [
  "id", "username", "email", "full_name", "first_name", "last_name", "about", "country", "locale", "gender", "custom_gender",
  "birthday", "account_type", "business_name", "domain_url", "is_private_profile", "email_verified", "has_mfa_enabled",
  "is_parental_control_passcode_enabled", "allow_personalization_cookies", "allow_analytic_cookies", "allow_marketing_cookies",
  "cookie_consent_at", "third_party_marketing_tracking_enabled", "phone_country", "phone_number", "settings", "created_at",
] as const;

type Row = Record<string, unknown>;

export interface AccountExport {
  account: Row | null;
  lists: Record<string, Row[]>;
  /** Lists that reached EXPORT_ROW_LIMIT. */
  truncated: string[];
  /** R2 keys of the media of the person's own pins (originals and videos), de-duplicated. */
  mediaKeys: string[];
}

const MEDIA_PREFIX = "/media/";

export async function readAccountExport(db: D1Database, userId: number): Promise<AccountExport> {
  const limit = EXPORT_ROW_LIMIT;
  const statements: Array<[string, D1PreparedStatement]> = [
    ["boards", db.prepare("SELECT * FROM boards WHERE owner_id = ?1 ORDER BY id LIMIT ?2").bind(userId, limit)],
    [
      "sections",
      db.prepare("SELECT s.* FROM board_sections s JOIN boards b ON b.id = s.board_id WHERE b.owner_id = ?1 ORDER BY s.id LIMIT ?2").bind(userId, limit),
    ],
    [
      "pins",
      db
        .prepare(
          `SELECT id, board_id, section_id, kind, title, description, alt_text, link, created_at, updated_at, rich_metadata, story_pin_data, carousel_data
           FROM pins WHERE pinner_id = ?1 AND is_deleted = 0 ORDER BY id LIMIT ?2`,
        )
        .bind(userId, limit),
    ],
    ["saves", db.prepare("SELECT board_id, pin_id, section_id, created_at FROM board_pins WHERE saved_by = ?1 ORDER BY created_at LIMIT ?2").bind(userId, limit)],
    ["quick_saves", db.prepare("SELECT * FROM profile_saves WHERE user_id = ?1 LIMIT ?2").bind(userId, limit)],
    ["comments", db.prepare("SELECT id, pin_id, parent_id, text, created_at FROM comments WHERE user_id = ?1 ORDER BY id LIMIT ?2").bind(userId, limit)],
    ["follows", db.prepare("SELECT target_type, target_id, created_at FROM follows WHERE follower_id = ?1 LIMIT ?2").bind(userId, limit)],
    ["reactions", db.prepare("SELECT pin_id, reaction_type, created_at FROM reactions WHERE user_id = ?1 LIMIT ?2").bind(userId, limit)],
    ["tried_it", db.prepare("SELECT * FROM did_its WHERE user_id = ?1 LIMIT ?2").bind(userId, limit)],
    // What they wrote, not what others wrote to them: those words are the other people's.
    [
      "messages",
      db
        .prepare(
          `SELECT id, conversation_id, text, created_at, pin_id, board_id, user_id, did_it_id
           FROM conversation_messages WHERE sender_id = ?1 ORDER BY id LIMIT ?2`,
        )
        .bind(userId, limit),
    ],
    // What they sent to advertisers' lead forms, and to whom.
    [
      "lead_submissions",
      db
        .prepare(
          `SELECT s.id, s.ad_id, biz.name AS advertiser, s.full_name, s.email, s.phone_number, s.zip_code, s.locale, s.created_at
           FROM lead_submissions s JOIN ad_accounts acc ON acc.id = s.ad_account_id JOIN businesses biz ON biz.id = acc.business_id
           WHERE s.user_id = ?1 ORDER BY s.id LIMIT ?2`,
        )
        .bind(userId, limit),
    ],
    [
      "media",
      db
        .prepare(
          `SELECT url FROM pin_images i JOIN pins p ON p.id = i.pin_id WHERE p.pinner_id = ?1 AND p.is_deleted = 0 AND i.size = 'orig'
           UNION SELECT url FROM pin_video_formats v JOIN pins p ON p.id = v.pin_id WHERE p.pinner_id = ?1 AND p.is_deleted = 0
           LIMIT ?2`,
        )
        .bind(userId, limit),
    ],
  ];
  const [accountResult, ...results] = await db.batch<Row>([
    db.prepare(`SELECT ${ACCOUNT_COLUMNS.join(", ")} FROM users WHERE id = ?1`).bind(userId),
    ...statements.map(([, statement]) => statement),
  ]);
  const lists: Record<string, Row[]> = {};
  const truncated: string[] = [];
  statements.forEach(([name], index) => {
    const rows = results[index]?.results ?? [];
    if (rows.length >= limit) truncated.push(name);
    lists[name] = rows;
  });
  const mediaKeys = [
    ...new Set(
      (lists["media"] ?? []).map((row) => String(row["url"] ?? "")).filter((url) => url.startsWith(MEDIA_PREFIX)).map((url) => url.slice(MEDIA_PREFIX.length)),
    ),
  ];
  delete lists["media"];
  return { account: accountResult?.results[0] ?? null, lists, truncated, mediaKeys };
}
