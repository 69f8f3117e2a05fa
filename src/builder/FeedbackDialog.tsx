// "Give feedback" (spec 001 §3 feedback modal flag): a button opening a modal dialog with a text
// box; the text goes through the events pipeline, which stores it.
import { useId, useState } from "react";
import { Dialog } from "~/ui/Dialog.tsx";
import type { UiKey } from "./strings.ts";
import { FEEDBACK_MAX, sendFeedback } from "./api.client.ts";

type State = "editing" | "sending" | "sent" | "failed" | "empty";

export function Feedback({ ui }: { ui: Record<UiKey, string> }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [state, setState] = useState<State>("editing");
  const send = async () => {
    if (text.trim() === "") return setState("empty");
    setState("sending");
    try {
      await sendFeedback(text.trim());
      setText("");
      setState("sent");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <button type="button" className="button builder-feedback" aria-haspopup="dialog" onClick={() => (setState("editing"), setOpen(true))}>
        {ui.feedback}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} className="builder-dialog" title={ui.feedbackTitle} closeLabel={ui.close} busy={state === "sending"}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <label htmlFor={`${id}-text`}>{ui.feedbackLabel}</label>
          <textarea id={`${id}-text`} rows={5} maxLength={FEEDBACK_MAX} value={text} aria-describedby={`${id}-state`} onChange={(event) => setText(event.target.value)} />
          <p id={`${id}-state`} role="status" className={state === "failed" || state === "empty" ? "builder-error" : undefined}>
            {state === "sent" ? ui.feedbackThanks : state === "failed" ? ui.feedbackFailed : state === "empty" ? ui.feedbackEmpty : ""}
          </p>
          <div className="builder-actions">
            <button type="submit" className="button primary" disabled={state === "sending"}>
              {state === "sending" ? ui.feedbackSending : ui.feedbackSend}
            </button>
            <button type="button" className="button" onClick={() => setOpen(false)}>
              {ui.close}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
