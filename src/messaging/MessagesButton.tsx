// The header's messages icon with conversations_unseen_count, kept live by the person's channel
// (channel.client.ts, which tells the bell its count too). On a desktop-wide window it opens
// the inbox as a dropdown; on phones (and without script) it is a plain link to /messages/.
// Closing the dropdown clears the attachment and the new-message view (spec 000 §4).
import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import Inbox from "./Inbox.tsx";
import { listenForCounts } from "./channel.client.ts";
import { $inbox, closeDropdown, loadInbox, viewerOfPage } from "./inbox.client.ts";
import type { PersonRef } from "./messaging.ts";
import { pluralOf, type MessagesStrings } from "./strings.ts";

export interface MessagesButtonProps {
  strings: MessagesStrings;
}

/** The dropdown from this width up; narrower windows get the full page (the sm bucket of spec 000 §2). */
const DROPDOWN_MIN_WIDTH = 768;

export default function MessagesButton({ strings }: MessagesButtonProps) {
  const unseen = useStore($inbox).unseen;
  const [open, setOpen] = useState(false);
  // Read once in the browser; the server renders no one (the dropdown is closed there).
  const [viewer] = useState<PersonRef | null>(() => (typeof document === "undefined" ? null : viewerOfPage()));
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    void loadInbox().catch(() => undefined);
    // The header's counts, live in every tab of the person's.
    if (viewer) listenForCounts(viewer.id);
  }, [viewer]);

  const close = () => {
    setOpen(false);
    closeDropdown();
    trigger.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      // A dialog inside (the block modal) handles its own Escape.
      if (event.key === "Escape" && !document.querySelector("dialog[open]")) close();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (box.current && !box.current.contains(target) && !document.querySelector("dialog[open]")?.contains(target)) close();
    };
    addEventListener("keydown", onKey);
    addEventListener("pointerdown", onPointer);
    return () => {
      removeEventListener("keydown", onKey);
      removeEventListener("pointerdown", onPointer);
    };
  });

  const toggle = (event: MouseEvent<HTMLAnchorElement>) => {
    if (innerWidth < DROPDOWN_MIN_WIDTH) return;
    event.preventDefault();
    if (open) close();
    else setOpen(true);
  };

  const label = unseen > 0 ? pluralOf(strings, "buttonUnread", unseen) : strings.button;
  return (
    <div className="header-messages" ref={box} data-hydrated="true">
      <a ref={trigger} className="header-messages-link" href="/messages/" aria-label={label} aria-expanded={open} aria-haspopup="dialog" onClick={toggle}>
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path d="M4 5h16v11H9l-5 4z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
        {unseen > 0 && (
          // The count is drawn by CSS: as text it would count as the link's visible label, which
          // the Arabic one and two forms name in words, not digits (axe label-content-name-mismatch).
          <span className="header-messages-badge" aria-hidden="true" data-count={unseen > 99 ? "99+" : String(unseen)} />
        )}
      </a>
      {open && (
        <div className="header-messages-dropdown" role="dialog" aria-labelledby="messages-title-dropdown">
          <Inbox strings={strings} mode="dropdown" viewer={viewer} onClose={close} />
        </div>
      )}
    </div>
  );
}
