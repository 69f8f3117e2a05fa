// Who may read a media object: every R2 key belongs to an object (a pin, a profile, a tried-it
// post), and its bytes follow that object's visibility rule (src/visibility/). One D1 statement
// per request answers both questions the media route asks: may this viewer read it, and may
// anyone (which decides whether shared caches may keep it).
import { mediaUrl } from "./media.ts";
import { visibleFlagSql, visibleSql } from "~/visibility/visibility.server.ts";

/** The object a key belongs to; null for a key no family owns (never served). */
type MediaOwner =
  /** pins/<id>/...: the pin's images, carousel slots, story pages, videos and captions. */
  | { kind: "pin"; pinId: string }
  /** users/<id or pool-N>/<size>.jpg: the avatar of every account whose image_key names the folder. */
  | { kind: "avatar"; imageKey: string }
  /** did-it/<signature>.<ext>: a tried-it photo, posted or still an upload. */
  | { kind: "didIt"; key: string; signature: string }
  /** pool/<n>/...: a pooled image (large demo worlds), shown by the pins whose images name it. */
  | { kind: "pool"; url: string }
  /** uploads/<user id>/<upload id>/...: a builder upload, its owner's until a pin shows it. */
  | { kind: "upload"; uploadId: string; userId: string; file: string };

const PIN_KEY = /^pins\/([1-9][0-9]{0,17})\//;
const AVATAR_KEY = /^(users\/[A-Za-z0-9_-]{1,40})\/[a-z]+\.jpg$/;
const DID_IT_KEY = /^did-it\/([0-9a-f]{32})\.(jpg|png|webp)$/;
const POOL_KEY = /^pool\/[0-9]{1,6}\//;
const UPLOAD_KEY = /^uploads\/([1-9][0-9]{0,17})\/([0-9a-f]{32})\/([^/]+)$/;

export function mediaOwnerOf(key: string): MediaOwner | null {
  const pin = PIN_KEY.exec(key);
  if (pin) return { kind: "pin", pinId: pin[1]! };
  const avatar = AVATAR_KEY.exec(key);
  if (avatar) return { kind: "avatar", imageKey: avatar[1]! };
  const didIt = DID_IT_KEY.exec(key);
  if (didIt) return { kind: "didIt", key, signature: didIt[1]! };
  if (POOL_KEY.test(key)) return { kind: "pool", url: mediaUrl(key) };
  const upload = UPLOAD_KEY.exec(key);
  if (upload) return { kind: "upload", userId: upload[1]!, uploadId: upload[2]!, file: upload[3]! };
  return null;
}

interface MediaAccess {
  /** The viewer may read the bytes. */
  viewer: boolean;
  /** Anyone may: the answer may be kept by shared caches. */
  anyone: boolean;
}

/** A pin `p` with its pinner and board, joined after a FROM that names `p`'s id as `pinId`. */
const pinJoins = (pinId: string) => `JOIN pins p ON p.id = ${pinId} JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id`;
const pinRule = (viewer: string | null) => visibleSql("pin", { pin: "p", board: "b", pinner: "pu" }, viewer);

/**
 * A statement answering `viewer` and `anyone` for a key's owner. Parameters: ?1 the owner's
 * key, ?2 the viewer id (NULL signed out); for avatars ?3 the device id (NULL without a device
 * cookie) and ?4 the time; for tried-it photos ?3 the upload's signature; for builder uploads
 * ?3 the owner the key's folder names and ?4 the key's file name.
 */
