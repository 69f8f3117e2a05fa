// A comment's text, rendered ONLY from segments (src/comments/segments.ts): text nodes that
// React escapes, profile links for mentions and checked outbound links. No markup is ever built
// from comment text, so a comment can never inject HTML or script.
import { COMMENT_LINK_REL, toSegments } from "./segments.ts";
import type { Comment } from "./comment.ts";

export function CommentText({ comment, blockedHosts, id }: { comment: Pick<Comment, "text" | "tags" | "tagged_users">; blockedHosts: ReadonlySet<string>; id?: string }) {
  const segments = toSegments(comment.text, comment.tags, comment.tagged_users, blockedHosts);
  return (
    <p className="comment-text" dir="auto" id={id}>
      {segments.map((segment, index) =>
        segment.type === "text" ? (
          <span key={index}>{segment.text}</span>
        ) : segment.type === "mention" ? (
          <a key={index} className="comment-mention" href={`/${encodeURIComponent(segment.user.username)}/`}>
            {segment.text}
          </a>
        ) : (
          <a key={index} href={segment.href} rel={COMMENT_LINK_REL} target="_blank">
            {segment.text}
          </a>
        ),
      )}
    </p>
  );
}
