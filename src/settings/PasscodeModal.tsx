// The parental passcode modal (spec 000 §4), on the modal dialog (src/ui/Dialog.tsx): Escape
// and the backdrop only ask to close, so a close is refused while the passcode is validating.
// The transitions live in passcodeModalReducer (src/accounts/passcode.ts, unit-tested); this
// component only renders them and talks to the store the settings forms use.
import { useEffect, useId, useReducer, useRef, useState, type FormEvent } from "react";
import {
  canClosePasscode,
  canSubmitPasscode,
  closedModal,
  passcodeModalReducer,
  type PasscodeErrorKey,
} from "~/accounts/passcode.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { $passcodeRequest, endPasscodeRequest, type PasscodeRequest } from "./passcode-store.ts";

export interface PasscodeModalProps {
  labels: { title: string; description: string; label: string; submit: string; close: string; validating: string; forgot: string };
  /** Translated text of each validation key. */
  errors: Record<PasscodeErrorKey, string>;
  forgotHref: string;
}

export default function PasscodeModal({ labels, errors, forgotHref }: PasscodeModalProps) {
  const [state, dispatch] = useReducer(passcodeModalReducer, closedModal);
  const input = useRef<HTMLInputElement>(null);
  const request = useRef<PasscodeRequest | null>(null);
  const [returnFocus, setReturnFocus] = useState<HTMLElement | null>(null);
  const id = useId();

  useEffect(
    () =>
      $passcodeRequest.subscribe((next) => {
        request.current = next;
        if (next) {
          const from = next.returnFocus ?? document.activeElement;
          setReturnFocus(from instanceof HTMLElement ? from : null);
          dispatch({ type: "open" });
        }
      }),
    [],
  );

  function close() {
    if (!canClosePasscode(state)) return;
    dispatch({ type: "close" });
    const pending = request.current;
    endPasscodeRequest();
    pending?.cancel();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const pending = request.current;
    if (!canSubmitPasscode(state) || !pending) return;
    dispatch({ type: "submit" });
    const result = await pending.submit(state.value);
    if (result.ok) {
      dispatch({ type: "succeeded" });
      endPasscodeRequest();
    } else {
      dispatch({ type: "failed", message: result.message });
      input.current?.focus();
    }
  }

  const validating = state.status === "validating";
  const message = state.serverError ?? (state.error ? errors[state.error] : null);
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;

  return (
    <Dialog open={state.status !== "closed"} onClose={close} className="passcode-modal" labelledBy={titleId} describedBy={descriptionId} busy={validating} returnFocus={returnFocus}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <h2 id={titleId}>{labels.title}</h2>
        <p id={descriptionId}>{labels.description}</p>
        <label htmlFor={`${id}-input`}>{labels.label}</label>
        <input
          ref={input}
          id={`${id}-input`}
          name="passcode"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          enterKeyHint="done"
          value={state.value}
          readOnly={validating}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId : undefined}
          onChange={(event) => dispatch({ type: "input", raw: event.target.value })}
        />
        <p id={errorId} className="field-error" role="alert">
          {message ?? ""}
        </p>
        <p className="passcode-modal-forgot">
          <a href={forgotHref}>{labels.forgot}</a>
        </p>
        <div className="passcode-modal-actions">
          <button type="button" className="button" onClick={close} disabled={validating}>
            {labels.close}
          </button>
          <button type="submit" className="button primary" disabled={!canSubmitPasscode(state)}>
            {labels.submit}
          </button>
        </div>
        <p role="status" className="passcode-modal-status">
          {validating && (
            <>
              <span className="settings-spinner" aria-hidden="true" />
              {labels.validating}
            </>
          )}
        </p>
      </form>
    </Dialog>
  );
}
