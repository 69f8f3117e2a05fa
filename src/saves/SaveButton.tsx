// The close-up's save island (signed-in viewers; signed out, the page keeps its log-in Save).
// Save opens the board picker, or, when the viewer's save_behavior is quick-save, saves to the
// profile at once with "Choose a board" beside it for the picker. Once saved it reads
// "Saved to {board}" (a link to the board) with Unsave. On hydration it asks what the pin is
// already saved to (the picker's answer, reused when the picker opens) and resumes a save
// started while signed out (unauthSavePinId), or opens the picker for the repost link (#repin).
import { useCallback, useEffect, useRef, useState } from "react";
import { useStore } from "@nanostores/react";
import type { Intent } from "~/accounts/unauth.client.ts";
import BoardPicker from "./BoardPicker.tsx";
import { INTENT_EVENT } from "~/accounts/unauth.client.ts";
import { saving, takeRepinLink, takeResumedSave } from "./saving.client.ts";
import { UNSAVED } from "./saves.ts";
import { $saves } from "./store.ts";
import type { SaveStrings } from "./strings.ts";
import "./save.css";
import { perViewer } from "~/member-page/viewer-values.ts";
import { pageStrings } from "~/i18n/page-strings.ts";

interface SaveButtonProps {
  pinId: string;
  /** Given, or the page's copy (src/i18n/page-strings.ts). */
  strings?: SaveStrings;
  /** The page's locale (the server's table for it). */
  locale: string;
  /** save_behavior says quick-save: Save goes to the profile (boardless) without the picker. */
  quickSave: boolean;
  /** The viewer's profile, where quick-saved pins are listed. */
  profileUrl: string;
}

function SaveButton(props: SaveButtonProps) {
  const { pinId, quickSave, profileUrl, locale } = props;
  const strings = props.strings ?? pageStrings("save", locale);
  const state = useStore($saves)[pinId] ?? UNSAVED;
  const [picking, setPicking] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const saveRef = useRef<HTMLButtonElement>(null);
  const unsaveRef = useRef<HTMLButtonElement>(null);
  const info = state.savedInfo;
  const busy = state.pending !== null;

  const openPicker = useCallback((from: HTMLElement | null, message: string | null = null) => {
    setOpener(from);
    setNotice(message);
    setPicking(true);
  }, []);

  const quick = useCallback(() => void saving().save(pinId, { kind: "profile", title: strings.profile, url: profileUrl }, strings), [pinId, profileUrl, strings]);

  useEffect(() => {
    // What the pin is already saved to (and the picker's boards, ready for the first click).
    saving()
      .loadPicker(pinId)
      .catch(() => undefined);
    const resume = (announced: Intent | null) => {
      if (!takeResumedSave(pinId, announced)) return;
      if (quickSave) quick();
      else openPicker(saveRef.current, strings.resumed);
    };
    const onIntent = (event: Event) => resume((event as CustomEvent<Intent>).detail);
    // The repost link (/pin/{id}/repin/) lands here at #repin: the picker opens, quick-save or not.
    if (takeRepinLink()) openPicker(saveRef.current ?? null);
    else resume(null);
    addEventListener(INTENT_EVENT, onIntent);
    return () => removeEventListener(INTENT_EVENT, onIntent);
  }, [pinId, quickSave, quick, openPicker, strings.resumed]);

  // Choosing a board swaps Save for Unsave: focus that was on Save lands on Unsave, not the page.
  const closePicker = useCallback(() => {
    setPicking(false);
    requestAnimationFrame(() => {
      if (document.activeElement === null || document.activeElement === document.body) (unsaveRef.current ?? saveRef.current)?.focus();
    });
  }, []);

  return (
    <div className="save-island" data-hydrated="true">
      {info ? (
        <>
          <span className="save-status" role="status">
            {strings.savedToLabel}{" "}
            <a href={info.url} dir="auto">
              {info.title}
            </a>
          </span>
          <button
            ref={unsaveRef}
            type="button"
            className="button save-unsave"
            aria-disabled={busy}
            onClick={() => !busy && void saving().unsave(pinId, info.type === "board" ? info.boardId : null, info.title, strings)}
          >
            {strings.unsave}
          </button>
        </>
      ) : (
        <span className="save-status" role="status" />
      )}
      {(quickSave || info) && (
        <button type="button" className="button save-choose" aria-haspopup="dialog" aria-disabled={busy} onClick={(event) => !busy && openPicker(event.currentTarget)}>
          {strings.chooseBoard}
        </button>
      )}
      {!info && (
        <button
          ref={saveRef}
          type="button"
          className="button primary save-main"
          aria-haspopup={quickSave ? undefined : "dialog"}
          aria-disabled={busy}
          onClick={(event) => {
            if (busy) return;
            if (quickSave) quick();
            else openPicker(event.currentTarget);
          }}
        >
          {busy ? strings.saving : strings.save}
        </button>
      )}
      <BoardPicker pinId={picking ? pinId : null} strings={strings} saving={saving()} onClose={closePicker} notice={notice} returnFocus={opener} />
    </div>
  );
}

/** The island as pages mount it: on a member page, its slot's values over its props. */
export default perViewer(SaveButton);
