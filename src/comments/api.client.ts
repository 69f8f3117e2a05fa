// The comment and tried-it calls, typed.
// Every call goes through the runtime fetch layer (src/runtime/fetch.ts: CSRF header,
// X-Requested-With, source URL, app state), the envelope calls by api/api.client.ts;
// the server decides what is allowed, these only carry the person's request.
import { ApiCallError, NetworkError, browserTransport, call, resource, type Transport } from "~/api/api.client.ts";
import { apiFetch, depsWith } from "~/runtime/fetch.ts";
import type { Comment, DidItPost, FeatureMap, Tag } from "./comment.ts";

export interface Page<T> {
  results: T[];
  bookmark: string | null;
}

const id = encodeURIComponent;

export const commentsApi = {
  list: (pinId: string, parentId: string | null, bookmark: string | null, transport?: Transport) =>
    resource<Page<Comment>>(
      "UnifiedCommentsResource",
      "get",
      { pin_id: pinId, page_size: 25, ...(parentId ? { parent_id: parentId } : {}), ...(bookmark ? { bookmark } : {}) },
      transport,
    ),
  create: (options: { pin_id: string; text: string; tags: Tag[]; parent_id?: string }, transport?: Transport) =>
    resource<Comment>("AggregatedCommentResource", "create", options, transport),
  update: (commentId: string, text: string, tags: Tag[], transport?: Transport) =>
    resource<Comment>("AggregatedCommentResource", "update", { commentId, text, tags, force: false }, transport),
  remove: (commentId: string, transport?: Transport) => resource<{ id: string }>("AggregatedCommentResource", "delete", { commentId }, transport),
  hide: (commentId: string, forUser: boolean, transport?: Transport) =>
    resource<{ hidden_ids: string[] }>("AggregatedCommentHideResource", "create", { commentId, for_user: forUser }, transport),
  react: (commentId: string, on: boolean, transport?: Transport) =>
    call<{ reaction_counts: Record<string, number>; reaction_by_me: 0 | 1 }>(
      `/v3/aggregated_comments/${id(commentId)}/react/`,
      { method: on ? "POST" : "DELETE", body: { json: { reaction_type: 1 } } },
      transport,
    ),
  helpful: (commentId: string, on: boolean, transport?: Transport) =>
    call<{ helpful_count: number; marked_helpful_by_me: boolean }>(`/v3/helpful/1/${id(commentId)}/`, { method: on ? "POST" : "DELETE" }, transport),
  highlight: (commentId: string, pinId: string, highlight: boolean, transport?: Transport) =>
    call<Comment>("/v3/aggregated_comments/pin/highlight/", { method: "PUT", body: { json: { aggregated_comment: commentId, pin: pinId, highlight } } }, transport),
  flag: (commentId: string, reason: string, detailedReasons: string[], transport?: Transport) =>
    call<{ flagged: true }>(`/v3/aggregated_comments/${id(commentId)}/flag/`, { method: "PUT", body: { json: { reason, detailedReasons } } }, transport),
  removeMention: (commentId: string, transport?: Transport) => call<Comment>(`/v3/aggregated_comments/${id(commentId)}/mentions/`, { method: "DELETE" }, transport),
  translate: (commentId: string, transport?: Transport) => call<{ text: string }>(`/v3/aggregated_comments/${id(commentId)}/translate/`, { method: "GET" }, transport),
  lookupUser: (username: string, transport?: Transport) =>
    resource<{ id: string; username: string; full_name: string; image_medium_url: string | null }>("UserLookupResource", "get", { username }, transport),

  didIts: (pinId: string, bookmark: string | null, transport?: Transport) =>
    resource<Page<DidItPost>>("DidItUserFeedResource", "get", bookmark ? { pin_id: pinId, bookmark } : { pin_id: pinId }, transport),
  createDidIt: (options: { pin_id: string; details: string; image_signature?: string }, transport?: Transport) =>
    resource<DidItPost & { images_count: number }>("DidItActivityResource", "create", options, transport),
  deleteDidIt: (didItId: string, transport?: Transport) => resource<{ id: string; images_count: number }>("DidItActivityResource", "delete", { did_it_id: didItId }, transport),
  markDidIt: (kind: "like" | "helpful", didItId: string, on: boolean, transport?: Transport) =>
    resource<unknown>(kind === "like" ? "DidItLikeResource" : "DidItHelpfulResource", on ? "create" : "delete", { did_it_id: didItId }, transport),
  features: (userId: string, featureMap: FeatureMap, passcode?: string, transport?: Transport) =>
    resource<{ featureMap: FeatureMap }>("AggregatedCommentFeaturesResource", "update", { userId, featureMap, ...(passcode ? { passcode } : {}) }, transport),
};

/**
 * POST /v3/did_it/photos/ (multipart `pin_id` and `photo`): the signature to post with on that
 * pin. Through the runtime fetch layer like every other call (CSRF, X-Requested-With, source
 * URL, app state, the version check); the browser types the multipart body itself.
 */
export async function uploadDidItPhoto(file: File, pinId: string, transport: Transport = browserTransport()): Promise<string> {
  const form = new FormData();
  form.append("pin_id", pinId);
  form.append("photo", file);
  let response: Response;
  try {
    response = await apiFetch("/v3/did_it/photos/", { method: "POST", body: form }, depsWith(transport.fetch, transport.cookie()));
  } catch (error) {
    throw new NetworkError(error);
  }
  const body = (await response.json().catch(() => null)) as { status?: string; data?: { image_signature?: string }; message?: string; code?: number } | null;
  if (!response.ok || body?.status !== "success" || typeof body.data?.image_signature !== "string") throw new ApiCallError(response.status, body as never);
  return body.data.image_signature;
}
