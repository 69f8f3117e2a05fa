// Feedback (spec 000 §3 "Feedback payload: verbatim_text", §4 feedback modal, §5, §7, §8): the
// payload's rules, shared by the modal and POST /v3/analytics/feedback/.
import { z } from "zod";

export const FEEDBACK_TEXT_MAX = 2000;
/** Feedback kept per person: the newest; the batch that adds one drops the oldest beyond it. */
export const FEEDBACK_KEPT = 50;

/** Spec 000 §5: empty or whitespace-only text counts as success with no call. */
export const isEmptyFeedback = (text: string): boolean => text.trim() === "";

/** What feedback_data (JSON text) holds: the text, and where the modal was opened from. */
export const feedbackDataSchema = z.strictObject({
  verbatim_text: z
    .string()
    .max(FEEDBACK_TEXT_MAX * 2)
    .transform((text) => text.trim())
    .pipe(z.string().min(1).max(FEEDBACK_TEXT_MAX)),
  action_from: z.string().max(100).default(""),
  page: z.string().max(2048).default(""),
});
export type FeedbackData = z.output<typeof feedbackDataSchema>;
