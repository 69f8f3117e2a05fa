// Every modal of the islands, on the native <dialog>: showModal() makes the rest of the page
// inert, so focus stays inside and screen readers read only the dialog. It is named by its
// heading (aria-labelledby). Escape, a click on the backdrop and the close button ask the owner
// to close (onClose); the owner closes it by setting `open` to false, so it may refuse while
// something is in flight (the passcode check). On opening, focus goes to the element marked
// data-autofocus, else the first field, else the first button of the content; on closing it
// goes back to what opened the dialog, so keyboard users never lose their place.
import { useEffect, useId, useRef, type MouseEvent, type ReactNode } from "react";

interface DialogBase {
  open: boolean;
  /** The person asked to close it: Escape, a click on the backdrop, or the close button. */
  onClose: () => void;
  /** The dialog box's own look (each feature styles its own). */
  className: string;
  /** "alertdialog" for confirmations that destroy something. */
  role?: "dialog" | "alertdialog";
  describedBy?: string;
  /** True while it waits for an answer (aria-busy). */
  busy?: boolean;
  /** Where focus goes back on closing; by default whatever had focus when it opened. */
  returnFocus?: HTMLElement | null;
  /** Rendered only while open, so each opening starts afresh. */
  children: ReactNode;
}

/** A heading and a close button above the content. */
interface WithTitle extends DialogBase {
  title: ReactNode;
  closeLabel: string;
  labelledBy?: never;
}

/** The content renders its own heading, with this id. */
interface WithOwnHeading extends DialogBase {
  labelledBy: string;
  title?: never;
  closeLabel?: never;
}

export type DialogProps = WithTitle | WithOwnHeading;

/** Where focus goes when a dialog opens, in order of preference. */
const INITIAL_FOCUS = ["[data-autofocus]", "input:not([type=hidden]), select, textarea", ":scope > :not(.dialog-head) button"] as const;

/** Whether a click at (x, y) fell outside the dialog's box, on its backdrop. */
export function onBackdrop(box: { left: number; top: number; right: number; bottom: number }, x: number, y: number): boolean {
  return x < box.left || x > box.right || y < box.top || y > box.bottom;
}

export function Dialog(props: DialogProps) {
  const { open, onClose, className, role = "dialog", describedBy, busy, returnFocus = null, children } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const openProp = useRef(open);
  const onCloseRef = useRef(onClose);
  const pressedBackdrop = useRef(false);
  const titleId = useId();

  useEffect(() => {
    openProp.current = open;
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = returnFocus ?? document.activeElement;
      dialog.showModal();
      for (const selector of INITIAL_FOCUS) {
        const target = dialog.querySelector<HTMLElement>(selector);
        if (target) {
          target.focus();
          break;
        }
      }
    } else if (!open && dialog.open) {
      dialog.close();
    }
    // returnFocus is read when the dialog opens; a later change does not reopen it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape: the owner decides (it may refuse while busy), so the browser does not close it.
    const cancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    // However it closed, focus goes back; a close the owner did not make (a browser that
    // closes on a repeated Escape regardless) is reported so the owner's state follows.
    const closed = () => {
      const back = opener.current;
      opener.current = null;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
      if (openProp.current) onCloseRef.current();
    };
    dialog.addEventListener("cancel", cancel);
    dialog.addEventListener("close", closed);
    return () => {
      dialog.removeEventListener("cancel", cancel);
      dialog.removeEventListener("close", closed);
    };
  }, []);

  // Unmounted while open (an owner that renders it only while needed): focus goes back too.
  useEffect(
    () => () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    },
    [],
  );

  // A press and a release both on the backdrop close it; a drag out of a field does not.
  const backdropAt = (event: MouseEvent<HTMLDialogElement>) => event.target === ref.current && onBackdrop(ref.current.getBoundingClientRect(), event.clientX, event.clientY);

  return (
    <dialog
      ref={ref}
      className={className}
      role={role}
      aria-labelledby={props.title === undefined ? props.labelledBy : titleId}
      aria-describedby={describedBy}
      aria-busy={busy || undefined}
      onMouseDown={(event) => {
        pressedBackdrop.current = backdropAt(event);
      }}
      onClick={(event) => {
        if (pressedBackdrop.current && backdropAt(event)) onClose();
        pressedBackdrop.current = false;
      }}
    >
      {props.title !== undefined && (
        <div className="dialog-head">
          <h2 id={titleId}>{props.title}</h2>
          <button type="button" className="button dialog-close" aria-label={props.closeLabel} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      )}
      {open && children}
    </dialog>
  );
}
