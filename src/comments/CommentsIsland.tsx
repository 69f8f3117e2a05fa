// The close-up's comments island. The server renders the first comments as plain
// HTML (src/components/PinComments.astro) for crawlers, no-script readers and the first paint;
// this island loads the same list through UnifiedCommentsResource and, once it has it, takes
// the server list's place (comments.css hides that section when data-hydrated is true), so the
// page never shows both and never shows neither. Everything the person does goes through
// actions.ts (optimistic, reverted with a toast on failure); text is rendered only from
// segments. Signed out, the composer is a log-in button that remembers unauthCommentPinId, and
// after login on this pin the island takes that intent and focuses the composer.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useStore } from "@nanostores/react";
import AuthModal from "~/accounts/AuthModal.tsx";
import type { Intent } from "~/accounts/unauth.client.ts";
import { useHydrated } from "~/boards/hydrated.ts";
import { canPage, emptyList } from "~/feeds/feed.ts";
import { isAnonymous, type Comment, type Tag } from "./comment.ts";
import { browserIo, commentActions } from "./actions.ts";
import { blockedSet, checkHosts, hostsIn } from "./blocked-hosts.ts";
import { CommentItem, PendingItem, type ItemContext } from "./CommentItem.tsx";
import { Composer } from "./Composer.tsx";
import { DeleteDialog, FlagDialog } from "./FlagDialog.tsx";
import type { MentionUser } from "./mentions.ts";
import { INTENT_EVENT } from "~/accounts/unauth.client.ts";
import { takeResumedComment } from "./resume.ts";
import { $comments, allComments } from "./state.ts";
import { fill, type CommentStrings } from "./strings.ts";
import { pageStrings } from "~/i18n/page-strings.ts";
import { TriedIt } from "./TriedIt.tsx";
import "~/boards/organize.css";
import "./comments.css";
import { perViewer } from "~/member-page/viewer-values.ts";

export interface CommentsIslandProps {
  pinId: string;
  pinner: MentionUser;
  /** The signed-in (full login) viewer; null signed out or with a limited login. */
  viewer: MentionUser | null;
  /** Signed out: the composer becomes a log-in button. */
  signedOut: boolean;
  commentCount: number;
  /** The pin's tried-it posts, as counted when the page was made. */
  didItCount: number;
  commentsDisabled: boolean;
  /** SHA-256 digests of link_domains.is_blocked hosts: links to them stay text, as in the server HTML. */
  blockedHostDigests: string[];
  /** Given, or the page's copy (src/i18n/page-strings.ts). */
  strings?: CommentStrings;
  language: string;
  country: string;
  locale: string;
}

type Tab = "comments" | "tried";

