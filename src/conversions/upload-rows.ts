// The files advertisers upload beside the API (spec 002 "Conversion upload" and "PCA upload"):
// offline conversions, one event per row, and PCA ("Pinloom customer audiences") lists, one
// person per row, matched into a customer-list audience by hashed address. Both are read with
// the bulk editor's CSV reader (separators, quotes, BOM, formula guard) and bounded by its file
// limits; a file is checked whole and a file with any bad row applies nothing, as bulk files do,
// each error naming its row (the header is row 1), column and code. Pure: the server hashes
// plain addresses and stores the rows.
import { FILE_LIMITS } from "~/bulk/columns.ts";
import { readCsv, writeCsv } from "~/bulk/csv.ts";
import { amountMicro } from "./api-payload.ts";
import {
  CONVERSION_EVENT_NAMES,
  CONVERSION_LIMITS,
  eventTimeProblem,
  normalizedEmail,
  type ConversionEventName,
} from "./conversion.ts";

export const UPLOAD_KINDS = ["offline", "pca"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const UPLOAD_COLUMNS = {
  offline: [
    "event_name",
    "event_id",
    "event_time",
    "email",
    "email_sha256",
    "value",
    "currency",
    "quantity",
    "click_id",
  ],
  pca: ["email", "email_sha256"],
} as const satisfies Record<UploadKind, readonly string[]>;

const REQUIRED_COLUMNS: Record<UploadKind, readonly string[]> = {
  offline: ["event_name", "event_id", "event_time"],
  pca: [],
};

export type UploadErrorCode =
  | "FILE_NOT_UTF8"
  | "FILE_EMPTY"
  | "FILE_MALFORMED"
  | "NO_ROWS"
  | "TOO_MANY_ROWS"
  | "UNKNOWN_COLUMN"
  | "MISSING_COLUMN"
  | "REQUIRED"
  | "UNKNOWN_EVENT_NAME"
  | "TOO_LONG"
  | "BAD_TIME"
  | "TOO_OLD"
  | "IN_FUTURE"
  | "BAD_EMAIL"
  | "BAD_SHA256"
  | "BAD_AMOUNT"
  | "CURRENCY_REQUIRED"
  | "BAD_CURRENCY"
  | "BAD_QUANTITY"
  | "BAD_CLICK_ID";

export interface UploadError {
  row: number;
  column: string;
  code: UploadErrorCode;
}

/** Who a row names: a hash sent as is, or an address the server hashes (and never keeps). */
export type PersonRef = { sha256: string } | { email: string } | null;

export interface OfflineRow {
  row: number;
  eventName: ConversionEventName;
  eventId: string;
  eventTime: number;
  valueMicro: number | null;
  currency: string | null;
  orderQuantity: number | null;
  clickId: string | null;
  person: PersonRef;
}

export interface PcaRow {
  row: number;
  person: { sha256: string } | { email: string };
}

type Checked<Row> =
  | { ok: true; rows: Row[] }
  | { ok: false; rows: number; errors: UploadError[] };

const SHA256 = /^[0-9a-fA-F]{64}$/;
const CLICK_ID = /^(0|[1-9]\d{0,19})$/;
const CURRENCY = /^[A-Za-z]{3}$/;
/** An address as a form would take it: one @, no spaces, a dot in the domain. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
/** A spreadsheet's date and time: ISO 8601, with a zone or read as UTC; or epoch seconds. */
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:\d{2})?$/;

/** A cell's time in epoch milliseconds, or null when it is not one. */
export function parseEventTime(text: string): number | null {
  if (/^\d{9,10}$/.test(text)) return Number(text) * 1000;
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, day, time, zone] = match as unknown as [
    string,
    string,
    string,
    string | undefined,
  ];
  const ms = Date.parse(
    `${day}T${time.length === 5 ? `${time}:00` : time}${zone ?? "Z"}`,
  );
  return Number.isNaN(ms) ? null : ms;
}

function personOf(
  cells: Record<string, string>,
  row: number,
  errors: UploadError[],
): PersonRef {
  const hash = cells["email_sha256"] ?? "";
  const email = cells["email"] ?? "";
  if (hash !== "") {
    if (!SHA256.test(hash))
      errors.push({ row, column: "email_sha256", code: "BAD_SHA256" });
    else return { sha256: hash.toLowerCase() };
  } else if (email !== "") {
    if (email.length > 254 || !EMAIL.test(email))
      errors.push({ row, column: "email", code: "BAD_EMAIL" });
    else return { email: normalizedEmail(email) };
  }
  return null;
}

