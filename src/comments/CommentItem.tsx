// One comment (or reply) with its actions. Like and Helpful are toggle buttons (aria-pressed);
// the rarer actions sit behind a "More actions" disclosure so the row stays short. What a
// person may do comes from the comment's own can_edit / can_delete / can_highlight, which the
// server computed for this viewer; the server checks again on every call.
import { useState } from "react";
import { useStore } from "@nanostores/react";
import { isAnonymous, type Comment, type Tag } from "./comment.ts";
import { CommentText } from "./CommentText.tsx";
import { Composer } from "./Composer.tsx";
import type { CommentActions } from "./actions.ts";
import type { MentionUser } from "./mentions.ts";
import { $comments, type PendingComment } from "./state.ts";
import { fill, type CommentStrings } from "./strings.ts";

export interface ItemContext {
  strings: CommentStrings;
  actions: CommentActions;
  viewer: MentionUser | null;
  isPinOwner: boolean;
  blockedHosts: ReadonlySet<string>;
  people: readonly MentionUser[];
  lookup: (username: string) => Promise<MentionUser | null>;
  language: string;
  askDelete: (comment: Comment) => void;
  askFlag: (comment: Comment) => void;
}

const nameOf = (user: { full_name: string; username: string }) => user.full_name.trim() || user.username;

/** A comment in flight: what was written, marked "Posting…" until the server answers. */
export function PendingItem({ pending, strings }: { pending: PendingComment; strings: CommentStrings }) {
  return (
    <li className="comment comment-pending" aria-busy="true" data-pending-key={pending.key}>
      <p className="comment-meta">
        <span dir="auto">{nameOf(pending.user)}</span>
        {" · "}
        <span className="comment-pending-status">{strings.posting}</span>
      </p>
      <p className="comment-text" dir="auto">
        {pending.text}
      </p>
    </li>
  );
}

