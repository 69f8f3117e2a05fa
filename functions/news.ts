// Notification settings and feedback under /v3 (mounted by v3.ts):
//   GET  /v3/settings/news/ | /v3/settings/push/  → {options: [{key, enabled}], ...each key: boolean}
//   PUT  /v3/settings/news/ | /v3/settings/push/  body: any of the keys as booleans; answers the same
//   POST /v3/analytics/feedback/                   body: feedback_data (JSON text) → {id}
// A full login (401 signed out, 403 limited login). Notification settings are not among the
// passcode-protected groups (spec 000 §6 lists those). Bad input is a 400 naming the field.
import { Hono } from "hono";
import type { z } from "zod";
import { requireFullViewer } from "~/accounts/guards.server.ts";
import { badRequest, zodProblems } from "~/domain/errors.ts";
import { feedbackDataSchema } from "~/feedback/feedback.ts";
import { storeFeedback } from "~/feedback/feedback.server.ts";
import { NOTIFICATION_GROUPS, notificationUpdateSchema, optionsOf, type NotificationSettings } from "~/news/news.ts";
import { readNotificationSettings, writeNotificationSettings } from "~/news/news.server.ts";
import { readFields, parseJsonText } from "~/server/body.ts";
import { success } from "~/server/answer.ts";
import type { AppEnv } from "~/server/context.ts";
import { enforce, type RateRule } from "~/server/rate-limit.server.ts";

export const newsRoutes = new Hono<AppEnv>();

/** Feedback: a few notes an hour is plenty; a loop is not. */
const FEEDBACK_RULE: RateRule = { name: "feedback:user", limit: 10, windowMs: 60 * 60_000 };
const FEEDBACK_BODY_MAX = 8192;

const settingsAnswer = (settings: NotificationSettings) => ({ options: optionsOf(settings), ...settings });

function parse<T extends z.ZodType>(schema: T, body: unknown, prefix = ""): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest(zodProblems(result.error, prefix, body));
  return result.data;
}

for (const group of NOTIFICATION_GROUPS) {
  newsRoutes.get(`/settings/${group}/`, async (c) => {
    const session = requireFullViewer(c.var.ctx);
    return success(c, settingsAnswer(await readNotificationSettings(c.env.DB, session.user.id, group)));
  });
  newsRoutes.put(`/settings/${group}/`, async (c) => {
    const session = requireFullViewer(c.var.ctx);
    const changes = parse(notificationUpdateSchema, await readFields(c));
    return success(c, settingsAnswer(await writeNotificationSettings(c.env.DB, session.user.id, group, changes)));
  });
}

newsRoutes.post("/analytics/feedback/", async (c) => {
  const session = requireFullViewer(c.var.ctx);
  const fields = await readFields(c);
  const raw = fields["feedback_data"];
  if (raw === undefined) throw badRequest([{ field: "feedback_data", reason: "validation.required" }]);
  if (typeof raw !== "string") throw badRequest([{ field: "feedback_data", reason: "validation.invalidType", values: { expected: "string" } }]);
  if (raw.length > FEEDBACK_BODY_MAX) throw badRequest([{ field: "feedback_data", reason: "validation.tooLong", values: { maximum: FEEDBACK_BODY_MAX } }]);
  const unknown = Object.keys(fields).find((name) => name !== "feedback_data");
  if (unknown) throw badRequest([{ field: unknown, reason: "validation.unknownKey" }]);
  const data = parse(feedbackDataSchema, parseJsonText(raw, "feedback_data"), "feedback_data");
  await enforce(c.env.DB, FEEDBACK_RULE, session.user.id);
  return success(c, { id: String(await storeFeedback(c.env.DB, session.user.id, data)) });
});
