// The inbox: conversations and message requests, one conversation with its messages and
// composer, and the new-message view with a people picker. The header's dropdown and the
// /messages/ pages render it; both move the one store (inbox.client.ts). Every text a person
// wrote is rendered as text (React escapes it), never as markup.
import { useStore } from "@nanostores/react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { resource } from "~/api/api.client.ts";
import { fill } from "~/saves/strings.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import type { DraftAttachment } from "./inbox.ts";
import {
  $inbox,
  answerRequest,
  clearAttachment,
  closeConversation,
  displayNameOf,
  failureText,
  loadInbox,
  openConversation,
  openNewMessage,
  sendToConversation,
  startConversation,
} from "./inbox.client.ts";
import { MESSAGE_TEXT_MAX, RECIPIENTS_MAX, type Attachment, type Conversation, type Message, type PersonRef } from "./messaging.ts";
import { pluralOf, type MessagesStrings } from "./strings.ts";
import { shareSuggestions } from "./suggestions.client.ts";

export interface InboxProps {
  strings: MessagesStrings;
  /** "dropdown" opens conversations in place; "page" links to /messages/{id}/. */
  mode: "dropdown" | "page";
  /** The page's conversation (/messages/{id}/). */
  initialOpenId?: string | null;
  /** The page's draft attachment (/messages/?pin={id}). */
  initialAttachment?: DraftAttachment | null;
  /** The page's first recipient (/messages/?to={id}). */
  initialTo?: PersonRef | null;
  viewer: PersonRef | null;
  onClose?: () => void;
}

function AttachmentView({ attachment, strings }: { attachment: Attachment; strings: MessagesStrings }) {
  if (attachment.unavailable) return <p className="messages-attachment messages-unavailable">{strings.unavailable}</p>;
  switch (attachment.kind) {
    case "pin":
      return (
        <a className="messages-attachment messages-pin" href={attachment.url}>
          <img src={attachment.image_url} alt={attachment.alt ?? attachment.title} width={118} loading="lazy" />
          <span dir="auto">{attachment.title || strings.pin}</span>
        </a>
      );
    case "board":
      return (
        <a className="messages-attachment" href={attachment.url} dir="auto">
          {fill(strings.board, { name: attachment.name })}
        </a>
      );
    case "user":
      return (
        <a className="messages-attachment" href={attachment.url} dir="auto">
          {fill(strings.profile, { name: displayNameOf(attachment) })}
        </a>
      );
    case "did_it":
      return (
        <a className="messages-attachment" href={attachment.url} dir="auto">
          {fill(strings.triedIt, { name: displayNameOf(attachment.user) })}
        </a>
      );
  }
}

function MessageItem({ message, mine, strings }: { message: Message; mine: boolean; strings: MessagesStrings }) {
  return (
    <li className={mine ? "messages-item messages-mine" : "messages-item"} data-message-id={message.id} data-temp={message.type === "tempMessage" || undefined}>
      <span className="messages-sender">{mine ? strings.you : displayNameOf(message.sender)}</span>
      {message.text && (
        <p className="messages-text" dir="auto">
          {message.text}
        </p>
      )}
      {message.attachment && <AttachmentView attachment={message.attachment} strings={strings} />}
      {message.type === "tempMessage" && <span className="messages-sending">{strings.sending}</span>}
    </li>
  );
}

function Composer({ onSend, strings, error, busy }: { onSend: (text: string) => Promise<boolean>; strings: MessagesStrings; error: string | undefined; busy?: boolean }) {
  const [text, setText] = useState("");
  const attachment = useStore($inbox).attachment;
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() && !attachment) return;
    const sent = text;
    setText("");
    if (!(await onSend(sent.trim()))) setText(sent);
  };
  return (
    <form className="messages-composer" onSubmit={(event) => void submit(event)}>
      {attachment && (
        <p className="messages-chip">
          <span dir="auto">{fill(strings.attached, { label: attachment.label })}</span>
          <button type="button" className="button" onClick={clearAttachment}>
            {strings.removeAttachment}
          </button>
        </p>
      )}
      {error && (
        <p className="messages-error" role="alert">
          {error}
        </p>
      )}
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {strings.message}
      </label>
      <textarea
        id={`${id}-text`}
        name="text"
        rows={2}
        maxLength={MESSAGE_TEXT_MAX}
        placeholder={strings.placeholder}
        value={text}
        dir="auto"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey) {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <button type="submit" className="button primary" disabled={busy === true || (!text.trim() && !attachment)}>
        {strings.send}
      </button>
    </form>
  );
}

