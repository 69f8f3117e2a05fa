// A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert,
// keeps Tab inside, and closes on Escape. Focus goes to the first field (or the dialog's first
// control) on open and back to whatever opened it on close, so keyboard users never lose their place.
import { useEffect, useId, useRef, type ReactNode } from "react";

export interface DialogProps {
  open: boolean;
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
  /** "alertdialog" for confirmations that destroy something. */
  role?: "dialog" | "alertdialog";
  describedBy?: string;
}

export function Dialog({ open, title, closeLabel, onClose, children, role = "dialog", describedBy }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  /** Set while the owner is closing it (open became false): then there is no one to tell. */
  const closingByProp = useRef(false);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      const first = dialog.querySelector<HTMLElement>("[data-autofocus], input, select, textarea, .organize-dialog-body button");
      first?.focus();
    } else if (!open && dialog.open) {
      closingByProp.current = true;
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape (the "cancel" event) and close() both end here: tell the owner, give focus back.
    const closed = () => {
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
      if (closingByProp.current) closingByProp.current = false;
      else onClose();
    };
    dialog.addEventListener("close", closed);
    return () => dialog.removeEventListener("close", closed);
  }, [onClose]);

  return (
    <dialog ref={ref} className="organize-dialog" role={role} aria-labelledby={titleId} aria-describedby={describedBy}>
      <div className="organize-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button organize-dialog-close" aria-label={closeLabel} onClick={() => ref.current?.close()}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {open && <div className="organize-dialog-body">{children}</div>}
    </dialog>
  );
}

export interface ConfirmActionsProps {
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** A confirmation's two buttons: Cancel takes focus first, so Enter never destroys by accident. */
export function ConfirmActions({ cancelLabel, confirmLabel, onCancel, onConfirm }: ConfirmActionsProps) {
  return (
    <div className="organize-actions">
      <button type="button" className="button" data-autofocus onClick={onCancel}>
        {cancelLabel}
      </button>
      <button type="button" className="button primary" onClick={onConfirm}>
        {confirmLabel}
      </button>
    </div>
  );
}
