// The feedback modal's call (spec 000 §7 POST /v3/analytics/feedback/ with feedback_data as JSON
// text). Empty or whitespace-only text counts as success and sends nothing (§5).
import { ApiCallError, call, type Transport } from "~/api/api.client.ts";
import { isEmptyFeedback } from "./feedback.ts";

type FeedbackResult = "sent" | "empty";

export async function submitFeedback(text: string, actionFrom: string, page: string, transport?: Transport): Promise<FeedbackResult> {
  if (isEmptyFeedback(text)) return "empty";
  const feedbackData = JSON.stringify({ verbatim_text: text, action_from: actionFrom, page });
  await call("/v3/analytics/feedback/", { method: "POST", body: { json: { feedback_data: feedbackData } } }, transport);
  return "sent";
}

/** The words a failure shows: the server's own when it gave them (a 400's reason, a 429), else the default. */
export function feedbackError(error: unknown, fallback: string): string {
  if (error instanceof ApiCallError && error.code !== null && error.message) return error.detail ? `${error.message} ${error.detail}` : error.message;
  return fallback;
}
