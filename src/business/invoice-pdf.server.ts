// An invoice as a PDF, drawn by the Worker from the invoice's data: real text in the standard
// Helvetica fonts (selectable, searchable, nothing to embed), A4, the order lines in a table
// that continues on further pages, amounts written by Intl in the account's currency. The
// standard fonts cover Latin script only (WinAnsi), so the document is written in English or
// French (docs/decisions.md) and a character outside the fonts becomes its unaccented letter or
// "?" rather than failing the download.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { formatDate, formatMoney } from "~/i18n/format.ts";
import { microToUnits } from "./billing.ts";
import type { InvoiceDetail } from "./billing.server.ts";

type Labels = (key: string, values?: Record<string, string>) => string;

const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const INK = rgb(0.07, 0.07, 0.07);
const MUTED = rgb(0.37, 0.37, 0.37);

const characterSets = new WeakMap<PDFFont, ReadonlySet<number>>();

/** Text the font can draw: each character kept, else its base letter, else "?". */
function drawable(font: PDFFont, text: string): string {
  let supported = characterSets.get(font);
  if (!supported) characterSets.set(font, (supported = new Set(font.getCharacterSet())));
  let out = "";
  for (const char of text.replace(/[\u202f\u2009\u00a0]/g, " ").replace(/\u2212/g, "-")) {
    const code = char.codePointAt(0)!;
    if (supported.has(code)) out += char;
    else {
      const base = char.normalize("NFD").codePointAt(0)!;
      out += supported.has(base) ? String.fromCodePoint(base) : "?";
    }
  }
  return out;
}

export async function renderInvoicePdf(invoice: InvoiceDetail, t: Labels, language: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const money = (micro: number) => formatMoney(microToUnits(micro), invoice.currency, language);
  const count = (value: number) => new Intl.NumberFormat(language).format(value);
  const day = (iso: string) => formatDate(`${iso}T00:00:00Z`, language);
  const time = (epochSeconds: number | null) => (epochSeconds === null ? "" : formatDate(new Date(epochSeconds * 1000).toISOString(), language));
  const title = invoice.number === null ? t("pdf.statementTitle", { period: invoice.period }) : t("pdf.invoiceTitle", { number: invoice.number });

  doc.setTitle(drawable(regular, title));
  doc.setAuthor("Pinloom");
  doc.setCreator("Pinloom");
  doc.setProducer("Pinloom");
  doc.setLanguage(language);
  doc.setSubject(drawable(regular, invoice.ad_account.name));

  let page: PDFPage = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const write = (text: string, x: number, options: { size?: number; font?: PDFFont; color?: ReturnType<typeof rgb>; align?: "start" | "end" } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    const shown = drawable(font, text);
    const left = options.align === "end" ? x - font.widthOfTextAtSize(shown, size) : x;
    page.drawText(shown, { x: left, y, size, font, color: options.color ?? INK });
  };
  const line = (gap = 14) => {
    y -= gap;
  };
  const right = PAGE[0] - MARGIN;

  // Header: who bills, what this is.
  write("Pinloom", MARGIN, { size: 20, font: bold });
  write(title, right, { size: 14, font: bold, align: "end" });
  line(22);
  write(t("pdf.seller"), MARGIN, { color: MUTED });
  write(`${t("pdf.status")}: ${t(`tabs.${invoice.status}`)}`, right, { align: "end" });
  line();
  write(`${t("pdf.period")}: ${day(invoice.first_day)} – ${day(invoice.last_day)}`, right, { align: "end" });
  line();
  if (invoice.issued_time !== null) {
    write(`${t("pdf.issued")}: ${time(invoice.issued_time)}`, right, { align: "end" });
    line();
    write(`${t("pdf.due")}: ${time(invoice.due_time)}`, right, { align: "end" });
    line();
  }
  if (invoice.paid_time !== null) {
    write(`${t("pdf.paid")}: ${time(invoice.paid_time)}`, right, { align: "end" });
    line();
  }

  // Bill to.
  line(10);
  write(t("pdf.billTo"), MARGIN, { font: bold });
  line();
  for (const text of [invoice.bill_to.legal_name, invoice.bill_to.contact_name, invoice.bill_to.email, ...invoice.bill_to.address].filter(Boolean)) {
    write(text, MARGIN);
    line();
  }
  if (invoice.bill_to.tax_id) {
    write(`${t("pdf.taxId")}: ${invoice.bill_to.tax_id}`, MARGIN);
    line();
  }
  write(`${t("pdf.adAccount")}: ${invoice.ad_account.name} (${invoice.ad_account.id})`, MARGIN);
  line(26);

  // Order lines.
  const columns = { campaign: MARGIN, period: 250, impressions: 400, clicks: 460, amount: right };
  const header = () => {
    write(t("lines.campaign"), columns.campaign, { font: bold });
    write(t("lines.period"), columns.period, { font: bold });
    write(t("lines.impressions"), columns.impressions, { font: bold, align: "end" });
    write(t("lines.clicks"), columns.clicks, { font: bold, align: "end" });
    write(t("lines.amount"), columns.amount, { font: bold, align: "end" });
    line(6);
    page.drawLine({ start: { x: MARGIN, y }, end: { x: right, y }, thickness: 0.5, color: MUTED });
    line(12);
  };
  header();
  if (invoice.lines.length === 0) {
    write(t("lines.none"), MARGIN, { color: MUTED });
    line();
  }
  for (const item of invoice.lines) {
    if (y < MARGIN + 120) {
      page = doc.addPage(PAGE);
      y = PAGE[1] - MARGIN;
      header();
    }
    const name = item.campaign_name.length > 36 ? `${item.campaign_name.slice(0, 35)}…` : item.campaign_name;
    write(name, columns.campaign);
    write(`${day(item.first_day)} – ${day(item.last_day)}`, columns.period, { size: 8 });
    write(count(item.impressions), columns.impressions, { align: "end" });
    write(count(item.clicks), columns.clicks, { align: "end" });
    write(money(item.amount_micro), columns.amount, { align: "end" });
    line();
  }

  // Totals.
  line(6);
  page.drawLine({ start: { x: 330, y: y + 10 }, end: { x: right, y: y + 10 }, thickness: 0.5, color: MUTED });
  const total = (label: string, micro: number, font = regular) => {
    write(label, 330, { font });
    write(money(micro), right, { font, align: "end" });
    line();
  };
  total(t("totals.subtotal"), invoice.subtotal_micro);
  if (invoice.credit_micro > 0) total(t("totals.credit"), -invoice.credit_micro);
  total(t("totals.tax", { rate: new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 2 }).format(invoice.tax_rate_bp / 10_000) }), invoice.tax_micro);
  total(t("totals.total"), invoice.total_micro, bold);
  for (const credit of invoice.credits) {
    write(t("pdf.creditUsed", { code: credit.code, amount: money(credit.amount_micro) }), 330, { size: 8, color: MUTED });
    line(12);
  }
  line(10);
  if (invoice.bill_to.tax_id && invoice.tax_rate_bp === 0) {
    write(t("pdf.reverseCharge"), MARGIN, { size: 8, color: MUTED });
    line(12);
  }
  write(t("pdf.testMode"), MARGIN, { size: 8, color: MUTED });
  return doc.save();
}
