// The close-up's share menu for a signed-in person: send the pin to someone (share suggestions
// first: the people they talk to and follow), copy its sent link (the /sent variant, carrying an
// invite code that introduces the sender), or start a new message with the pin attached.
// Suggestions are fetched ahead on phones so the menu opens full; a failure lists no one.
import { useEffect, useState } from "react";
import { fill } from "~/saves/strings.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { shareLink } from "~/invites/invite-link.ts";
import { displayNameOf, failureText, sendTo } from "./inbox.client.ts";
import type { PersonRef } from "./messaging.ts";
import type { MessagesStrings } from "./strings.ts";
import { shareSuggestions } from "./suggestions.client.ts";

export interface SharePinProps {
  pinId: string;
  /** The pin's canonical URL (/pin/{id}/). */
  url: string;
  title: string;
  strings: MessagesStrings;
}

/** Phones, where the suggestions are fetched before the menu opens (spec 000 §7). */
function isPhone(): boolean {
  try {
    const context = JSON.parse(document.getElementById("pinloom-context")?.textContent ?? "{}") as { userAgent?: { isMobile?: boolean }; viewer?: { should_show_messaging?: boolean } | null };
    return (context.userAgent?.isMobile ?? innerWidth < 640) && context.viewer?.should_show_messaging !== false;
  } catch {
    return false;
  }
}

/** The pin's sent link: the /sent variant of its URL, with the invite code the copy-link action mints. */
async function sentLink(url: string): Promise<string> {
  const link = new URL(await shareLink(url));
  link.pathname = `${link.pathname.replace(/\/$/, "")}/sent/`;
  return link.href;
}

type SendState = Record<string, "sending" | "sent" | "failed">;

export default function SharePin({ pinId, url, title, strings }: SharePinProps) {
  const [open, setOpen] = useState(false);
  const [people, setPeople] = useState<PersonRef[] | null>(null);
  const [sent, setSent] = useState<SendState>({});
  const [status, setStatus] = useState("");

  useEffect(() => {
    if (isPhone()) void shareSuggestions();
  }, []);
  useEffect(() => {
    if (open) void shareSuggestions().then(setPeople);
  }, [open]);

  const attachment = { kind: "pin" as const, id: pinId, label: title || strings.pin };
  const send = async (person: PersonRef) => {
    setSent((state) => ({ ...state, [person.id]: "sending" }));
    try {
      await sendTo(person.id, "", attachment, "share_menu");
      setSent((state) => ({ ...state, [person.id]: "sent" }));
      setStatus(fill(strings.sentTo, { name: displayNameOf(person) }));
    } catch (error) {
      setSent((state) => ({ ...state, [person.id]: "failed" }));
      setStatus(failureText(error, strings.sendFailed));
    }
  };
  const copy = async () => {
    try {
      const link = sentLink(url);
      if (typeof ClipboardItem !== "undefined" && typeof navigator.clipboard.write === "function") {
        await navigator.clipboard.write([new ClipboardItem({ "text/plain": link.then((text) => new Blob([text], { type: "text/plain" })) })]);
      } else await navigator.clipboard.writeText(await link);
      setStatus(strings.linkCopied);
    } catch {
      setStatus(strings.copyFailed);
    }
  };

  return (
    <div className="share-pin" data-hydrated="true">
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {strings.share}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} className="messages-modal" title={strings.shareTitle} closeLabel={strings.close}>
        {people === null ? (
          <p>{strings.loading}</p>
        ) : people.length === 0 ? (
          <p>{strings.noPeople}</p>
        ) : (
          <ul className="share-pin-people">
            {people.map((person) => (
              <li key={person.id}>
                <span dir="auto">{displayNameOf(person)}</span>
                <button
                  type="button"
                  className="button"
                  aria-label={fill(strings.shareTo, { name: displayNameOf(person) })}
                  disabled={sent[person.id] === "sending" || sent[person.id] === "sent"}
                  onClick={() => void send(person)}
                >
                  {strings.send}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="share-pin-actions">
          <button type="button" className="button" onClick={() => void copy()}>
            {strings.copyLink}
          </button>
          <a className="button" href={`/messages/?pin=${encodeURIComponent(pinId)}`}>
            {strings.newWithPin}
          </a>
        </div>
        <p role="status" aria-live="polite">
          {status}
        </p>
      </Dialog>
    </div>
  );
}
