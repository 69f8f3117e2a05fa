// Browser side of every settings form (<form data-settings-form>): sends the form as JSON with
// the CSRF header, shows each field's problem under the field, and when the server asks for
// the parental passcode (code 14) opens the passcode modal and re-sends the change with it.
// Passcode setup forms are checked here first with the same rules the server applies.
import { normalizePasscodeInput, validatePasscode, validatePasscodeSetup, type PasscodeErrorKey } from "~/accounts/passcode.ts";
import { apiFetch } from "~/runtime/fetch.ts";
import { requestPasscode, type PasscodeSubmitResult } from "./passcode-store.ts";

const PASSCODE_REQUIRED = 14;
const PASSCODE_ERRORS = new Set([15, 16]);

interface Answer {
  status?: string;
  code?: number;
  message?: string;
  message_detail?: string | null;
  extra_data?: { field?: string } | null;
}

function formBody(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement) || !element.name || element.disabled) continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox") body[element.name] = element.checked;
    else if (element instanceof HTMLInputElement && element.type === "radio") {
      if (element.checked) body[element.name] = element.value;
    } else body[element.name] = element.value;
  }
  return body;
}

async function send(form: HTMLFormElement, body: Record<string, unknown>): Promise<{ status: number; answer: Answer }> {
  const response = await apiFetch(form.dataset["endpoint"] ?? "", { method: form.dataset["method"] ?? "POST", body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => ({}))) as Answer;
  return { status: response.status, answer };
}

function errorSlot(form: HTMLFormElement, field: string): HTMLElement | null {
  return form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(field)}"]`);
}

function setFieldError(form: HTMLFormElement, field: string, message: string | null): boolean {
  const slot = errorSlot(form, field);
  const input = form.elements.namedItem(field);
  if (!slot) return false;
  slot.textContent = message ?? "";
  slot.hidden = !message;
  if (input instanceof HTMLInputElement) {
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
  return true;
}

function clearErrors(form: HTMLFormElement): void {
  for (const slot of form.querySelectorAll<HTMLElement>("[data-error-for]")) setFieldError(form, slot.dataset["errorFor"] ?? "", null);
  setStatus(form, "", false);
}

function setStatus(form: HTMLFormElement, message: string, isError: boolean): void {
  const status = form.querySelector<HTMLElement>("[data-form-status]");
  if (!status) return;
  status.textContent = message;
  status.classList.toggle("is-error", isError);
}

/** "field: reason; other: reason" (the resource error's message_detail) → field problems. */
function problems(detail: string | null | undefined): Array<[string, string]> {
  if (!detail) return [];
  return detail.split("; ").flatMap((line) => {
    const index = line.indexOf(": ");
    return index > 0 ? [[line.slice(0, index), line.slice(index + 2)] as [string, string]] : [];
  });
}

/** Shows what a refusal says where it belongs: under its fields, else in the form's status. */
function showRefusal(form: HTMLFormElement, answer: Answer): void {
  const fields = problems(answer.message_detail);
  let placed = false;
  for (const [field, reason] of fields) placed = setFieldError(form, field, reason) || placed;
  const field = answer.extra_data?.field;
  if (!placed && field && answer.message) placed = setFieldError(form, field, answer.message);
  if (!placed) setStatus(form, answer.message ?? form.dataset["failed"] ?? "", true);
  form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
}

function succeed(form: HTMLFormElement): void {
  setStatus(form, form.dataset["success"] ?? "", false);
  const redirect = form.dataset["redirect"];
  // Only a path on this site (the page's own markup names it; a stray value goes nowhere else).
  if (redirect !== undefined && redirect.startsWith("/") && !redirect.startsWith("//")) window.location.assign(redirect);
  else if (form.dataset["reload"] !== undefined) window.location.reload();
}

function clientCheck(form: HTMLFormElement, body: Record<string, unknown>, messages: Record<string, string>): boolean {
  if (form.dataset["validate"] !== "passcode-setup") return true;
  const value = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const errors: Partial<Record<string, PasscodeErrorKey | null>> = validatePasscodeSetup(
    { passcode: value("passcode"), confirm_passcode: value("confirm_passcode"), backup_email: value("backup_email"), confirm_backup_email: value("confirm_backup_email") },
    form.dataset["accountEmail"] ?? "",
  );
  if (!("backup_email" in body)) {
    delete errors["backup_email"];
    delete errors["confirm_backup_email"];
  }
  if ("password" in body && value("password") === "") errors["password"] = "passcode.errors.required";
  for (const [field, key] of Object.entries(errors)) if (key) setFieldError(form, field, messages[key] ?? key);
  const first = form.querySelector<HTMLElement>("[aria-invalid='true']");
  first?.focus();
  return !first;
}

async function submit(form: HTMLFormElement, messages: Record<string, string>): Promise<void> {
  clearErrors(form);
  const body = formBody(form);
  if (!clientCheck(form, body, messages)) return;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (button) button.disabled = true;
  try {
    const { status, answer } = await send(form, body);
    if (status === 200) return succeed(form);
    if (status === 403 && answer.code === PASSCODE_REQUIRED) return askPasscode(form, body);
    showRefusal(form, answer);
  } catch {
    setStatus(form, form.dataset["failed"] ?? "", true);
  } finally {
    if (button) button.disabled = false;
  }
}

/** Opens the modal; each passcode entered re-sends the same change with it. */
function askPasscode(form: HTMLFormElement, body: Record<string, unknown>): void {
  const field = form.dataset["passcodeField"] ?? "passcode";
  requestPasscode({
    submit: async (passcode): Promise<PasscodeSubmitResult> => {
      try {
        const { status, answer } = await send(form, { ...body, [field]: passcode });
        if (status === 200) {
          succeed(form);
          return { ok: true };
        }
        if (answer.code !== undefined && PASSCODE_ERRORS.has(answer.code)) return { ok: false, message: answer.message ?? "" };
        const onPasscode = problems(answer.message_detail).find(([name]) => name === field);
        if (onPasscode) return { ok: false, message: onPasscode[1] };
        return { ok: false, message: answer.message ?? form.dataset["failed"] ?? "" };
      } catch {
        return { ok: false, message: form.dataset["failed"] ?? "" };
      }
    },
    cancel: () => setStatus(form, "", false),
    returnFocus: form.querySelector<HTMLButtonElement>("button[type=submit]"),
  });
}

function readMessages(): Record<string, string> {
  const element = document.getElementById("settings-messages");
  try {
    return element?.textContent ? (JSON.parse(element.textContent) as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function wireSettingsForms(root: ParentNode = document): void {
  const messages = readMessages();
  for (const form of root.querySelectorAll<HTMLFormElement>("form[data-settings-form]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void submit(form, messages);
    });
    // Passcode fields keep only what counts: whitespace stripped, nothing past four characters.
    for (const input of form.querySelectorAll<HTMLInputElement>("input[data-passcode-input]")) {
      input.addEventListener("input", () => {
        const kept = normalizePasscodeInput(input.value);
        if (kept !== input.value) input.value = kept;
        if (input.getAttribute("aria-invalid") === "true") {
          const key = validatePasscode(kept);
          setFieldError(form, input.name, key ? messages[key] ?? key : null);
        }
      });
    }
  }
}
