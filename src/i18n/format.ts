// Dates, numbers and money in the visitor's language, through Intl (ICU ships with workerd).
import { perLanguage } from "~/i18n/memo.ts";

// Building a DateTimeFormat loads the language's ICU data: once per language, not per date
// (it was a twentieth of a close-up's JavaScript).
const longDate = perLanguage((language) => new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }));

export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : longDate(language).format(date);
}

export function formatMoney(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: "currency", currency }).format(amount);
  } catch {
    // An unknown currency code: show the number and the code rather than fail the page.
    return `${new Intl.NumberFormat(language).format(amount)} ${currency}`;
  }
}
