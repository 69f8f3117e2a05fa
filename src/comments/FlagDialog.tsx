// Reporting a comment: one reason (radio group, required) and optional details, sent as the
// flag call's `reason` and `detailedReasons`. A modal <dialog> (src/ui/Dialog.tsx): focus
// goes to the first reason, Escape closes it, focus returns to the button that opened it.
import { useState, type FormEvent } from "react";
import { Dialog } from "~/ui/Dialog.tsx";
import { FLAG_DETAILS, FLAG_REASONS, type CommentStrings } from "./strings.ts";

export function FlagDialog({ open, strings, onClose, onSend }: { open: boolean; strings: CommentStrings; onClose: () => void; onSend: (reason: string, details: string[]) => Promise<boolean> }) {
  const [reason, setReason] = useState<string>(FLAG_REASONS[0]);
  const [details, setDetails] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const sent = await onSend(reason, details);
    setBusy(false);
    if (sent) {
      setDetails([]);
      onClose();
    }
  }

  return (
    <Dialog className="organize-dialog" open={open} title={strings.flagTitle} closeLabel={strings.close} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} className="flag-form">
        <fieldset>
          <legend>{strings.flagReasonLegend}</legend>
          {FLAG_REASONS.map((key) => (
            <label key={key} className="flag-choice">
              <input type="radio" name="reason" value={key} checked={reason === key} onChange={() => setReason(key)} />
              {strings[`reason.${key}`]}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{strings.flagDetailsLegend}</legend>
          {FLAG_DETAILS.map((key) => (
            <label key={key} className="flag-choice">
              <input
                type="checkbox"
                value={key}
                checked={details.includes(key)}
                onChange={(event) => setDetails((list) => (event.target.checked ? [...list, key] : list.filter((item) => item !== key)))}
              />
              {strings[`detail.${key}`]}
            </label>
          ))}
        </fieldset>
        <div className="comment-composer-actions">
          <button type="button" className="button" onClick={onClose}>
            {strings.cancel}
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {strings.flagSubmit}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function DeleteDialog({ open, strings, onClose, onConfirm }: { open: boolean; strings: CommentStrings; onClose: () => void; onConfirm: () => void }) {
  return (
    <Dialog className="organize-dialog" open={open} title={strings.deleteTitle} closeLabel={strings.close} onClose={onClose} role="alertdialog" describedBy="comment-delete-body">
      <p id="comment-delete-body">{strings.deleteBody}</p>
      <div className="comment-composer-actions">
        <button type="button" className="button" data-autofocus onClick={onClose}>
          {strings.cancel}
        </button>
        <button type="button" className="button danger" onClick={onConfirm}>
          {strings.delete}
        </button>
      </div>
    </Dialog>
  );
}
