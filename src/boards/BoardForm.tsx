// The create and edit board form: name (at most 50 characters, with a counter; the 51st is
// refused and said so in a live message), description (at most 500), privacy, and on edit the
// cover pin. Problems are shown beside their field and the first one takes focus.
import { useId, useRef, useState, type FormEvent } from "react";
import { BOARD_PRIVACIES, type BoardPrivacy } from "./board.ts";
import { BOARD_DESCRIPTION_MAX, BOARD_NAME_MAX, boardProblems, charCount, isBoardPrivacy, limitInput, type BoardField } from "./board-form.ts";
import { fill, type OrganizeStrings } from "./strings.ts";

interface BoardFormValues {
  name: string;
  description: string;
  privacy: BoardPrivacy;
  coverPinId: string | null;
}

export interface BoardFormProps {
  strings: OrganizeStrings;
  initial: BoardFormValues;
  submitLabel: string;
  /** Pins offered as the cover (edit only). */
  coverChoices?: Array<{ id: string; title: string }>;
  /** Resolves with field problems from the server (400), or nothing when done. */
  onSubmit: (values: BoardFormValues) => Promise<Partial<Record<BoardField, string>> | undefined>;
  onCancel: () => void;
}

const PRIVACY_LABEL = { public: "form.privacyPublic", secret: "form.privacySecret", protected: "form.privacyProtected" } as const;

export function BoardForm({ strings, initial, submitLabel, coverChoices, onSubmit, onCancel }: BoardFormProps) {
  const s = strings.text;
  const id = useId();
  const [values, setValues] = useState(initial);
  const [refused, setRefused] = useState<"name" | "description" | null>(null);
  const [errors, setErrors] = useState<Partial<Record<BoardField, string>>>({});
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);

  const tooLong = { name: fill(s["form.nameTooLong"], { max: BOARD_NAME_MAX }), description: fill(s["form.descriptionTooLong"], { max: BOARD_DESCRIPTION_MAX }) };

  function type(field: "name" | "description", next: string) {
    const max = field === "name" ? BOARD_NAME_MAX : BOARD_DESCRIPTION_MAX;
    const kept = limitInput(values[field], next, max);
    setValues({ ...values, [field]: kept.value });
    setRefused(kept.refused ? field : null);
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = boardProblems(values);
    const messages: Partial<Record<BoardField, string>> = {};
    if (problems.name) messages.name = problems.name === "required" ? s["form.nameRequired"] : tooLong.name;
    if (problems.description) messages.description = tooLong.description;
    if (Object.keys(messages).length > 0) {
      setErrors(messages);
      (messages.name ? nameRef : descriptionRef).current?.focus();
      return;
    }
    setBusy(true);
    const server = await onSubmit({ ...values, name: values.name.trim() });
    setBusy(false);
    if (server && Object.keys(server).length > 0) {
      setErrors(server);
      (server.name ? nameRef : descriptionRef).current?.focus();
    }
  }

  const nameHint = `${id}-name-hint`;
  const descriptionHint = `${id}-description-hint`;
  return (
    <form className="organize-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="organize-field">
        <label htmlFor={`${id}-name`}>{s["form.name"]}</label>
        <input
          ref={nameRef}
          id={`${id}-name`}
          name="name"
          type="text"
          dir="auto"
          autoComplete="off"
          required
          value={values.name}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={nameHint}
          onChange={(event) => type("name", event.currentTarget.value)}
        />
        <p id={nameHint} className="organize-hint">
          <span className="organize-counter">{fill(s.counter, { used: charCount(values.name), max: BOARD_NAME_MAX })}</span>
          <span className="organize-error" role="alert">{errors.name ?? (refused === "name" ? tooLong.name : "")}</span>
        </p>
      </div>
      <div className="organize-field">
        <label htmlFor={`${id}-description`}>{s["form.description"]}</label>
        <textarea
          ref={descriptionRef}
          id={`${id}-description`}
          name="description"
          dir="auto"
          rows={3}
          value={values.description}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={descriptionHint}
          onChange={(event) => type("description", event.currentTarget.value)}
        />
        <p id={descriptionHint} className="organize-hint">
          <span className="organize-counter">{fill(s.counter, { used: charCount(values.description), max: BOARD_DESCRIPTION_MAX })}</span>
          <span className="organize-error" role="alert">{errors.description ?? (refused === "description" ? tooLong.description : "")}</span>
        </p>
      </div>
      <fieldset className="organize-field">
        <legend>{s["form.privacy"]}</legend>
        {BOARD_PRIVACIES.map((privacy) => (
          <label key={privacy} className="organize-choice">
            <input
              type="radio"
              name="privacy"
              value={privacy}
              checked={values.privacy === privacy}
              onChange={(event) => isBoardPrivacy(event.currentTarget.value) && setValues({ ...values, privacy: event.currentTarget.value })}
            />
            {s[PRIVACY_LABEL[privacy]]}
          </label>
        ))}
        {errors.privacy && <p className="organize-error" role="alert">{errors.privacy}</p>}
      </fieldset>
      {coverChoices && coverChoices.length > 0 && (
        <div className="organize-field">
          <label htmlFor={`${id}-cover`}>{s["form.cover"]}</label>
          <select id={`${id}-cover`} value={values.coverPinId ?? ""} onChange={(event) => setValues({ ...values, coverPinId: event.currentTarget.value || null })}>
            <option value="">{s["form.coverAuto"]}</option>
            {coverChoices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.title || s["select.untitled"]}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="organize-actions">
        <button type="button" className="button" onClick={onCancel}>
          {s.cancel}
        </button>
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? s.saving : submitLabel}
        </button>
      </div>
    </form>
  );
}
