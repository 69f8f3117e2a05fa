// The tag screens in the browser: copying the snippet, and test events arriving live. Polling
// (every few seconds, for ten minutes at most, then paused until asked again) rather than a
// stream: a test session is short, and a poll that finds nothing costs one indexed read.
import { apiFetch } from "~/runtime/fetch.ts";
import type { TestEvent } from "./tag-health.ts";

const POLL_MS = 3_000;
/** Ten minutes of polling, then the page stops asking until the person resumes. */
const MAX_POLLS = 200;
/** Rows kept on screen: the newest. */
const MAX_ROWS = 50;

function wireCopy(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("[data-copy-snippet]")) {
    const field = document.getElementById(button.dataset["copySnippet"] ?? "") as HTMLTextAreaElement | null;
    const status = button.parentElement?.querySelector<HTMLElement>("[data-copy-status]") ?? null;
    button.addEventListener("click", () => {
      if (!field) return;
      field.select();
      void navigator.clipboard?.writeText(field.value).then(
        () => {
          if (status) status.textContent = button.dataset["copied"] ?? "";
        },
        () => undefined,
      );
    });
  }
}

function cell(row: HTMLTableRowElement, text: string, ltr = false): HTMLTableCellElement {
  const td = row.insertCell();
  td.textContent = text;
  if (ltr) td.dir = "ltr";
  return td;
}

function wireTestEvents(box: HTMLElement): void {
  const endpoint = box.dataset["endpoint"] ?? "";
  const names = JSON.parse(box.dataset["names"] ?? "{}") as Record<string, string>;
  const none = box.dataset["none"] ?? "";
  const rows = box.querySelector<HTMLTableSectionElement>("[data-test-rows]");
  const table = box.querySelector<HTMLTableElement>("[data-test-table]");
  const waiting = box.querySelector<HTMLElement>("[data-waiting]");
  const status = box.querySelector<HTMLElement>("[data-live-status]");
  const resume = box.querySelector<HTMLButtonElement>("[data-resume]");
  if (!rows || !table || !status || !resume) return;
  let after = box.dataset["after"] ?? "0";
  let polls = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const time = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { timeZone: "UTC", dateStyle: "medium", timeStyle: "medium" });

  const show = (events: TestEvent[]) => {
    // The answer is newest first; each goes on top, so the oldest is inserted first.
    for (const event of [...events].reverse()) {
      const row = rows.insertRow(0);
      row.dataset["eventId"] = event.eventId;
      const when = document.createElement("time");
      when.dateTime = new Date(event.receivedAt).toISOString();
      when.textContent = time.format(new Date(event.receivedAt));
      row.insertCell().appendChild(when);
      cell(row, names[event.eventName] ?? event.eventName);
      cell(row, event.eventId, true);
      cell(row, event.valueMicro === null ? none : `${(event.valueMicro / 1_000_000).toFixed(2)}${event.currency ? ` ${event.currency}` : ""}`, true);
      cell(row, event.clickId ?? none, true);
    }
    while (rows.rows.length > MAX_ROWS) rows.deleteRow(rows.rows.length - 1);
    if (events.length > 0) {
      after = events[0]!.id;
      table.hidden = false;
      if (waiting) waiting.hidden = true;
    }
  };

  const poll = async () => {
    timer = null;
    polls += 1;
    try {
      const response = await apiFetch(`${endpoint}?after=${encodeURIComponent(after)}`);
      if (response.ok) show(((await response.json()) as { data?: { items?: TestEvent[] } }).data?.items ?? []);
    } catch {
      // Offline for a moment: the next poll asks again.
    }
    if (polls < MAX_POLLS && !document.hidden) timer = setTimeout(() => void poll(), POLL_MS);
    else pause();
  };
  const pause = () => {
    status.textContent = box.dataset["paused"] ?? "";
    resume.hidden = false;
  };
  const start = () => {
    polls = 0;
    status.textContent = box.dataset["live"] ?? "";
    resume.hidden = true;
    if (timer === null) timer = setTimeout(() => void poll(), POLL_MS);
  };
  resume.addEventListener("click", start);
  // A hidden tab stops asking; coming back to it asks again.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && timer === null) start();
  });
  start();
}

export function wireTagHub(root: Document): void {
  wireCopy(root);
  const box = root.querySelector<HTMLElement>("[data-test-events]");
  if (box) wireTestEvents(box);
}