/** The header and records of a file, or the file-level error that stops it. */
function readFile(
  kind: UploadKind,
  text: string,
):
  | { ok: true; records: Array<{ row: number; cells: Record<string, string> }> }
  | { ok: false; rows: number; errors: UploadError[] } {
  const csv = readCsv(text);
  if (!csv.ok)
    return {
      ok: false,
      rows: 0,
      errors: [{ row: csv.row, column: "", code: csv.problem }],
    };
  const known: readonly string[] = UPLOAD_COLUMNS[kind];
  const errors: UploadError[] = [];
  csv.header.forEach((name) => {
    if (!known.includes(name))
      errors.push({ row: 1, column: name, code: "UNKNOWN_COLUMN" });
  });
  for (const name of REQUIRED_COLUMNS[kind])
    if (!csv.header.includes(name))
      errors.push({ row: 1, column: name, code: "MISSING_COLUMN" });
  if (
    kind === "pca" &&
    !csv.header.includes("email") &&
    !csv.header.includes("email_sha256")
  )
    errors.push({ row: 1, column: "email", code: "MISSING_COLUMN" });
  if (csv.records.length === 0)
    errors.push({ row: 0, column: "", code: "NO_ROWS" });
  if (csv.records.length > FILE_LIMITS.rows)
    errors.push({ row: 0, column: "", code: "TOO_MANY_ROWS" });
  if (errors.length > 0) return { ok: false, rows: csv.records.length, errors };
  return {
    ok: true,
    records: csv.records.map((record) => ({
      row: record.number,
      cells: Object.fromEntries(
        csv.header.map((name, at) => [name, record.cells[at] ?? ""]),
      ),
    })),
  };
}

/** An offline conversions file, every row checked; `now` bounds the events' times. */
export function checkOfflineFile(
  text: string,
  now: number,
): Checked<OfflineRow> {
  const file = readFile("offline", text);
  if (!file.ok) return file;
  const errors: UploadError[] = [];
  const rows: OfflineRow[] = [];
  for (const { row, cells } of file.records) {
    const before = errors.length;
    const fail = (column: string, code: UploadErrorCode) =>
      errors.push({ row, column, code });
    const name = cells["event_name"] ?? "";
    if (name === "") fail("event_name", "REQUIRED");
    else if (!(CONVERSION_EVENT_NAMES as readonly string[]).includes(name))
      fail("event_name", "UNKNOWN_EVENT_NAME");
    const id = cells["event_id"] ?? "";
    if (id === "") fail("event_id", "REQUIRED");
    else if (id.length > CONVERSION_LIMITS.eventIdLength)
      fail("event_id", "TOO_LONG");
    const timeText = cells["event_time"] ?? "";
    const eventTime = timeText === "" ? null : parseEventTime(timeText);
    if (timeText === "") fail("event_time", "REQUIRED");
    else if (eventTime === null) fail("event_time", "BAD_TIME");
    else {
      const problem = eventTimeProblem(eventTime, now);
      if (problem)
        fail("event_time", problem === "too_old" ? "TOO_OLD" : "IN_FUTURE");
    }
    const valueText = cells["value"] ?? "";
    const valueMicro = valueText === "" ? null : amountMicro(valueText);
    if (
      valueText !== "" &&
      (valueMicro === null || valueMicro > CONVERSION_LIMITS.maxValueMicro)
    )
      fail("value", "BAD_AMOUNT");
    const currency = cells["currency"] ?? "";
    if (currency !== "" && !CURRENCY.test(currency))
      fail("currency", "BAD_CURRENCY");
    else if (currency === "" && valueText !== "")
      fail("currency", "CURRENCY_REQUIRED");
    const quantityText = cells["quantity"] ?? "";
    const quantity =
      quantityText === ""
        ? null
        : /^\d{1,6}$/.test(quantityText)
          ? Number(quantityText)
          : NaN;
    if (quantity !== null && !(quantity <= CONVERSION_LIMITS.maxQuantity))
      fail("quantity", "BAD_QUANTITY");
    const clickId = cells["click_id"] ?? "";
    if (clickId !== "" && !CLICK_ID.test(clickId))
      fail("click_id", "BAD_CLICK_ID");
    const person = personOf(cells, row, errors);
    if (errors.length === before) {
      rows.push({
        row,
        eventName: name as ConversionEventName,
        eventId: id,
        eventTime: eventTime!,
        valueMicro,
        currency: currency === "" ? null : currency.toUpperCase(),
        orderQuantity: quantity,
        clickId: clickId === "" ? null : clickId,
        person,
      });
    }
  }
  return errors.length > 0
    ? { ok: false, rows: file.records.length, errors }
    : { ok: true, rows };
}

/** A PCA list, every row naming one person by address or hash. */
export function checkPcaFile(text: string): Checked<PcaRow> {
  const file = readFile("pca", text);
  if (!file.ok) return file;
  const errors: UploadError[] = [];
  const rows: PcaRow[] = [];
  for (const { row, cells } of file.records) {
    const before = errors.length;
    const person = personOf(cells, row, errors);
    if (person === null && errors.length === before)
      errors.push({ row, column: "email", code: "REQUIRED" });
    if (person !== null && errors.length === before) rows.push({ row, person });
  }
  return errors.length > 0
    ? { ok: false, rows: file.records.length, errors }
    : { ok: true, rows };
}

/** The template a landing offers: the header and one example row, dated `now`. */
export function uploadTemplate(kind: UploadKind, now: number): string {
  const day = new Date(now - 86_400_000).toISOString().slice(0, 19) + "Z";
  return kind === "offline"
    ? writeCsv(UPLOAD_COLUMNS.offline, [
        [
          "checkout",
          "order-1001",
          day,
          "customer@example.com",
          "",
          "42.50",
          "EUR",
          "2",
          "",
        ],
      ])
    : writeCsv(UPLOAD_COLUMNS.pca, [["customer@example.com", ""]]);
}
