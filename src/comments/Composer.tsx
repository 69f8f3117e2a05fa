// Writing a comment, a reply or an edit, with @mention suggestions. The textarea keeps its
// native textbox role and points at the suggestion list with aria-controls and
// aria-activedescendant (the listbox pattern); Up and Down move through suggestions, Enter or
// Tab picks one, Escape closes the list, and a status region says how many people there are.
// Suggestions are the people already in the conversation plus, for a full username, the
// person UserLookupResource finds.
import { forwardRef, useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { COMMENT_TEXT_MAX, textProblem } from "./comment.ts";
import type { Tag } from "./comment.ts";
import { activeMention, insertMention, suggestions, tagsFor, type MentionUser } from "./mentions.ts";
import { fill, type CommentStrings } from "./strings.ts";

export interface ComposerProps {
  strings: CommentStrings;
  label: string;
  submitLabel: string;
  people: readonly MentionUser[];
  lookup: (username: string) => Promise<MentionUser | null>;
  onSubmit: (text: string, tags: Tag[]) => Promise<boolean>;
  onCancel?: () => void;
  initialText?: string;
  initialMentions?: readonly MentionUser[];
  autoFocus?: boolean;
}

const LOOKUP = /^[A-Za-z0-9_.]{3,30}$/;

export const Composer = forwardRef<HTMLTextAreaElement, ComposerProps>(function Composer(
  { strings, label, submitLabel, people, lookup, onSubmit, onCancel, initialText = "", initialMentions = [], autoFocus = false },
  forwarded,
) {
  const id = useId();
  const [text, setText] = useState(initialText);
  const [caret, setCaret] = useState(initialText.length);
  const [chosen, setChosen] = useState<MentionUser[]>([...initialMentions]);
  const [found, setFound] = useState<MentionUser[]>([]);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const own = useRef<HTMLTextAreaElement | null>(null);

  const mention = activeMention(text, caret);
  const open = mention !== null && dismissed !== mention.start;
  const options = useMemo(() => (mention ? suggestions(mention.query, [...people, ...found]) : []), [mention, people, found]);
  const query = mention?.query ?? "";

  useEffect(() => {
    if (!open || !LOOKUP.test(query)) return;
    let live = true;
    const timer = setTimeout(() => {
      lookup(query)
        .then((user) => live && user && setFound((list) => (list.some((u) => u.id === user.id) ? list : [...list, user])))
        .catch(() => undefined);
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, query, lookup]);

  useEffect(() => {
    if (autoFocus) own.current?.focus();
  }, [autoFocus]);

  const listId = `${id}-people`;
  const optionId = (index: number) => `${id}-person-${index}`;
  const showList = open && options.length > 0;

  function pick(user: MentionUser) {
    if (!mention) return;
    const next = insertMention(text, mention.start, caret, user.username);
    setText(next.text);
    setCaret(next.caret);
    setChosen((list) => (list.some((u) => u.id === user.id) ? list : [...list, user]));
    setActive(0);
    requestAnimationFrame(() => {
      own.current?.focus();
      own.current?.setSelectionRange(next.caret, next.caret);
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!showList) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setActive((index) => (index + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
    } else if (event.key === "Enter" || event.key === "Tab") {
      const user = options[Math.min(active, options.length - 1)];
      if (user) {
        event.preventDefault();
        pick(user);
      }
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      setDismissed(mention?.start ?? null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const why = textProblem(text);
    if (why) {
      setProblem(why === "empty" ? strings.textEmpty : fill(strings.textTooLong, { max: COMMENT_TEXT_MAX }));
      own.current?.focus();
      return;
    }
    setProblem(null);
    setBusy(true);
    // Tags are counted in the text as sent; the server trims and moves them.
    const done = await onSubmit(text, tagsFor(text, chosen));
    setBusy(false);
    if (done) {
      setText("");
      setCaret(0);
      setChosen([]);
    }
  }

  const length = text.trim().length;
  return (
    <form className="comment-composer" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={`${id}-text`} className="comment-composer-label">
        {label}
      </label>
      <div className="comment-composer-field">
        <textarea
          id={`${id}-text`}
          ref={(node) => {
            own.current = node;
            if (typeof forwarded === "function") forwarded(node);
            else if (forwarded) forwarded.current = node;
          }}
          dir="auto"
          rows={2}
          value={text}
          placeholder={strings.composerPlaceholder}
          aria-autocomplete="list"
          aria-controls={showList ? listId : undefined}
          aria-activedescendant={showList ? optionId(Math.min(active, options.length - 1)) : undefined}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-counter${problem ? ` ${id}-problem` : ""}`}
          onChange={(event) => {
            setText(event.target.value);
            setCaret(event.target.selectionStart);
            setDismissed(null);
            setActive(0);
            if (problem) setProblem(null);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setTimeout(() => setDismissed(mention?.start ?? null), 150)}
        />
        {showList && (
          <ul id={listId} role="listbox" aria-label={strings.suggestionsLabel} className="mention-list">
            {options.map((user, index) => (
              <li
                key={user.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className="mention-option"
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(user);
                }}
              >
                <span dir="auto">{user.full_name || user.username}</span> <span className="mention-username" dir="ltr">@{user.username}</span>
              </li>
            ))}
          </ul>
        )}
        <p className="visually-hidden" role="status">
          {showList ? fill(strings.suggestionsCount, { count: options.length }) : open && query.length > 0 ? strings.noSuggestions : ""}
        </p>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="comment-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="comment-composer-actions">
        <span id={`${id}-counter`} className={length > COMMENT_TEXT_MAX ? "comment-counter over" : "comment-counter"}>
          {fill(strings.counter, { length, max: COMMENT_TEXT_MAX })}
        </span>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            {strings.cancel}
          </button>
        )}
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? strings.posting : submitLabel}
        </button>
      </div>
    </form>
  );
});
