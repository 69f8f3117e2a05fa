// Browser side of the hub's forms (<form data-hub-form>): sends the fields as JSON with the
// app's headers, shows each field's problem under it and any other refusal in the form's
// status, and on success follows the page's rule: creating selects the new item (?selected=),
// deleting lands on the list, whose first remaining item is then selected; others reload.
import { apiFetch } from "~/runtime/fetch.ts";

interface Answer {
  data?: { id?: unknown } | null;
  message?: string;
  message_detail?: string | null;
}

/** Checkboxes with data-list gather into arrays; others are booleans; number inputs are numbers; empty optional fields are left out. */
function formBody(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) || !element.name || element.disabled) continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox") {
      if (element.dataset["list"] === undefined) body[element.name] = element.checked;
      else {
        const list = (body[element.name] as string[] | undefined) ?? [];
        if (element.checked) list.push(element.value);
        body[element.name] = list;
      }
    } else if (element instanceof HTMLInputElement && element.type === "number") {
      if (element.value !== "") body[element.name] = Number(element.value);
    } else if (element.value !== "" || element.dataset["optional"] === undefined) body[element.name] = element.value;
  }
  return body;
}

function setStatus(form: HTMLFormElement, message: string, isError: boolean): void {
  const status = form.querySelector<HTMLElement>("[data-form-status]");
  if (!status) return;
  status.textContent = message;
  status.classList.toggle("is-error", isError);
}

/** "field: reason; other: reason" → each under its field when the form has a slot for it. */
function showRefusal(form: HTMLFormElement, answer: Answer): void {
  const unplaced: string[] = [];
  for (const line of (answer.message_detail ?? "").split("; ").filter(Boolean)) {
    const index = line.indexOf(": ");
    const field = index > 0 ? line.slice(0, index).split(".")[0]! : "";
    const slot = field ? form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(field)}"]`) : null;
    if (slot) {
      slot.textContent = line.slice(index + 2);
      slot.hidden = false;
      form.querySelector(`[name="${CSS.escape(field)}"]`)?.setAttribute("aria-invalid", "true");
    } else unplaced.push(line);
  }
  setStatus(form, [answer.message ?? form.dataset["failed"] ?? "", ...unplaced].filter(Boolean).join(" — "), true);
}

function clear(form: HTMLFormElement): void {
  for (const slot of form.querySelectorAll<HTMLElement>("[data-error-for]")) {
    slot.textContent = "";
    slot.hidden = true;
  }
  for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
  setStatus(form, "", false);
}

function afterSuccess(form: HTMLFormElement, answer: Answer): void {
  const url = new URL(window.location.href);
  const then = form.dataset["then"];
  if (then === "select" && typeof answer.data?.id === "string") {
    url.searchParams.set("selected", answer.data.id);
    window.location.assign(url.pathname + url.search);
  } else if (then === "list") {
    url.searchParams.delete("selected");
    window.location.assign(url.pathname + url.search);
  } else window.location.reload();
}

async function submit(form: HTMLFormElement): Promise<void> {
  clear(form);
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (button) button.disabled = true;
  try {
    const method = form.dataset["method"] ?? "POST";
    const response = await apiFetch(form.dataset["endpoint"] ?? "", { method, body: JSON.stringify(formBody(form)), headers: { "Content-Type": "application/json" } });
    const answer = (await response.json().catch(() => ({}))) as Answer;
    if (response.ok) {
      setStatus(form, form.dataset["success"] ?? "", false);
      afterSuccess(form, answer);
      return;
    }
    showRefusal(form, answer);
  } catch {
    setStatus(form, form.dataset["failed"] ?? "", true);
  } finally {
    if (button) button.disabled = false;
  }
}

export function wireHubForms(): void {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset["hubForm"] === undefined) return;
    event.preventDefault();
    void submit(form);
  });
}
