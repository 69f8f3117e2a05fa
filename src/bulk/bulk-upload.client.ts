// Browser side of the bulk upload form (<form data-bulk-upload>; the conversion uploads use it too): sends the file as multipart
// with the app's headers, then shows the answer: what was applied (with a link to the upload in
// the history), or each row's errors in the form's table. Strings come translated in data-*.
import { apiFetch } from "~/runtime/fetch.ts";

interface RowError {
  row: number;
  column: string;
  code: string;
  message: string;
}

interface Answer {
  data?: { upload?: { id: string; created_count?: number; updated_count?: number; created_time: number } & Record<string, unknown>; duplicate?: boolean; errors?: RowError[] } | null;
  message?: string;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);

function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function showErrors(form: HTMLFormElement, errors: readonly RowError[]): void {
  const wrap = form.querySelector<HTMLElement>("[data-errors]");
  const body = form.querySelector<HTMLTableSectionElement>("[data-error-rows]");
  if (!wrap || !body) return;
  body.replaceChildren(
    ...errors.map((error) => {
      const tr = document.createElement("tr");
      tr.dataset["row"] = String(error.row);
      tr.dataset["code"] = error.code;
      const row = error.row === 0 ? (form.dataset["fileLabel"] ?? "") : String(error.row);
      tr.replaceChildren(cell(row), cell(error.column, "bulk-code"), cell(error.code, "bulk-code"), cell(error.message));
      return tr;
    }),
  );
  wrap.hidden = errors.length === 0;
}

async function submit(form: HTMLFormElement): Promise<void> {
  const status = form.querySelector<HTMLElement>("[data-form-status]");
  const link = form.querySelector<HTMLAnchorElement>("[data-result-link]");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  const say = (text: string, isError: boolean) => {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("is-error", isError);
  };
  showErrors(form, []);
  if (link) link.hidden = true;
  say(form.dataset["working"] ?? "", false);
  if (button) button.disabled = true;
  try {
    const response = await apiFetch(form.dataset["endpoint"] ?? "", { method: "POST", body: new FormData(form) });
    const answer = (await response.json().catch(() => ({}))) as Answer;
    const upload = answer.data?.upload;
    if (response.ok && upload) {
      const when = new Date(upload.created_time * 1000).toLocaleString(document.documentElement.lang || undefined);
      // The applied message may name any of the upload's counts ({{created}}, {{stored_count}}, …).
      const counts = Object.fromEntries(Object.entries(upload).flatMap(([key, value]) => (typeof value === "number" ? [[key, String(value)]] : [])));
      say(answer.data?.duplicate ? fill(form.dataset["duplicate"] ?? "", { when }) : fill(form.dataset["applied"] ?? "", { ...counts, created: String(upload.created_count), updated: String(upload.updated_count) }), false);
    } else {
      say(answer.message ?? form.dataset["failed"] ?? "", true);
      showErrors(form, answer.data?.errors ?? []);
    }
    if (link && upload) {
      link.href = `${form.dataset["history"] ?? ""}${upload.id}/`;
      link.hidden = false;
    }
  } catch {
    say(form.dataset["failed"] ?? "", true);
  } finally {
    if (button) button.disabled = false;
  }
}

export function wireBulkUpload(): void {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset["bulkUpload"] === undefined) return;
    event.preventDefault();
    void submit(form);
  });
}
