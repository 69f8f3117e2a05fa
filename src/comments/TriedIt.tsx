// "Tried it": the pin's tried-it posts (DidItUserFeedResource, newest first, paged by bookmark
// with the resource-list rules of src/feeds/feed.ts) with Like and Helpful (the social
// DidItLike/DidItHelpful resources, moved by social/did-it.ts's didItReducer, optimistic with a
// revert and a toast), and, signed in, a form to share one: text 1..500 and an optional photo
// uploaded first to /v3/did_it/photos/.
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { didItReducer, type DidItEvent } from "~/social/did-it.ts";
import { canPage, emptyList, fetchFailed, fetchStarted, fetchSucceeded, type ResourceList } from "~/feeds/feed.ts";
import { ApiCallError } from "~/api/api.client.ts";
import { DID_IT_DETAILS_MAX, isAnonymous, textProblem, type DidItPost } from "./comment.ts";
import { commentsApi, uploadDidItPhoto } from "./api.client.ts";
import { failureMessage, type Io } from "./actions.ts";
import { fill, type CommentStrings } from "./strings.ts";
import { Dialog } from "~/ui/Dialog.tsx";

const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];
const PHOTO_MAX = 5 * 1024 * 1024;

export interface TriedItProps {
  pinId: string;
  strings: CommentStrings;
  /** The signed-in (full login) viewer's id; null signed out. */
  viewerId: string | null;
  /** The pin's owner may delete anyone's post on it, as the server allows. */
  isPinOwner: boolean;
  /** The pin's tried-it count when the page was made; each post or delete answers the new one. */
  count: number;
  io: Io;
  language: string;
}

const apply = (post: DidItPost, event: DidItEvent): DidItPost => ({ ...post, ...didItReducer(post, event) });

