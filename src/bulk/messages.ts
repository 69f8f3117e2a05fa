// An upload error as a person reads it: the code's meaning (the same `bulk:codes.<CODE>` the
// resources page lists) and the values it names (a minimum, the allowed values).
import type { TFunction } from "i18next";
import type { BulkErrorCode } from "./columns.ts";

const VALUE_KEYS = ["minimum", "maximum", "values"] as const;

export function errorMessage(t: TFunction, code: BulkErrorCode, values: Record<string, string | number> = {}): string {
  const named = VALUE_KEYS.flatMap((key) => (values[key] === undefined ? [] : [t(`bulk:values.${key}`, { value: values[key] })]));
  return [t(`bulk:codes.${code}`), ...named].join(" — ");
}
