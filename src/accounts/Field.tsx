// One labelled input with its error: the error is tied to the input with aria-describedby and
// announced (role=alert). The password variant adds a show/hide toggle that keeps focus.
import { useState, useSyncExternalStore, type InputHTMLAttributes, type Ref } from "react";

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name"> {
  id: string;
  name: string;
  label: string;
  error?: string | null | undefined;
  hint?: string | undefined;
  ref?: Ref<HTMLInputElement> | undefined;
}

/** The ids a field's hint and error carry, for aria-describedby. */
const describedByOf = (id: string, hint: unknown, error: unknown) =>
  [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;

/** A field's hint, and its error announced as an alert. */
function FieldMessages({ id, hint, error }: { id: string; hint?: string | undefined; error?: string | null | undefined }) {
  return (
    <>
      {hint && (
        <p className="auth-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="auth-field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </>
  );
}

export function Field({ id, name, label, error, hint, ref, ...input }: FieldProps) {
  const describedBy = describedByOf(id, hint, error);
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input ref={ref} id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

export interface PasswordFieldProps extends FieldProps {
  showLabel: string;
  hideLabel: string;
}

export function PasswordField({ showLabel, hideLabel, ...field }: PasswordFieldProps) {
  const [shown, setShown] = useState(false);
  const { id, name, label, error, hint, ref, ...input } = field;
  const describedBy = describedByOf(id, hint, error);
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <div className="auth-password">
        <input ref={ref} id={id} name={name} type={shown ? "text" : "password"} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        <button type="button" className="auth-toggle" aria-controls={id} aria-pressed={shown} onClick={() => setShown(!shown)}>
          {shown ? hideLabel : showLabel}
        </button>
      </div>
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

const noSubscription = () => () => {};
/**
 * false in the server HTML and during hydration, true once React runs the form. Submit buttons
 * wait for it: a POST without script would carry no CSRF header and be refused by the
 * server, so the button only acts when the island can make the call itself.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