export function TriedIt({ pinId, strings, viewerId, isPinOwner, count: initialCount, io, language }: TriedItProps) {
  const id = useId();
  const signedIn = viewerId !== null;
  const [count, setCount] = useState(initialCount);
  const [deleting, setDeleting] = useState<DidItPost | null>(null);
  const [list, setList] = useState<ResourceList<DidItPost>>(emptyList);
  const [details, setDetails] = useState("");
  const [photo, setPhoto] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const messages = { failed: strings.failed, offline: strings.offline, flagged: strings.flagged, translateFailed: strings.translateFailed };

  const load = useCallback(
    async (bookmark: string | null) => {
      setList(fetchStarted);
      try {
        const page = await commentsApi.didIts(pinId, bookmark);
        setList((current) => fetchSucceeded(current, { items: page.results, bookmark: page.bookmark }, bookmark === null));
      } catch (error) {
        setList((current) => fetchFailed(current, error instanceof ApiCallError ? error.httpStatus : null).list);
      }
    },
    [pinId],
  );

  useEffect(() => void load(null), [load]);

  const update = (postId: string, event: DidItEvent) => setList((current) => ({ ...current, items: current.items.map((p) => (p.id === postId ? apply(p, event) : p)) }));

  async function mark(post: DidItPost, kind: "like" | "helpful") {
    const on = kind === "like" ? !post.liked_by_me : !post.marked_helpful_by_me;
    const events: Record<string, DidItEvent> = { like: { type: "like" }, unlike: { type: "unlike" }, helpful: { type: "mark_helpful" }, unhelpful: { type: "unmark_helpful" } };
    const forward = events[kind === "like" ? (on ? "like" : "unlike") : on ? "helpful" : "unhelpful"]!;
    const back = events[kind === "like" ? (on ? "unlike" : "like") : on ? "unhelpful" : "helpful"]!;
    update(post.id, forward);
    try {
      await io.api.markDidIt(kind, post.id, on);
    } catch (error) {
      update(post.id, back);
      io.notify(failureMessage(error, messages));
    }
  }

  /** After the confirmation: the post goes from the list when the server has deleted it. */
  async function remove(post: DidItPost) {
    setDeleting(null);
    try {
      const answer = await io.api.deleteDidIt(post.id);
      setList((current) => ({ ...current, items: current.items.filter((p) => p.id !== post.id) }));
      setCount(answer.images_count);
      io.notify(strings["tried.deleted"]);
    } catch (error) {
      io.notify(failureMessage(error, messages));
    }
  }

  function choosePhoto(file: File | null) {
    setProblem(null);
    if (file && !PHOTO_TYPES.includes(file.type)) return (setPhoto(null), setProblem(strings["tried.photoType"]));
    if (file && file.size > PHOTO_MAX) return (setPhoto(null), setProblem(strings["tried.photoTooBig"]));
    setPhoto(file);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const why = textProblem(details, DID_IT_DETAILS_MAX);
    if (why) return setProblem(why === "empty" ? strings.textEmpty : fill(strings.textTooLong, { max: DID_IT_DETAILS_MAX }));
    setBusy(true);
    try {
      const signature = photo ? await uploadDidItPhoto(photo, pinId) : undefined;
      const post = await io.api.createDidIt({ pin_id: pinId, details: details.trim(), ...(signature ? { image_signature: signature } : {}) });
      setList((current) => ({ ...current, items: [post, ...current.items.filter((p) => p.id !== post.id)] }));
      setCount(post.images_count);
      setDetails("");
      setPhoto(null);
      form.reset();
      io.notify(strings["tried.posted"]);
    } catch (error) {
      io.notify(failureMessage(error, messages));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="tried-it">
      <h3 className="tried-heading" aria-live="polite">
        {fill(strings["tried.heading"], { count })}
      </h3>
      {signedIn && (
        <form className="comment-composer" onSubmit={(event) => void submit(event)} noValidate>
          <label htmlFor={`${id}-details`} className="comment-composer-label">
            {strings["tried.formLabel"]}
          </label>
          <textarea
            id={`${id}-details`}
            dir="auto"
            rows={2}
            value={details}
            placeholder={strings["tried.formPlaceholder"]}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(event) => setDetails(event.target.value)}
          />
          <label htmlFor={`${id}-photo`}>{strings["tried.photo"]}</label>
          <input id={`${id}-photo`} type="file" accept={PHOTO_TYPES.join(",")} aria-describedby={`${id}-photo-help`} onChange={(event) => choosePhoto(event.target.files?.[0] ?? null)} />
          <p id={`${id}-photo-help`} className="comment-counter">
            {strings["tried.photoHelp"]}
          </p>
          {problem && (
            <p id={`${id}-problem`} className="comment-problem" role="alert">
              {problem}
            </p>
          )}
          <div className="comment-composer-actions">
            <span className="comment-counter">{fill(strings.counter, { length: details.trim().length, max: DID_IT_DETAILS_MAX })}</span>
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? strings["tried.posting"] : strings["tried.post"]}
            </button>
          </div>
        </form>
      )}
      {list.loaded && list.items.length === 0 && <p>{strings["tried.none"]}</p>}
      <ol className="comment-list" aria-label={strings["tried.listLabel"]}>
        {list.items.map((post) => {
          const anonymous = isAnonymous(post.user);
          const name = anonymous ? strings.anonymousAuthor : post.user.full_name.trim() || post.user.username;
          return (
            <li key={post.id} className="comment">
              <p className="comment-meta">
                {anonymous ? (
                  <span className="comment-anonymous">{name}</span>
                ) : (
                  <a href={`/${encodeURIComponent(post.user.username)}/`} dir="auto">
                    {name}
                  </a>
                )}
                {" · "}
                <time dateTime={new Date(post.created_at).toISOString()}>{new Date(post.created_at).toLocaleDateString(language)}</time>
              </p>
              <p className="comment-text" dir="auto">
                {post.details}
              </p>
              {post.image_url && <img className="tried-photo" src={post.image_url} alt={fill(strings["tried.photoAlt"], { name })} loading="lazy" />}
              <div className="comment-actions">
                {signedIn && (
                  <button type="button" className="comment-action" aria-pressed={post.liked_by_me} aria-label={fill(strings["tried.likeLabel"], { name })} onClick={() => void mark(post, "like")}>
                    {strings.like}
                  </button>
                )}
                <span className="comment-count">{fill(strings.likes, { count: post.like_count })}</span>
                {signedIn && (
                  <button type="button" className="comment-action" aria-pressed={post.marked_helpful_by_me} aria-label={fill(strings["tried.helpfulLabel"], { name })} onClick={() => void mark(post, "helpful")}>
                    {strings.helpful}
                  </button>
                )}
                <span className="comment-count">{fill(strings.helpfulCount, { count: post.helpful_count })}</span>
                {(post.user.id === viewerId || (isPinOwner && signedIn)) && (
                  <button type="button" className="comment-action danger" aria-label={fill(strings["tried.deleteLabel"], { name })} onClick={() => setDeleting(post)}>
                    {strings["tried.delete"]}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {list.fetching && <p className="comment-status">{strings.loading}</p>}
      {list.error && (
        <p className="comment-status" role="alert">
          {strings.loadFailed}{" "}
          <button type="button" className="comment-action" onClick={() => void load(list.loaded ? list.bookmark : null)}>
            {strings.retry}
          </button>
        </p>
      )}
      {canPage(list) && (
        <button type="button" className="button" onClick={() => void load(list.bookmark)}>
          {strings["tried.more"]}
        </button>
      )}
      <Dialog className="organize-dialog" open={deleting !== null} title={strings["tried.deleteTitle"]} closeLabel={strings.close} onClose={() => setDeleting(null)} role="alertdialog" describedBy={`${id}-delete-body`}>
        <p id={`${id}-delete-body`}>{strings["tried.deleteBody"]}</p>
        <div className="comment-composer-actions">
          <button type="button" className="button" data-autofocus onClick={() => setDeleting(null)}>
            {strings.cancel}
          </button>
          <button type="button" className="button danger" onClick={() => deleting && void remove(deleting)}>
            {strings["tried.delete"]}
          </button>
        </div>
      </Dialog>
    </div>
  );
}