function RequestBar({ conversation, strings, other }: { conversation: Conversation; strings: MessagesStrings; other: PersonRef | undefined }) {
  const [confirmBlock, setConfirmBlock] = useState(false);
  const name = other ? displayNameOf(other) : conversation.name;
  const labels = { declined: strings.declined, blocked: strings.blocked, undo: strings.undo, failed: strings.answerFailed };
  return (
    <div className="messages-request">
      <p dir="auto">{fill(strings.requestIntro, { name })}</p>
      <div className="messages-request-actions">
        <button type="button" className="button primary" onClick={() => void answerRequest(conversation.id, "accept", labels)}>
          {strings.accept}
        </button>
        <button type="button" className="button" onClick={() => void answerRequest(conversation.id, "decline", labels)}>
          {strings.decline}
        </button>
        <button type="button" className="button" onClick={() => setConfirmBlock(true)}>
          {strings.block}
        </button>
      </div>
      <Dialog open={confirmBlock} onClose={() => setConfirmBlock(false)} className="messages-modal" role="alertdialog" title={fill(strings.blockTitle, { name })} closeLabel={strings.close}>
        <p>{strings.blockText}</p>
        <div className="messages-modal-actions">
          <button type="button" className="button" onClick={() => setConfirmBlock(false)}>
            {strings.cancel}
          </button>
          <button
            type="button"
            className="button primary"
            data-autofocus
            onClick={() => {
              setConfirmBlock(false);
              void answerRequest(conversation.id, "block", labels);
            }}
          >
            {strings.block}
          </button>
        </div>
      </Dialog>
    </div>
  );
}

/** Block or unblock the other person of a two-person conversation, each behind its modal. */
function BlockControl({ person, strings }: { person: PersonRef; strings: MessagesStrings }) {
  const [blocked, setBlocked] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState("");
  const name = displayNameOf(person);
  const run = async () => {
    setAsking(false);
    try {
      await resource("UserBlockResource", blocked ? "delete" : "create", { user_id: person.id });
      setBlocked(!blocked);
      setError("");
    } catch (caught) {
      setError(failureText(caught, strings.failed));
    }
  };
  return (
    <div className="messages-block">
      {blocked && <p dir="auto">{fill(strings.youBlocked, { name })}</p>}
      <button type="button" className="button" onClick={() => setAsking(true)}>
        {blocked ? strings.unblock : strings.block}
      </button>
      {error && <p role="alert">{error}</p>}
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        className="messages-modal"
        role="alertdialog"
        title={fill(blocked ? strings.unblockTitle : strings.blockTitle, { name })}
        closeLabel={strings.close}
      >
        <p>{blocked ? strings.unblockText : strings.blockText}</p>
        <div className="messages-modal-actions">
          <button type="button" className="button" onClick={() => setAsking(false)}>
            {strings.cancel}
          </button>
          <button type="button" className="button primary" data-autofocus onClick={() => void run()}>
            {blocked ? strings.unblock : strings.block}
          </button>
        </div>
      </Dialog>
    </div>
  );
}

