// The bulk editor's validator: a parsed file and what the ad account holds in, every row checked
// (required cells, enumerations, money, dates, links, references to this account's objects or to
// rows earlier in the file), out either every error with its row, column and stable code, or the
// plan of rows to write. Pure: the server loads what it needs first (the account's inventory,
// the pins and link hosts the file names), so the same checks run in unit tests on plain values.
import {
  adTypeProblem,
  AD_TYPES,
  AUDIENCE_SIZES,
  bidProblem,
  CAMPAIGN_GOALS,
  CAMPAIGN_LIMITS,
  CREATE_STATUSES,
  dailyBudgetProblem,
  DAY_MS,
  defaultAdType,
  destinationProblem,
  durationProblem,
  filtersProblem,
  isoDay,
  KEYWORD_STATUSES,
  MATCH_TYPES,
  MAX_ACCOUNT_OBJECTS,
  OBJECT_STATUSES,
  parseDay,
  parseMoney,
  SETTABLE_STATUSES,
  statusChangeProblem,
  type AdType,
  type CampaignGoal,
  type KeywordStatus,
  type MatchType,
  type ObjectStatus,
  type Problem,
} from "~/campaigns/validation.ts";
import type { AdGroupRecord, AdRecord, CampaignRecord, HistoryEntryInput, Inventory, KeywordRecord, ProductGroupRecord } from "~/campaigns/campaigns.server.ts";
import { COLUMNS, FILE_LIMITS, ROW_TYPES, TYPE_COLUMNS, type BulkErrorCode, type Column, type RowType } from "./columns.ts";
import type { CsvRecord } from "./csv.ts";

export interface BulkError {
  /** The row as a spreadsheet numbers it (the header is 1); 0 for the file as a whole. */
  row: number;
  column: string;
  code: BulkErrorCode;
  values?: Record<string, string | number>;
}

/** One data row: its number and its cells by column (absent columns read as empty). */
interface SheetRow {
  number: number;
  type: string;
  cells: Partial<Record<Column, string>>;
}

type Sheet = { ok: true; rows: SheetRow[] } | { ok: false; errors: BulkError[] };

/** The header checked and the rows keyed by column; example rows (type starting with #) left out. */
export function readSheet(header: readonly string[], records: readonly CsvRecord[]): Sheet {
  const errors: BulkError[] = [];
  const known = new Set<string>(COLUMNS);
  const seen = new Set<string>();
  header.forEach((name, index) => {
    if (name === "" && records.every((record) => (record.cells[index] ?? "") === "")) return;
    if (!known.has(name)) errors.push({ row: 1, column: name, code: "HEADER_UNKNOWN_COLUMN" });
    else if (seen.has(name)) errors.push({ row: 1, column: name, code: "HEADER_DUPLICATE_COLUMN" });
    seen.add(name);
  });
  if (!seen.has("type")) errors.push({ row: 1, column: "type", code: "HEADER_MISSING_TYPE" });
  if (errors.length > 0) return { ok: false, errors };

  const rows: SheetRow[] = [];
  for (const record of records) {
    const typeCell = record.cells[header.indexOf("type")] ?? "";
    if (typeCell.startsWith("#")) continue;
    if (record.cells.slice(header.length).some((cell) => cell !== "")) {
      errors.push({ row: record.number, column: "", code: "ROW_TOO_MANY_CELLS", values: { maximum: header.length } });
    }
    const cells: Partial<Record<Column, string>> = {};
    header.forEach((name, index) => {
      if (name !== "") cells[name as Column] = record.cells[index] ?? "";
    });
    rows.push({ number: record.number, type: typeCell.toUpperCase(), cells });
  }
  if (rows.length > FILE_LIMITS.rows) return { ok: false, errors: [{ row: 0, column: "", code: "TOO_MANY_ROWS", values: { maximum: FILE_LIMITS.rows } }] };
  if (rows.length === 0) return { ok: false, errors: [{ row: 0, column: "", code: "FILE_EMPTY" }] };
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows };
}

const ID = /^(?:id:)?(\d{1,16})$/i;
const REF = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

