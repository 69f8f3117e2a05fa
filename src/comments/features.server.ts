// A person's comment feature map (AggregatedCommentFeaturesResource, spec 000 §3 "plus a
// feature map per user", §6: feature updates send the parental passcode). Stored as one JSON
// row per person; a feature not in the map is on.
import { requireFullViewer, requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { requirePasscode } from "~/accounts/passcode.server.ts";
import { forbidden } from "~/domain/errors.ts";
import { COMMENT_FEATURES, featureMapSchema, type FeatureMap } from "./comment.ts";

/** Every feature with its value (missing ones on), from a stored map. */
function completeMap(stored: FeatureMap): Required<FeatureMap> {
  return Object.fromEntries(COMMENT_FEATURES.map((feature) => [feature, stored[feature] ?? true])) as Required<FeatureMap>;
}

/** A stored map, completed; one that does not parse counts as empty (every feature on). */
function parseStored(json: string): Required<FeatureMap> {
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    stored = {};
  }
  const parsed = featureMapSchema.safeParse(stored);
  return completeMap(parsed.success ? parsed.data : {});
}

export async function featuresOf(db: D1Database, userId: number): Promise<Required<FeatureMap>> {
  const row = await db.prepare("SELECT feature_map FROM comment_features WHERE user_id = ?1").bind(userId).first<{ feature_map: string }>();
  return parseStored(row?.feature_map ?? "{}");
}

const ownOnly = () => forbidden("comments:api.ownFeaturesOnly");

export async function getFeatures(db: D1Database, viewer: Viewer, userId: number): Promise<{ featureMap: Required<FeatureMap> }> {
  if (requireFullViewer(viewer).user.id !== userId) throw ownOnly();
  return { featureMap: await featuresOf(db, userId) };
}

/**
 * Writes only the changed features, merged into the stored map by SQLite in one statement
 * (json_patch): two updates at once, each of another feature, both stay. A stored value that
 * is not a JSON object is replaced.
 */
export async function updateFeatures(db: D1Database, viewer: Viewer, userId: number, changes: FeatureMap, passcode: string | undefined): Promise<{ featureMap: Required<FeatureMap> }> {
  if (requireWriteAllowed(viewer).user.id !== userId) throw ownOnly();
  await requirePasscode(db, viewer, passcode);
  const row = await db.prepare(
    `INSERT INTO comment_features (user_id, feature_map, updated_at) VALUES (?1, json(?2), ?3)
     ON CONFLICT(user_id) DO UPDATE SET
       feature_map = json_patch(CASE WHEN json_valid(comment_features.feature_map) AND json_type(comment_features.feature_map) = 'object' THEN comment_features.feature_map ELSE '{}' END, excluded.feature_map),
       updated_at = excluded.updated_at
     RETURNING feature_map`,
  )
    .bind(userId, JSON.stringify(featureMapSchema.parse(changes)), Date.now())
    .first<{ feature_map: string }>();
  return { featureMap: parseStored(row?.feature_map ?? "{}") };
}
