// The bulk editor's file format (spec 002 §2 "Bulk editing": sections general, campaigns, ad
// groups, ads, keywords, product groups, error codes). Every file starts with a `type` column
// naming each row's kind; the general template holds every kind's columns, a section's template
// only its own. A row with an id updates that object (empty cells keep their value); a row
// without one creates it, and its `ref` lets later rows of the same file name it as a parent.
// A row whose type starts with # is ignored: the templates' example rows. Recorded in
// docs/decisions.md ("Bulk editing: the file").
import { CAMPAIGN_ERROR_CODES } from "~/campaigns/validation.ts";

export const ROW_TYPES = ["CAMPAIGN", "AD_GROUP", "AD", "KEYWORD", "PRODUCT_GROUP"] as const;
export type RowType = (typeof ROW_TYPES)[number];

export const SECTIONS = ["general", "campaigns", "ad_groups", "ads", "keywords", "product_groups"] as const;
export type Section = (typeof SECTIONS)[number];

const SECTION_TYPE: Record<Exclude<Section, "general">, RowType> = { campaigns: "CAMPAIGN", ad_groups: "AD_GROUP", ads: "AD", keywords: "KEYWORD", product_groups: "PRODUCT_GROUP" };

export const COLUMNS = [
  "type",
  "id",
  "ref",
  "campaign_id",
  "ad_group_id",
  "name",
  "status",
  "goal",
  "daily_budget",
  "start_date",
  "duration_days",
  "bid",
  "auto_targeting",
  "audience_size",
  "pin_id",
  "product_group_id",
  "ad_type",
  "destination_url",
  "keyword",
  "match_type",
  "filters",
] as const;
export type Column = (typeof COLUMNS)[number];

/** Each kind's columns, in file order; `required` are needed to create one. */
export const TYPE_COLUMNS: Record<RowType, { columns: readonly Column[]; required: readonly Column[] }> = {
  CAMPAIGN: { columns: ["type", "id", "ref", "name", "status", "goal", "daily_budget", "start_date", "duration_days"], required: ["name", "goal", "daily_budget"] },
  AD_GROUP: { columns: ["type", "id", "ref", "campaign_id", "name", "status", "bid", "auto_targeting", "audience_size"], required: ["campaign_id", "name"] },
  AD: { columns: ["type", "id", "ref", "ad_group_id", "name", "status", "pin_id", "product_group_id", "ad_type", "destination_url"], required: ["ad_group_id", "name", "destination_url"] },
  KEYWORD: { columns: ["type", "id", "ad_group_id", "keyword", "match_type", "bid", "status"], required: ["ad_group_id", "keyword", "match_type"] },
  PRODUCT_GROUP: { columns: ["type", "id", "ref", "name", "status", "filters"], required: ["name"] },
};

/** A section's header: its kind's columns, or every column for the general file. */
export function sectionColumns(section: Section): readonly Column[] {
  return section === "general" ? COLUMNS : TYPE_COLUMNS[SECTION_TYPE[section]].columns;
}

/** The kinds a section's file holds. */
export const sectionTypes = (section: Section): readonly RowType[] => (section === "general" ? ROW_TYPES : [SECTION_TYPE[section]]);

/** The example rows, one per kind, each ignored on upload (type starts with #). Refs tie them together as a real file would. */
export const EXAMPLES: Record<RowType, Partial<Record<Column, string>>> = {
  CAMPAIGN: { type: "#CAMPAIGN (example, ignored)", ref: "spring", name: "Spring sale", status: "ACTIVE", goal: "CONSIDERATION", daily_budget: "25.00", start_date: "2030-03-01", duration_days: "30" },
  AD_GROUP: { type: "#AD_GROUP (example, ignored)", ref: "spring-home", campaign_id: "spring", name: "Home decor lovers", status: "ACTIVE", bid: "1.50", auto_targeting: "TRUE", audience_size: "MEDIUM" },
  AD: { type: "#AD (example, ignored)", ref: "spring-ad", ad_group_id: "spring-home", name: "Linen cushions", status: "ACTIVE", pin_id: "123456789", ad_type: "STANDARD", destination_url: "https://www.example.com/cushions" },
  KEYWORD: { type: "#KEYWORD (example, ignored)", ad_group_id: "spring-home", keyword: "linen cushions", match_type: "PHRASE", bid: "0.80", status: "ACTIVE" },
  PRODUCT_GROUP: { type: "#PRODUCT_GROUP (example, ignored)", ref: "cushions", name: "All cushions", status: "ACTIVE", filters: '{"product_type":["cushions"]}' },
};

/** Codes about the file and its references, added to the object rules' codes. */
const FILE_ERROR_CODES = [
  "FILE_EMPTY",
  "FILE_NOT_UTF8",
  "FILE_MALFORMED",
  "TOO_MANY_ROWS",
  "HEADER_MISSING_TYPE",
  "HEADER_UNKNOWN_COLUMN",
  "HEADER_DUPLICATE_COLUMN",
  "ROW_TOO_MANY_CELLS",
  "TYPE_INVALID",
  "COLUMN_NOT_APPLICABLE",
  "ID_INVALID",
  "ID_NOT_FOUND",
  "ID_DUPLICATE_IN_FILE",
  "REF_INVALID",
  "REF_DUPLICATE",
  "REF_NOT_FOUND",
  "PARENT_IMMUTABLE",
  "ACCOUNT_LIMIT_REACHED",
] as const;

/** Every code an upload may answer, in the order the resources page lists them. */
export const BULK_ERROR_CODES = [...FILE_ERROR_CODES, ...CAMPAIGN_ERROR_CODES] as const;
export type BulkErrorCode = (typeof BULK_ERROR_CODES)[number];

/** What one file may be: 1,000,000 bytes (under the API's 1 MiB body bound with the form's framing) and 5,000 rows. */
export const FILE_LIMITS = { bytes: 1_000_000, rows: 5_000, fileName: 200, keptErrors: 1_000 } as const;