/** An id as written in a cell ("4503599627370497" or "id:4503599627370497"), or null. */
function parseId(text: string): number | null {
  const match = ID.exec(text);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The pins a file's ads name, for the server to look up before validating. */
export function pinIdsIn(rows: readonly SheetRow[]): number[] {
  return rows.flatMap((row) => {
    const id = row.type === "AD" ? parseId(row.cells.pin_id ?? "") : null;
    return id === null ? [] : [id];
  });
}

/** The destination links a file's ads name, for the server to look up their hosts. */
export const destinationsIn = (rows: readonly SheetRow[]): string[] => rows.flatMap((row) => (row.type === "AD" && row.cells.destination_url ? [row.cells.destination_url] : []));

export interface BulkContext {
  country: string;
  /** UTC midnight of today, in ms: the earliest start a campaign may be given. */
  today: number;
  inventory: Inventory;
  blockedHosts: ReadonlySet<string>;
  promotablePins: ReadonlySet<number>;
  /** Ids for the objects the file creates, and the upload their history rows name. */
  newId: () => number;
  uploadId: number;
}

export interface BulkPlan {
  campaigns: { create: CampaignRecord[]; update: CampaignRecord[] };
  adGroups: { create: AdGroupRecord[]; update: AdGroupRecord[] };
  ads: { create: AdRecord[]; update: AdRecord[] };
  keywords: { create: KeywordRecord[]; update: KeywordRecord[] };
  productGroups: { create: ProductGroupRecord[]; update: ProductGroupRecord[] };
  history: HistoryEntryInput[];
  created: number;
  updated: number;
}

export type BulkResult = { ok: true; plan: BulkPlan } | { ok: false; errors: BulkError[] };

const HISTORY_TYPE: Record<RowType, string> = { CAMPAIGN: "CAMPAIGN", AD_GROUP: "AD_GROUP", AD: "AD", KEYWORD: "KEYWORD", PRODUCT_GROUP: "PRODUCT_GROUP" };
const keywordKey = (adGroupId: number, text: string, matchType: string) => `${adGroupId}\u0000${text}\u0000${matchType}`;

/** Every row checked against the account and the rows before it; the plan only when nothing is wrong. */
export function validateRows(rows: readonly SheetRow[], context: BulkContext): BulkResult {
  const { inventory } = context;
  const errors: BulkError[] = [];
  const byId = {
    CAMPAIGN: new Map(inventory.campaigns.map((row) => [row.id, row])),
    AD_GROUP: new Map(inventory.adGroups.map((row) => [row.id, row])),
    AD: new Map(inventory.ads.map((row) => [row.id, row])),
    KEYWORD: new Map(inventory.keywords.map((row) => [row.id, row])),
    PRODUCT_GROUP: new Map(inventory.productGroups.map((row) => [row.id, row])),
  } satisfies Record<RowType, Map<number, unknown>>;
  const keywordKeys = new Set(inventory.keywords.map((row) => keywordKey(row.ad_group_id, row.text, row.match_type)));
  const refs = new Map<string, { type: RowType; id: number }>();
  const updatedIds = new Set<string>();
  let objects = inventory.campaigns.length + inventory.adGroups.length + inventory.ads.length + inventory.keywords.length + inventory.productGroups.length;
  const plan: BulkPlan = {
    campaigns: { create: [], update: [] },
    adGroups: { create: [], update: [] },
    ads: { create: [], update: [] },
    keywords: { create: [], update: [] },
    productGroups: { create: [], update: [] },
    history: [],
    created: 0,
    updated: 0,
  };

  for (const row of rows) {
    const before = errors.length;
    const fail = (column: string, problem: Problem<BulkErrorCode>) => errors.push({ row: row.number, column, code: problem.code, ...(problem.values ? { values: problem.values } : {}) });
    const cell = (column: Column) => row.cells[column] ?? "";

    if (!(ROW_TYPES as readonly string[]).includes(row.type)) {
      fail("type", { code: row.type === "" ? "REQUIRED" : "TYPE_INVALID", values: { values: ROW_TYPES.join(", ") } });
      continue;
    }
    const type = row.type as RowType;
    const spec = TYPE_COLUMNS[type];
    for (const column of COLUMNS) if (cell(column) !== "" && !spec.columns.includes(column)) fail(column, { code: "COLUMN_NOT_APPLICABLE" });

    // The object a row updates, or none when it creates.
    let id: number | null = null;
    if (cell("id") !== "") {
      id = parseId(cell("id"));
      if (id === null) fail("id", { code: "ID_INVALID" });
      else if (!byId[type].has(id)) fail("id", { code: "ID_NOT_FOUND" });
      else if (updatedIds.has(`${type}:${id}`)) fail("id", { code: "ID_DUPLICATE_IN_FILE" });
      else updatedIds.add(`${type}:${id}`);
      if (errors.length > before) continue;
    }
    const creating = id === null;
    if (creating) for (const column of spec.required) if (cell(column) === "") fail(column, { code: "REQUIRED" });
    if (creating && objects + 1 > MAX_ACCOUNT_OBJECTS) fail("type", { code: "ACCOUNT_LIMIT_REACHED", values: { maximum: MAX_ACCOUNT_OBJECTS } });
    const objectId = id ?? context.newId();

    if (cell("ref") !== "") {
      const ref = cell("ref");
      if (!REF.test(ref)) fail("ref", { code: "REF_INVALID" });
      else if (refs.has(ref)) fail("ref", { code: "REF_DUPLICATE" });
      // Kept even when the row has errors, so the rows naming it are not all wrong too.
      else refs.set(ref, { type, id: objectId });
    }

    /** A parent named by id (this account's) or by the ref of an earlier row; null when absent or wrong. */
    const parent = (column: Column, kind: RowType): number | null => {
      const text = cell(column);
      if (text === "") return null;
      const parsed = parseId(text);
      if (parsed !== null) {
        if (byId[kind].has(parsed)) return parsed;
        fail(column, { code: "ID_NOT_FOUND" });
        return null;
      }
      if (!REF.test(text)) {
        fail(column, { code: "REF_INVALID" });
        return null;
      }
      const found = refs.get(text);
      if (found?.type === kind) return found.id;
      fail(column, { code: "REF_NOT_FOUND" });
      return null;
    };
    const text = (column: Column, max: number, current: string): string => {
      const value = cell(column);
      if (value.length > max) fail(column, { code: "TOO_LONG", values: { maximum: max } });
      return value === "" ? current : value;
    };
    const choice = <Value extends string>(column: Column, values: readonly Value[], current: Value | null): Value | null => {
      const value = cell(column).toUpperCase();
      if (value === "") return current;
      if ((values as readonly string[]).includes(value)) return value as Value;
      fail(column, { code: "ENUM_INVALID", values: { values: values.join(", ") } });
      return current;
    };
    const money = (column: Column, current: number | null): number | null => {
      const value = cell(column);
      if (value === "") return current;
      const micro = parseMoney(value);
      if (micro === null) fail(column, { code: "NUMBER_INVALID" });
      return micro ?? current;
    };
    /** The status a row asks for: on creation one of `startable` (ACTIVE by default); else a change the current status allows. */
    const status = <Value extends string>(current: Value | null, startable: readonly string[], known: readonly string[]): Value => {
      const value = cell("status").toUpperCase();
      if (value === "") return current ?? ("ACTIVE" as Value);
      if (!known.includes(value)) {
        const allowed = current === null || type === "KEYWORD" ? startable : SETTABLE_STATUSES;
        fail("status", { code: "ENUM_INVALID", values: { values: allowed.join(", ") } });
        return current ?? ("ACTIVE" as Value);
      }
      if (current === null) {
        if (!startable.includes(value)) fail("status", { code: "STATUS_NOT_ALLOWED", values: { values: startable.join(", ") } });
      } else {
        const problem = type === "KEYWORD" ? (startable.includes(value) ? null : ({ code: "STATUS_NOT_ALLOWED", values: { values: startable.join(", ") } } as const)) : statusChangeProblem(current as ObjectStatus, value);
        if (problem) fail("status", problem);
      }
      return value as Value;
    };
    /** The parent a row names: an existing object keeps its own, and a new one may not join an ended one. */
    const parentFor = (column: Column, kind: RowType, currentParent: number | undefined): number | null => {
      const found = parent(column, kind);
      if (currentParent !== undefined && found !== null && found !== currentParent) fail(column, { code: "PARENT_IMMUTABLE" });
      if (creating && found !== null && byId[kind].get(found)?.status === "ENDED") fail(column, { code: "PARENT_ENDED" });
      return found;
    };
    /** A bid cell: empty keeps the current bid (or bids automatically); a new amount must be in range. */
    const bidFor = (current: number | null | undefined): number | null => {
      const bid = money("bid", current ?? null);
      if (bid !== null && bid !== current) {
        const problem = bidProblem(bid);
        if (problem) fail("bid", problem);
      }
      return bid;
    };
    /** A row that changes an ENDED object (other than by naming its status again) is refused. */
    const endedCheck = (current: { status: string } | undefined, changed: boolean) => {
      if (current?.status === "ENDED" && changed && errors.length === before) fail("id", { code: "OBJECT_ENDED" });
    };
    const record = <Row extends { id: number }>(lists: { create: Row[]; update: Row[] }, map: Map<number, Row>, next: Row, current: Row | undefined, name: string) => {
      if (errors.length > before) return;
      const changes = current ? (Object.keys(next) as Array<keyof Row>).filter((key) => next[key] !== current[key]).map(String) : [];
      if (current && changes.length === 0) return;
      map.set(next.id, next);
      (current ? lists.update : lists.create).push(next);
      if (current) plan.updated++;
      else {
        plan.created++;
        objects++;
      }
      plan.history.push({
        action: `${HISTORY_TYPE[type]}_${current ? "UPDATED" : "CREATED"}`,
        entity_type: HISTORY_TYPE[type],
        entity_id: String(next.id),
        detail: { name, bulk_upload_id: String(context.uploadId), ...(current ? { changes } : {}) },
      });
    };

    switch (type) {
      case "CAMPAIGN": {
        const current = id === null ? undefined : byId.CAMPAIGN.get(id);
        const name = text("name", CAMPAIGN_LIMITS.name, current?.name ?? "");
        const goal = choice<CampaignGoal>("goal", CAMPAIGN_GOALS, current?.goal ?? null);
        if (current && goal !== current.goal) fail("goal", { code: "GOAL_IMMUTABLE" });
        const budget = money("daily_budget", current?.daily_budget_micro ?? null);
        if (budget !== null && budget !== current?.daily_budget_micro) {
          const problem = dailyBudgetProblem(budget, context.country);
          if (problem) fail("daily_budget", problem);
        }
        let startAt = current?.start_at ?? context.today;
        if (cell("start_date") !== "" && cell("start_date") !== (current ? isoDay(current.start_at) : "")) {
          const day = parseDay(cell("start_date"));
          if (day === null) fail("start_date", { code: "DATE_INVALID" });
          else if (day < context.today) fail("start_date", { code: "DATE_IN_PAST" });
          else startAt = day;
        }
        const currentDays = current && current.end_at !== null ? Math.round((current.end_at - current.start_at) / DAY_MS) : null;
        let days = currentDays;
        if (cell("duration_days") !== "") {
          if (!/^\d{1,4}$/.test(cell("duration_days"))) fail("duration_days", { code: "NUMBER_INVALID" });
          else {
            days = Number(cell("duration_days"));
            const problem = durationProblem(days);
            if (problem) fail("duration_days", problem);
          }
        }
        const keepsEnd = current !== undefined && startAt === current.start_at && days === currentDays;
        const next: CampaignRecord = {
          id: objectId,
          name,
          goal: goal ?? "CONSIDERATION",
          status: status<ObjectStatus>(current?.status ?? null, CREATE_STATUSES, OBJECT_STATUSES),
          daily_budget_micro: budget ?? 0,
          start_at: startAt,
          end_at: keepsEnd ? current.end_at : days === null ? null : startAt + days * DAY_MS,
        };
        endedCheck(current, current !== undefined && (Object.keys(next) as Array<keyof CampaignRecord>).some((key) => key !== "status" && next[key] !== current[key]));
        record(plan.campaigns, byId.CAMPAIGN, next, current, name);
        break;
      }
      case "AD_GROUP": {
        const current = id === null ? undefined : byId.AD_GROUP.get(id);
        const campaignId = parentFor("campaign_id", "CAMPAIGN", current?.campaign_id);
        const name = text("name", CAMPAIGN_LIMITS.name, current?.name ?? "");
        const bid = bidFor(current?.bid_micro);
        const targeting = JSON.parse(current?.targeting ?? '{"auto":true}') as Record<string, unknown>;
        const auto = cell("auto_targeting").toUpperCase();
        if (auto === "TRUE" || auto === "FALSE") targeting["auto"] = auto === "TRUE";
        else if (auto !== "") fail("auto_targeting", { code: "BOOLEAN_INVALID" });
        const size = choice("audience_size", AUDIENCE_SIZES, null);
        if (size !== null) targeting["size"] = size;
        const next: AdGroupRecord = {
          id: objectId,
          campaign_id: current?.campaign_id ?? campaignId ?? 0,
          name,
          status: status<ObjectStatus>(current?.status ?? null, CREATE_STATUSES, OBJECT_STATUSES),
          bid_micro: bid,
          targeting: JSON.stringify(targeting),
        };
        endedCheck(current, current !== undefined && (next.name !== current.name || next.bid_micro !== current.bid_micro || next.targeting !== current.targeting));
        record(plan.adGroups, byId.AD_GROUP, next, current, name);
        break;
      }
      case "AD": {
        const current = id === null ? undefined : byId.AD.get(id);
        const adGroupId = parentFor("ad_group_id", "AD_GROUP", current?.ad_group_id);
        const adGroup = adGroupId === null ? undefined : byId.AD_GROUP.get(adGroupId);
        let pinId: number | null = current?.pin_id ?? null;
        let productGroupId: number | null = current?.product_group_id ?? null;
        if (cell("pin_id") !== "") {
          const parsed = parseId(cell("pin_id"));
          if (parsed === null) fail("pin_id", { code: "ID_INVALID" });
          else if (current && parsed !== current.pin_id) fail("pin_id", { code: "CREATIVE_IMMUTABLE" });
          else if (!current && !context.promotablePins.has(parsed)) fail("pin_id", { code: "PIN_NOT_PROMOTABLE" });
          else pinId = parsed;
        }
        if (cell("product_group_id") !== "") {
          const found = parent("product_group_id", "PRODUCT_GROUP");
          if (current && found !== null && found !== current.product_group_id) fail("product_group_id", { code: "CREATIVE_IMMUTABLE" });
          else if (found !== null) productGroupId = found;
        }
        if (creating && cell("pin_id") === "" && cell("product_group_id") === "") fail("pin_id", { code: "CREATIVE_REQUIRED" });
        if (creating && cell("pin_id") !== "" && cell("product_group_id") !== "") fail("product_group_id", { code: "CREATIVE_CONFLICT" });
        const promotes = productGroupId !== null ? "product_group" : "pin";
        const adType = choice<AdType>("ad_type", AD_TYPES, current?.ad_type ?? null) ?? defaultAdType(promotes);
        if (cell("ad_type") !== "") {
          const problem = adTypeProblem(adType, promotes);
          if (problem) fail("ad_type", problem);
        }
        const url = cell("destination_url");
        if (url !== "" && url !== current?.destination_url) {
          const problem = destinationProblem(url, context.blockedHosts);
          if (problem) fail("destination_url", problem);
        }
        const name = text("name", CAMPAIGN_LIMITS.name, current?.name ?? "");
        const next: AdRecord = {
          id: objectId,
          ad_group_id: current?.ad_group_id ?? adGroupId ?? 0,
          campaign_id: current?.campaign_id ?? adGroup?.campaign_id ?? 0,
          pin_id: pinId,
          product_group_id: productGroupId,
          name,
          ad_type: adType,
          destination_url: url === "" ? (current?.destination_url ?? "") : url,
          status: status<ObjectStatus>(current?.status ?? null, CREATE_STATUSES, OBJECT_STATUSES),
        };
        endedCheck(current, current !== undefined && (next.name !== current.name || next.ad_type !== current.ad_type || next.destination_url !== current.destination_url));
        record(plan.ads, byId.AD, next, current, name);
        break;
      }
      case "KEYWORD": {
        const current = id === null ? undefined : byId.KEYWORD.get(id);
        const adGroupId = parentFor("ad_group_id", "AD_GROUP", current?.ad_group_id);
        const keyword = text("keyword", CAMPAIGN_LIMITS.keyword, current?.text ?? "");
        const matchType = choice<MatchType>("match_type", MATCH_TYPES, current?.match_type ?? null) ?? "BROAD";
        const bid = bidFor(current?.bid_micro);
        const group = current?.ad_group_id ?? adGroupId;
        if (group !== null && errors.length === before) {
          const key = keywordKey(group, keyword, matchType);
          const own = current ? keywordKey(current.ad_group_id, current.text, current.match_type) : null;
          if (key !== own && keywordKeys.has(key)) fail("keyword", { code: "KEYWORD_DUPLICATE" });
          else {
            if (own !== null) keywordKeys.delete(own);
            keywordKeys.add(key);
          }
        }
        const next: KeywordRecord = {
          id: objectId,
          ad_group_id: group ?? 0,
          text: keyword,
          match_type: matchType,
          bid_micro: bid,
          status: status<KeywordStatus>(current?.status ?? null, KEYWORD_STATUSES, OBJECT_STATUSES),
        };
        record(plan.keywords, byId.KEYWORD, next, current, keyword);
        break;
      }
      case "PRODUCT_GROUP": {
        const current = id === null ? undefined : byId.PRODUCT_GROUP.get(id);
        const name = text("name", CAMPAIGN_LIMITS.name, current?.name ?? "");
        let filters = current?.filters ?? "{}";
        if (cell("filters") !== "" && cell("filters") !== current?.filters) {
          const problem = filtersProblem(cell("filters"));
          if (problem) fail("filters", problem);
          else filters = cell("filters");
        }
        const next: ProductGroupRecord = { id: objectId, name, filters, status: status<ObjectStatus>(current?.status ?? null, CREATE_STATUSES, OBJECT_STATUSES) };
        endedCheck(current, current !== undefined && (next.name !== current.name || next.filters !== current.filters));
        record(plan.productGroups, byId.PRODUCT_GROUP, next, current, name);
        break;
      }
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, plan };
}
