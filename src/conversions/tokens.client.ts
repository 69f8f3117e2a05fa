// Browser side of the token form (<form data-token-create>): sends the name as JSON with the
// app's headers and shows the new token, in full, this once; the list shows only its prefix.
import { apiFetch } from "~/runtime/fetch.ts";

interface Answer {
  data?: { token?: string } | null;
  message?: string;
}

async function submit(form: HTMLFormElement): Promise<void> {
  const status = form.querySelector<HTMLElement>("[data-form-status]");
  const box = form.querySelector<HTMLElement>("[data-token-box]");
  const value = form.querySelector<HTMLOutputElement>("[data-token-value]");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  const name = form.querySelector<HTMLInputElement>("input[name=name]")?.value ?? "";
  const say = (text: string, isError: boolean) => {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("is-error", isError);
  };
  say(form.dataset["working"] ?? "", false);
  if (button) button.disabled = true;
  try {
    const response = await apiFetch(form.dataset["endpoint"] ?? "", { method: "POST", body: JSON.stringify({ name }), headers: { "Content-Type": "application/json" } });
    const answer = (await response.json().catch(() => ({}))) as Answer;
    const token = answer.data?.token;
    if (response.ok && token && box && value) {
      value.textContent = token;
      box.hidden = false;
      say("", false);
    } else say(answer.message ?? form.dataset["failed"] ?? "", true);
  } catch {
    say(form.dataset["failed"] ?? "", true);
  } finally {
    if (button) button.disabled = false;
  }
}

export function wireTokenForm(): void {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset["tokenCreate"] === undefined) return;
    event.preventDefault();
    void submit(form);
  });
}
