// CSV in and out of the bulk editor. Reading goes through papaparse (quotes, separators and line
// breaks inside cells, the separator a spreadsheet chose: comma, semicolon or tab); rows are
// numbered as a spreadsheet shows them (the header is row 1), whatever line breaks cells hold.
// Writing starts with a UTF-8 byte order mark, without which Excel reads UTF-8 as the system's
// code page and mangles every accented or Arabic name, and guards cells against formula injection.
import Papa from "papaparse";

export interface CsvRecord {
  /** The row as a spreadsheet numbers it: the header is 1. */
  number: number;
  cells: string[];
}

type CsvRead = { ok: true; header: string[]; records: CsvRecord[] } | { ok: false; problem: "FILE_EMPTY" | "FILE_MALFORMED"; row: number };

/** A cell a spreadsheet would run as a formula, and the mark that keeps it text. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of a cell as typed: trimmed, with the formula guard written on download taken off again. */
function cellText(raw: string): string {
  const text = raw.trim();
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

export function readCsv(text: string): CsvRead {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(body, { header: false, skipEmptyLines: false, dynamicTyping: false, delimitersToGuess: [",", ";", "\t"] });
  // A quote left open swallows the rest of the file: nothing after it can be trusted.
  const broken = parsed.errors.find((error) => error.type === "Quotes");
  if (broken) return { ok: false, problem: "FILE_MALFORMED", row: (broken.row ?? 0) + 1 };
  const rows = parsed.data.map((cells, index) => ({ number: index + 1, cells: cells.map(cellText) }));
  const filled = rows.filter((row) => row.cells.some((cell) => cell !== ""));
  const [header, ...records] = filled;
  if (!header) return { ok: false, problem: "FILE_EMPTY", row: 0 };
  return { ok: true, header: header.cells.map((cell) => cell.toLowerCase()), records };
}

/** One cell as written: quoted when it holds a separator, a quote or a line break; a would-be formula kept text. */
function writeCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV file: byte order mark, header, rows, CRLF line ends (RFC 4180). */
export function writeCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(writeCell).join(",")).join("\r\n")}\r\n`;
}
