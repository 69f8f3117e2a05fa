// One labelled field of the builder's forms with its own error slot: the message is tied to the
// control (aria-describedby, aria-invalid) and read out when it appears.
import type { ReactNode } from "react";
import { fill } from "~/saves/strings.ts";

interface FieldProps {
  id: string;
  label: string;
  error: string | null | undefined;
  /** Help under the label, read with the control. */
  help?: string;
  /** "12 / 100" under a text control. */
  counter?: { length: number; maximum: number; template: string };
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}

export function Field({ id, label, error, help, counter, children }: FieldProps) {
  const helpId = help ? `${id}-help` : null;
  const errorId = `${id}-error`;
  const describedBy = [helpId, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="builder-field">
      <label htmlFor={id}>{label}</label>
      {help && (
        <p className="builder-hint" id={helpId!}>
          {help}
        </p>
      )}
      {children(describedBy, Boolean(error))}
      {counter && (
        <span className={counter.length > counter.maximum ? "builder-counter builder-over" : "builder-counter"} aria-hidden="true">
          {fill(counter.template, { length: counter.length, maximum: counter.maximum })}
        </span>
      )}
      <p className="builder-error" id={errorId} aria-live="polite">
        {error ?? ""}
      </p>
    </div>
  );
}

interface Choice {
  id: string;
  name: string;
}

interface ChoiceFieldProps {
  id: string;
  label: string;
  error: string | null | undefined;
  value: string | null;
  /** The first option, meaning none chosen. */
  empty: string;
  choices: readonly Choice[];
  onChange: (value: string | null) => void;
}

/** A labelled select of ids (a board, a section) with its error slot; "" is none. */
export function ChoiceField({ id, label, error, value, empty, choices, onChange }: ChoiceFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      {(describedBy, invalid) => (
        <select id={id} value={value ?? ""} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => onChange(event.target.value || null)}>
          <option value="">{empty}</option>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