function CommentsIsland(props: CommentsIslandProps) {
  const { pinId, pinner, viewer, signedOut, commentCount, commentsDisabled, language } = props;
  const strings = props.strings ?? pageStrings("comments", props.locale);
  const hydrated = useHydrated();
  const id = useId();
  const state = useStore($comments);
  const io = useMemo(() => browserIo(), []);
  const actions = useMemo(
    () => commentActions(io, { failed: strings.failed, offline: strings.offline, flagged: strings.flagged, translateFailed: strings.translateFailed }),
    [io, strings.failed, strings.offline, strings.flagged, strings.translateFailed],
  );
  const digests = useMemo(() => new Set(props.blockedHostDigests), [props.blockedHostDigests]);
  const [verdicts, setVerdicts] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [tab, setTab] = useState<Tab>("comments");
  const [deleting, setDeleting] = useState<Comment | null>(null);
  const [flagging, setFlagging] = useState<Comment | null>(null);
  const [resumed, setResumed] = useState(false);
  const composer = useRef<HTMLTextAreaElement>(null);
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ comments: null, tried: null });

  useEffect(() => {
    $comments.set({ pinId, top: emptyList<Comment>(), replies: {}, translations: {}, features: {}, commentCount, pending: [] });
    void actions.load(null, true);
  }, [pinId, commentCount, actions]);

  // A comment started while signed out resumes here after login: the composer gets focus.
  useEffect(() => {
    if (!viewer) return;
    const resume = (announced: Intent | null) => {
      if (takeResumedComment(pinId, announced)) {
        setTab("comments");
        setResumed(true);
      }
    };
    const onIntent = (event: Event) => resume((event as CustomEvent<Intent>).detail);
    resume(null);
    addEventListener(INTENT_EVENT, onIntent);
    return () => removeEventListener(INTENT_EVENT, onIntent);
  }, [pinId, viewer]);

  const ready = state !== null && state.pinId === pinId && (state.top.loaded || state.top.error !== null);
  useEffect(() => {
    if (ready && resumed) {
      composer.current?.focus();
      composer.current?.scrollIntoView({ block: "center" });
    }
  }, [ready, resumed]);

  // Link hosts in the listed comments; each is checked once against the digests.
  const hosts = useMemo(() => [...new Set((state ? allComments(state) : []).flatMap((comment) => hostsIn(comment.text)))], [state]);
  useEffect(() => {
    const unchecked = hosts.filter((host) => !verdicts.has(host));
    if (unchecked.length === 0) return;
    let live = true;
    void checkHosts(unchecked, digests).then((found) => live && setVerdicts((known) => new Map([...known, ...found])));
    return () => {
      live = false;
    };
  }, [hosts, verdicts, digests]);
  const blocked = useMemo(() => blockedSet(verdicts), [verdicts]);

  const people = useMemo(() => {
    const seen = new Map<string, MentionUser>([[pinner.id, pinner]]);
    for (const comment of state ? allComments(state) : []) {
      if (!isAnonymous(comment.user)) seen.set(comment.user.id, comment.user);
      for (const user of comment.tagged_users) seen.set(user.id, user);
    }
    if (viewer) seen.delete(viewer.id);
    return [...seen.values()];
  }, [state, pinner, viewer]);

  const lookup = useCallback(async (username: string): Promise<MentionUser | null> => {
    try {
      const user = await io.api.lookupUser(username);
      return { id: user.id, username: user.username, full_name: user.full_name };
    } catch {
      return null;
    }
  }, [io]);

  // Signed out, the log-in composer is in the server HTML too (this island hydrates on
  // interaction for signed-out readers, so reading costs no React) and keeps its place in the
  // tree from the first render on, so the dialog it opens survives the list arriving.
  const login =
    signedOut && !commentsDisabled ? (
      <div className="comment-login">
        <AuthModal
          triggers={[{ mode: "login", label: strings.signedOut, className: "button primary" }]}
          path={`/pin/${pinId}/`}
          intent={{ kind: "comment", pinId }}
          country={props.country}
          locale={props.locale}
          idPrefix="comment-auth"
        />
      </div>
    ) : null;

  if (!hydrated || !ready || !state) {
    return (
      <section className="comments-island" data-hydrated="false">
        {null}
        {login}
        {null}
      </section>
    );
  }

  const context: ItemContext = {
    strings,
    actions,
    viewer,
    isPinOwner: viewer !== null && viewer.id === pinner.id,
    blockedHosts: blocked,
    people,
    lookup,
    language,
    askDelete: setDeleting,
    askFlag: setFlagging,
  };

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const next: Tab = event.key === "Home" ? "comments" : event.key === "End" ? "tried" : tab === "comments" ? "tried" : "comments";
    setTab(next);
    tabs.current[next]?.focus();
  };

  const post = async (text: string, tags: Tag[]) => {
    const made = await actions.create(text, tags, null, viewer ? { ...viewer, image_medium_url: null } : undefined);
    if (made) setResumed(false);
    return made !== null;
  };

  const top = state.top;
  return (
    <section className="comments-island" data-hydrated={top.loaded ? "true" : "false"} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{fill(strings.heading, { count: state.commentCount })}</h2>
      {login}
      <div role="tablist" aria-label={strings.tabsLabel} className="comments-tabs">
        {(["comments", "tried"] as const).map((key) => (
          <button
            key={key}
            ref={(node) => {
              tabs.current[key] = node;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${key}`}
            aria-controls={`${id}-panel-${key}`}
            aria-selected={tab === key}
            tabIndex={tab === key ? 0 : -1}
            className="comments-tab"
            onClick={() => setTab(key)}
            onKeyDown={onTabKey}
          >
            {key === "comments" ? strings.tabComments : strings.tabTried}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel-comments`} aria-labelledby={`${id}-tab-comments`} hidden={tab !== "comments"}>
        {commentsDisabled ? (
          <p>{strings.disabled}</p>
        ) : viewer ? (
          <>
            {resumed && (
              <p className="comment-status" role="status">
                {strings.resumed}
              </p>
            )}
            <Composer ref={composer} strings={strings} label={strings.composerLabel} submitLabel={strings.post} people={people} lookup={lookup} onSubmit={post} />
          </>
        ) : null}
        {top.loaded && top.items.length === 0 && !commentsDisabled && <p>{strings.none}</p>}
        {/* Said once for every comment in flight, from a region that is always there. */}
        <p className="visually-hidden" aria-live="polite">
          {state.pending.length > 0 ? strings.posting : ""}
        </p>
        <ol className="comment-list" aria-label={strings.listLabel}>
          {state.pending
            .filter((pending) => pending.parent_id === null)
            .toReversed()
            .map((pending) => (
              <PendingItem key={pending.key} pending={pending} strings={strings} />
            ))}
          {top.items.map((comment) => (
            <CommentItem key={comment.id} comment={comment} context={context} />
          ))}
        </ol>
        {top.fetching && <p className="comment-status">{strings.loading}</p>}
        {top.error && (
          <p className="comment-status" role="alert">
            {strings.loadFailed}{" "}
            <button type="button" className="comment-action" onClick={() => void actions.load(null, !top.loaded)}>
              {strings.retry}
            </button>
          </p>
        )}
        {canPage(top) && (
          <button type="button" className="button" onClick={() => void actions.load(null)}>
            {strings.loadMore}
          </button>
        )}
      </div>
      <div role="tabpanel" id={`${id}-panel-tried`} aria-labelledby={`${id}-tab-tried`} hidden={tab !== "tried"}>
        {tab === "tried" && <TriedIt pinId={pinId} strings={strings} viewerId={viewer?.id ?? null} isPinOwner={context.isPinOwner} count={props.didItCount} io={io} language={language} />}
      </div>
      <DeleteDialog
        open={deleting !== null}
        strings={strings}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (target) void actions.remove(target.id);
        }}
      />
      <FlagDialog
        open={flagging !== null}
        strings={strings}
        onClose={() => setFlagging(null)}
        onSend={async (reason, details) => (flagging ? actions.flag(flagging.id, reason, details) : false)}
      />
    </section>
  );
}

/** The island as pages mount it: on a member page, its slot's values over its props. */
export default perViewer(CommentsIsland);