export function CommentItem({ comment, context }: { comment: Comment; context: ItemContext }) {
  const { strings, actions, viewer, isPinOwner, blockedHosts, people, lookup, language } = context;
  const state = useStore($comments);
  const [editing, setEditing] = useState(false);
  const [replying, setReplying] = useState(false);
  const [showReplies, setShowReplies] = useState(false);
  const [menu, setMenu] = useState(false);
  const [translating, setTranslating] = useState(false);
  const translation = state?.translations[comment.id];
  const replies = state?.replies[comment.id];
  const likes = comment.reaction_counts["1"] ?? 0;
  const liked = comment.reaction_by_me === 1;
  const mentionsMe = viewer !== null && comment.tagged_users.some((user) => user.id === viewer.id);
  const isReply = comment.parent_id !== null;
  const anonymous = isAnonymous(comment.user);
  const author = anonymous ? strings.anonymousAuthor : nameOf(comment.user);
  const textId = `comment-${comment.id}-text`;

  async function toggleReplies() {
    const next = !showReplies;
    setShowReplies(next);
    if (next && !replies?.loaded) await actions.load(comment.id, true);
  }

  async function reply(text: string, tags: Tag[]) {
    setReplying(false);
    setShowReplies(true);
    const made = await actions.create(text, tags, comment.id, viewer ? { ...viewer, image_medium_url: null } : undefined);
    // Refused: the reply box comes back (the toast says why).
    if (!made) setReplying(true);
    return made !== null;
  }

  return (
    <li className={comment.highlighted_by_pin_owner ? "comment highlighted" : "comment"} aria-describedby={textId} data-comment-id={comment.id}>
      <p className="comment-meta">
        {anonymous ? (
          <span className="comment-anonymous">{author}</span>
        ) : (
          <a href={`/${encodeURIComponent(comment.user.username)}/`} dir="auto">
            {author}
          </a>
        )}
        {" · "}
        <time dateTime={new Date(comment.created_at).toISOString()}>{new Date(comment.created_at).toLocaleDateString(language)}</time>
        {comment.highlighted_by_pin_owner && (
          <>
            {" · "}
            <span className="comment-highlight">{strings.highlighted}</span>
          </>
        )}
      </p>
      {editing ? (
        <Composer
          strings={strings}
          label={strings.editLabel}
          submitLabel={strings.save}
          people={people}
          lookup={lookup}
          initialText={comment.text}
          initialMentions={comment.tagged_users}
          autoFocus
          onCancel={() => setEditing(false)}
          onSubmit={async (text, tags) => {
            setEditing(false);
            return actions.update(comment.id, text, tags);
          }}
        />
      ) : (
        <CommentText comment={comment} blockedHosts={blockedHosts} id={textId} />
      )}
      <div aria-live="polite" className="comment-translation-region">
        {translation !== undefined && translation !== "" && (
          <p className="comment-translation" dir="auto">
            <span className="comment-translation-label">{strings.translation}: </span>
            {translation}
          </p>
        )}
        {translation === "" && <p className="comment-translation comment-translation-none">{strings.translateFailed}</p>}
      </div>
      <div className="comment-actions">
        {viewer ? (
          <>
            <button type="button" className="comment-action" aria-pressed={liked} aria-label={fill(strings.likeLabel, { name: author })} onClick={() => void actions.like(comment.id, !liked)}>
              {strings.like}
            </button>
            <span className="comment-count">{fill(strings.likes, { count: likes })}</span>
            <button
              type="button"
              className="comment-action"
              aria-pressed={comment.marked_helpful_by_me}
              aria-label={fill(strings.helpfulLabel, { name: author })}
              onClick={() => void actions.helpful(comment.id, !comment.marked_helpful_by_me)}>
              {strings.helpful}
            </button>
            <span className="comment-count">{fill(strings.helpfulCount, { count: comment.helpful_count })}</span>
            {!isReply && (
              <button type="button" className="comment-action" aria-expanded={replying} onClick={() => setReplying((open) => !open)}>
                {strings.reply}
              </button>
            )}
          </>
        ) : (
          <>
            <span className="comment-count">{fill(strings.likes, { count: likes })}</span>
            <span className="comment-count">{fill(strings.helpfulCount, { count: comment.helpful_count })}</span>
          </>
        )}
        <button
          type="button"
          className="comment-action"
          disabled={translating}
          onClick={async () => {
            setTranslating(true);
            await actions.translate(comment.id);
            setTranslating(false);
          }}
        >
          {translating ? strings.translating : strings.translate}
        </button>
        {viewer && (
          <button type="button" className="comment-action" aria-expanded={menu} aria-controls={`comment-${comment.id}-more`} onClick={() => setMenu((open) => !open)}>
            {strings.more}
          </button>
        )}
      </div>
      {viewer && menu && (
        <div className="comment-more" id={`comment-${comment.id}-more`} role="group" aria-label={strings.more}>
          {comment.can_edit && (
            <button type="button" className="comment-action" onClick={() => (setMenu(false), setEditing(true))}>
              {strings.edit}
            </button>
          )}
          {comment.can_delete && (
            <button type="button" className="comment-action danger" onClick={() => context.askDelete(comment)}>
              {strings.delete}
            </button>
          )}
          {comment.can_delete && (
            <button type="button" className="comment-action" onClick={() => void actions.hide(comment.id, false)}>
              {strings.hide}
            </button>
          )}
          {isPinOwner && !anonymous && comment.user.id !== viewer.id && (
            <button type="button" className="comment-action" onClick={() => void actions.hide(comment.id, true)}>
              {fill(strings.hideForUser, { name: author })}
            </button>
          )}
          {comment.can_highlight && (
            <button type="button" className="comment-action" aria-pressed={comment.highlighted_by_pin_owner} onClick={() => void actions.highlight(comment.id, !comment.highlighted_by_pin_owner)}>
              {comment.highlighted_by_pin_owner ? strings.unhighlight : strings.highlight}
            </button>
          )}
          {mentionsMe && (
            <button type="button" className="comment-action" onClick={() => void actions.removeMention(comment.id, viewer.id)}>
              {strings.removeMention}
            </button>
          )}
          {comment.user.id !== viewer.id && (
            <button type="button" className="comment-action" onClick={() => context.askFlag(comment)}>
              {strings.flag}
            </button>
          )}
        </div>
      )}
      {replying && (
        <Composer
          strings={strings}
          label={fill(strings.replyLabel, { name: author })}
          submitLabel={strings.post}
          people={anonymous ? people : [comment.user, ...people]}
          lookup={lookup}
          initialText={anonymous ? "" : `@${comment.user.username} `}
          initialMentions={anonymous ? [] : [comment.user]}
          autoFocus
          onCancel={() => setReplying(false)}
          onSubmit={reply}
        />
      )}
      {!isReply && (comment.comment_count > 0 || (replies?.items.length ?? 0) > 0) && (
        <button type="button" className="comment-action comment-replies-toggle" aria-expanded={showReplies} onClick={() => void toggleReplies()}>
          {showReplies ? strings.hideReplies : fill(strings.viewReplies, { count: comment.comment_count })}
        </button>
      )}
      {showReplies && replies && (
        <>
          <ol className="comment-list comment-replies" aria-label={fill(strings.replyLabel, { name: author })}>
            {replies.items.map((item) => (
              <CommentItem key={item.id} comment={item} context={context} />
            ))}
            {state?.pending
              .filter((pending) => pending.parent_id === comment.id)
              .map((pending) => (
                <PendingItem key={pending.key} pending={pending} strings={strings} />
              ))}
          </ol>
          {replies.fetching && <p className="comment-status">{strings.loading}</p>}
          {replies.error && (
            <p className="comment-status" role="alert">
              {strings.loadFailed}{" "}
              <button type="button" className="comment-action" onClick={() => void actions.load(comment.id, !replies.loaded)}>
                {strings.retry}
              </button>
            </p>
          )}
          {!replies.ended && replies.loaded && !replies.fetching && !replies.error && (
            <button type="button" className="comment-action" onClick={() => void actions.load(comment.id)}>
              {strings.moreReplies}
            </button>
          )}
        </>
      )}
    </li>
  );
}
