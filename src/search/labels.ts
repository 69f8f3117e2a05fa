// Labels of the ids the search API answers (the API answers ids so that the UI translates
// them). Filter ids contain ":" (i18next's namespace separator), so their keys use "_".
import type { TFunction } from "i18next";

const filterKey = (id: string): string => `search:filters.${id.replace(/[^a-z0-9_]/g, "_")}`;

export function filterLabel(t: TFunction, id: string): string {
  return t(filterKey(id), { defaultValue: t("search:filters.other", { id }) });
}

/** Category ids are data (topic keys), shown as words. */
export const categoryLabel = (id: string): string => id.replace(/_/g, " ");

/** The filter ids list with `id` added or removed (a quick chip's link). */
export function toggleFilter(filters: string | undefined, id: string): string {
  const list = (filters ?? "").split(",").filter(Boolean);
  return (list.includes(id) ? list.filter((item) => item !== id) : [...list, id]).join(",");
}