function accessSql(owner: MediaOwner): string {
  switch (owner.kind) {
    case "pin":
      return `SELECT ${visibleFlagSql("pin", { pin: "p", board: "b", pinner: "pu" }, "?2")} AS viewer,
                     ${visibleFlagSql("pin", { pin: "p", board: "b", pinner: "pu" }, null)} AS anyone
              FROM pins p JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id WHERE p.id = ?1`;
    case "avatar":
      // An account signed in on the viewer's device counts as the viewer's own, as the account
      // switcher that shows these avatars treats it.
      return `SELECT EXISTS (SELECT 1 FROM users u WHERE u.image_key = ?1
                             AND (${visibleSql("profile", { user: "u" }, "?2")}
                                  OR EXISTS (SELECT 1 FROM sessions ds WHERE ds.device_id = ?3 AND ds.user_id = u.id
                                             AND ds.revoked_at IS NULL AND ds.expires_at > ?4))) AS viewer,
                     EXISTS (SELECT 1 FROM users u WHERE u.image_key = ?1 AND ${visibleSql("publicProfile", { user: "u" }, null)}) AS anyone`;
    case "didIt":
      // A posted photo shows where its pin shows; an upload not yet posted, to its uploader only.
      return `SELECT EXISTS (SELECT 1 FROM did_its d ${pinJoins("d.pin_id")} WHERE d.image_key = ?1 AND ${pinRule("?2")})
                     OR EXISTS (SELECT 1 FROM did_it_uploads up WHERE up.signature = ?3 AND up.r2_key = ?1 AND up.user_id = ?2) AS viewer,
                     EXISTS (SELECT 1 FROM did_its d ${pinJoins("d.pin_id")} WHERE d.image_key = ?1 AND ${pinRule(null)}) AS anyone`;
    case "pool":
      // The LIKE term is pin_images_pool's own condition, so the lookup walks that index.
      return `SELECT EXISTS (SELECT 1 FROM pin_images i ${pinJoins("i.pin_id")}
                             WHERE i.url = ?1 AND i.url LIKE '/media/pool/%' AND ${pinRule("?2")}) AS viewer,
                     EXISTS (SELECT 1 FROM pin_images i ${pinJoins("i.pin_id")}
                             WHERE i.url = ?1 AND i.url LIKE '/media/pool/%' AND ${pinRule(null)}) AS anyone`;
    case "upload": {
      // Shown by a pin (media_uploads.pin_id, set by the batch that publishes it), under that
      // pin's rule; a scheduled pin's reservation names a pin that does not exist yet.
      // Only the upload's current cut (and its video) is the pin's: a cut a crop or a new poster
      // replaced stays its owner's even if deleting it failed.
      const currentCut = `(?4 LIKE 'video.%' OR (mu.revision IS NULL AND instr(?4, '-') = 0) OR (mu.revision IS NOT NULL AND substr(?4, 1, length(mu.revision) + 1) = mu.revision || '-'))`;
      const shownBy = (viewer: string | null) =>
        `EXISTS (SELECT 1 FROM media_uploads mu ${pinJoins("mu.pin_id")} WHERE mu.id = ?1 AND mu.user_id = ?3 AND ${currentCut} AND ${pinRule(viewer)})`;
      // Its owner reads it whatever its state; the folder must be the owner's, so a key naming
      // another person's folder is missing even to the upload's owner.
      return `SELECT EXISTS (SELECT 1 FROM media_uploads mu WHERE mu.id = ?1 AND mu.user_id = ?2 AND mu.user_id = ?3) OR ${shownBy("?2")} AS viewer,
                     ${shownBy(null)} AS anyone`;
    }
  }
}

const STATEMENTS = new Map<MediaOwner["kind"], string>();

/** Whether the viewer (null signed out) may read the owner's media, and whether anyone may. */
export async function mediaAccess(db: D1Database, owner: MediaOwner, viewerId: number | null, deviceId: string | null, now = Date.now()): Promise<MediaAccess> {
  let sql = STATEMENTS.get(owner.kind);
  if (sql === undefined) {
    sql = accessSql(owner);
    STATEMENTS.set(owner.kind, sql);
  }
  const binds =
    owner.kind === "pin"
      ? [owner.pinId, viewerId]
      : owner.kind === "avatar"
        ? [owner.imageKey, viewerId, deviceId, now]
        : owner.kind === "didIt"
          ? [owner.key, viewerId, owner.signature]
          : owner.kind === "upload"
            ? [owner.uploadId, viewerId, Number(owner.userId), owner.file]
            : [owner.url, viewerId];
  const row = await db.prepare(sql).bind(...binds).first<{ viewer: number; anyone: number }>();
  return { viewer: row?.viewer === 1, anyone: row?.anyone === 1 };
}