function ConversationView({ id, strings, viewer, onBack }: { id: string; strings: MessagesStrings; viewer: PersonRef | null; onBack: () => void }) {
  const state = useStore($inbox);
  const conversation = state.conversations[id];
  const list = useRef<HTMLDivElement>(null);
  const count = conversation?.messages.length ?? 0;
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [count]);
  if (!conversation) return <p>{strings.loading}</p>;
  const others = conversation.users.filter((user) => user.id !== viewer?.id);
  const other = others.length === 1 ? others[0] : undefined;
  return (
    <section className="messages-conversation" aria-labelledby={`conversation-${id}`}>
      <div className="messages-bar">
        <button type="button" className="button" onClick={onBack}>
          {strings.back}
        </button>
        <h3 id={`conversation-${id}`} dir="auto">
          {conversation.name}
        </h3>
      </div>
      <div className="messages-log" ref={list} role="log" aria-live="polite" aria-label={conversation.name}>
        <ol className="messages-list">
          {conversation.messages.map((message) => (
            <MessageItem key={message.id} message={message} mine={message.sender.id === viewer?.id} strings={strings} />
          ))}
        </ol>
      </div>
      {conversation.status === "request" ? (
        <RequestBar conversation={conversation} strings={strings} other={other} />
      ) : (
        <>
          <Composer strings={strings} error={state.errors[id]} onSend={(text) => (viewer ? sendToConversation(id, text, viewer, strings.failed) : Promise.resolve(false))} />
          {other && <BlockControl person={other} strings={strings} />}
        </>
      )}
    </section>
  );
}

