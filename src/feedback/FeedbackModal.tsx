// The feedback modal (spec 000 §4): shown with its title, prompt, actionFrom and
// nextPageToRedirect; submitting; succeeded; failed with the error text, which stays in the
// modal beside the text so nothing typed is lost; removed (closing resets it).
import { useId, useState } from "react";
import { Dialog } from "~/ui/Dialog.tsx";
import { FEEDBACK_TEXT_MAX } from "./feedback.ts";
import { feedbackError, submitFeedback } from "./feedback.client.ts";

export interface FeedbackStrings {
  open: string;
  title: string;
  prompt: string;
  label: string;
  send: string;
  sending: string;
  thanks: string;
  failed: string;
  close: string;
}

interface Props {
  strings: FeedbackStrings;
  /** Where it was opened from, sent with the text. */
  actionFrom: string;
  /** A path of ours to go to once it is sent. */
  nextPageToRedirect?: string | undefined;
}

type Status = { status: "removed" } | { status: "shown" | "submitting" | "succeeded" } | { status: "failed"; error: string };

const isOwnPath = (path: string | undefined): path is string => path !== undefined && path.startsWith("/") && !path.startsWith("//");

export default function FeedbackModal({ strings, actionFrom, nextPageToRedirect }: Props) {
  const id = useId();
  const [state, setState] = useState<Status>({ status: "removed" });
  const [text, setText] = useState("");
  const close = () => {
    if (state.status === "submitting") return;
    setState({ status: "removed" });
    setText("");
  };
  const send = async () => {
    setState({ status: "submitting" });
    try {
      await submitFeedback(text, actionFrom, location.pathname);
      setState({ status: "succeeded" });
      setText("");
      if (isOwnPath(nextPageToRedirect)) location.assign(nextPageToRedirect);
    } catch (error) {
      setState({ status: "failed", error: feedbackError(error, strings.failed) });
    }
  };
  const open = state.status !== "removed";
  return (
    <>
      <button type="button" className="button feedback-open" aria-haspopup="dialog" onClick={() => setState({ status: "shown" })}>
        {strings.open}
      </button>
      <Dialog open={open} onClose={close} className="feedback-dialog" title={strings.title} closeLabel={strings.close} busy={state.status === "submitting"} describedBy={`${id}-prompt`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <p id={`${id}-prompt`}>{strings.prompt}</p>
          <label htmlFor={`${id}-text`}>{strings.label}</label>
          <textarea id={`${id}-text`} rows={5} maxLength={FEEDBACK_TEXT_MAX} value={text} onChange={(event) => setText(event.target.value)} aria-describedby={`${id}-state`} />
          <p id={`${id}-state`} className={state.status === "failed" ? "feedback-error" : "feedback-state"} role={state.status === "failed" ? "alert" : "status"}>
            {state.status === "failed" ? state.error : state.status === "succeeded" ? strings.thanks : ""}
          </p>
          <div className="feedback-actions">
            <button type="submit" className="button primary" disabled={state.status === "submitting"}>
              {state.status === "submitting" ? strings.sending : strings.send}
            </button>
            <button type="button" className="button" onClick={close}>
              {strings.close}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