function PeoplePicker({ strings, chosen, onChange }: { strings: MessagesStrings; chosen: PersonRef[]; onChange: (people: PersonRef[]) => void }) {
  const [query, setQuery] = useState("");
  const [people, setPeople] = useState<PersonRef[] | null>(null);
  const id = useId();
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => void shareSuggestions(query).then((found) => live && setPeople(found)), query ? 250 : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);
  const chosenIds = new Set(chosen.map((person) => person.id));
  return (
    <div className="messages-picker">
      <label htmlFor={`${id}-q`}>{strings.to}</label>
      {chosen.length > 0 && (
        <ul className="messages-chosen">
          {chosen.map((person) => (
            <li key={person.id}>
              <button type="button" className="button" aria-pressed="true" onClick={() => onChange(chosen.filter((item) => item.id !== person.id))}>
                {displayNameOf(person)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <input id={`${id}-q`} type="search" autoComplete="off" placeholder={strings.searchPeople} value={query} maxLength={50} onChange={(event) => setQuery(event.target.value)} />
      <p className="messages-subhead">{query ? strings.searchPeople : strings.suggested}</p>
      {people === null ? (
        <p>{strings.loading}</p>
      ) : people.length === 0 ? (
        <p>{strings.noPeople}</p>
      ) : (
        <ul className="messages-people">
          {people.map((person) => (
            <li key={person.id}>
              <button
                type="button"
                className="messages-person"
                aria-pressed={chosenIds.has(person.id)}
                disabled={!chosenIds.has(person.id) && chosen.length >= RECIPIENTS_MAX}
                onClick={() => onChange(chosenIds.has(person.id) ? chosen.filter((item) => item.id !== person.id) : [...chosen, person])}
              >
                {person.image_medium_url && <img src={person.image_medium_url} alt="" width={32} height={32} />}
                <span dir="auto">{displayNameOf(person)}</span>
                <span className="messages-username">@{person.username}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function NewMessageView({ strings, viewer, first, onBack, onStarted }: { strings: MessagesStrings; viewer: PersonRef | null; first: PersonRef | null; onBack: () => void; onStarted: (id: string) => void }) {
  const [chosen, setChosen] = useState<PersonRef[]>(first ? [first] : []);
  const [busy, setBusy] = useState(false);
  const error = useStore($inbox).errors["new"];
  return (
    <section className="messages-new" aria-labelledby="messages-new-title">
      <div className="messages-bar">
        <button type="button" className="button" onClick={onBack}>
          {strings.back}
        </button>
        <h3 id="messages-new-title">{strings.newMessage}</h3>
      </div>
      <PeoplePicker strings={strings} chosen={chosen} onChange={setChosen} />
      <Composer
        strings={strings}
        error={error}
        busy={busy || chosen.length === 0}
        onSend={async (text) => {
          setBusy(true);
          const id = await startConversation(
            chosen.map((person) => person.id),
            text,
            viewer?.id ?? null,
            strings.failed,
          );
          setBusy(false);
          if (id) onStarted(id);
          return id !== null;
        }}
      />
    </section>
  );
}

function ConversationList({ ids, strings, viewer, mode, empty }: { ids: string[]; strings: MessagesStrings; viewer: PersonRef | null; mode: InboxProps["mode"]; empty: string }) {
  const conversations = useStore($inbox).conversations;
  if (ids.length === 0) return <p className="messages-empty">{empty}</p>;
  return (
    <ul className="messages-conversations">
      {ids.map((id) => {
        const conversation = conversations[id];
        if (!conversation) return null;
        const last = conversation.last_message;
        const body = (
          <>
            <span className="messages-name" dir="auto">
              {conversation.name}
            </span>
            {last && (
              <span className="messages-snippet" dir="auto">
                {last.sender.id === viewer?.id ? `${strings.you}: ` : ""}
                {last.text || (last.attachment ? strings.pin : "")}
              </span>
            )}
            {conversation.unread > 0 && <span className="messages-unread">{pluralOf(strings, "unread", conversation.unread)}</span>}
          </>
        );
        return (
          <li key={id}>
            {mode === "page" ? (
              <a className="messages-row" href={`/messages/${id}/`}>
                {body}
              </a>
            ) : (
              <button type="button" className="messages-row" onClick={() => void openConversation(id, viewer?.id ?? null)}>
                {body}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export default function Inbox({ strings, mode, initialOpenId = null, initialAttachment = null, initialTo = null, viewer, onClose }: InboxProps) {
  const state = useStore($inbox);
  const [tab, setTab] = useState<"order" | "requests">("order");
  useEffect(() => {
    if (!state.loaded) void loadInbox().catch(() => undefined);
    if (initialOpenId) void openConversation(initialOpenId, viewer?.id ?? null).catch(() => undefined);
    else if (initialAttachment || initialTo) openNewMessage(initialAttachment);
    // The page's own conversation or draft, once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const back = () => {
    if (mode === "page" && initialOpenId) location.assign("/messages/");
    else closeConversation();
  };
  const newMessageView = state.newMessage;
  return (
    <div className={`messages messages-${mode}`} data-hydrated="true">
      <div className="messages-head">
        <h2 id={`messages-title-${mode}`}>{strings.button}</h2>
        <button type="button" className="button" onClick={() => openNewMessage(null)}>
          {strings.newMessage}
        </button>
        {onClose && (
          <button type="button" className="button" onClick={onClose}>
            {strings.close}
          </button>
        )}
      </div>
      {newMessageView ? (
        <NewMessageView
          strings={strings}
          viewer={viewer}
          first={initialTo}
          onBack={closeConversation}
          onStarted={(id) => {
            if (mode === "page") history.replaceState(null, "", `/messages/${id}/`);
          }}
        />
      ) : state.openId ? (
        <ConversationView id={state.openId} strings={strings} viewer={viewer} onBack={back} />
      ) : (
        <>
          <div className="messages-tabs" role="group" aria-label={strings.button}>
            <button type="button" className="button" aria-pressed={tab === "order"} onClick={() => setTab("order")}>
              {strings.inbox}
            </button>
            <button type="button" className="button" aria-pressed={tab === "requests"} onClick={() => setTab("requests")}>
              {strings.requests}
              {state.requests.length > 0 ? ` (${state.requests.length})` : ""}
            </button>
          </div>
          {!state.loaded ? (
            <p>{strings.loading}</p>
          ) : (
            <ConversationList ids={state[tab]} strings={strings} viewer={viewer} mode={mode} empty={tab === "order" ? strings.empty : strings.noRequests} />
          )}
        </>
      )}
    </div>
  );
}
