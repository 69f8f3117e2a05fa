import { describe, expect, it } from "vitest";
import type { Inventory } from "~/campaigns/campaigns.server.ts";
import { readCsv, writeCsv } from "./csv.ts";
import { readSheet, validateRows, type BulkContext, type BulkError, type BulkResult } from "./validate.ts";

// Hand-written files against a hand-written account: a French ad account (minimum daily budget
// 7, spec 002 §9), on 2026-11-27, where spam.example is a blocked host and pins 111 and 222 are
// public. New objects get ids 1001, 1002, … in file order.
const TODAY = Date.UTC(2026, 10, 27);
const DAY = 86_400_000;
const EMPTY: Inventory = { campaigns: [], adGroups: [], ads: [], keywords: [], productGroups: [] };

function check(csv: string, inventory: Inventory = EMPTY): BulkResult | { ok: false; errors: BulkError[] } {
  const read = readCsv(csv);
  if (!read.ok) return { ok: false, errors: [{ row: read.row, column: "", code: read.problem }] };
  const sheet = readSheet(read.header, read.records);
  if (!sheet.ok) return sheet;
  let next = 1000;
  const context: BulkContext = { country: "FR", today: TODAY, inventory, blockedHosts: new Set(["spam.example"]), promotablePins: new Set([111, 222]), newId: () => ++next, uploadId: 9 };
  return validateRows(sheet.rows, context);
}

const errorsOf = (csv: string, inventory?: Inventory) => {
  const result = check(csv, inventory);
  if (result.ok) throw new Error("expected errors");
  return result.errors.map((error) => [error.row, error.column, error.code]);
};

const planOf = (csv: string, inventory?: Inventory) => {
  const result = check(csv, inventory);
  if (!result.ok) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.plan;
};

const GENERAL_HEADER = "type,id,ref,campaign_id,ad_group_id,name,status,goal,daily_budget,start_date,duration_days,bid,auto_targeting,audience_size,pin_id,product_group_id,ad_type,destination_url,keyword,match_type,filters";

describe("a valid file", () => {
  const file = [
    GENERAL_HEADER,
    "#CAMPAIGN (example),,spring,,,Example,ACTIVE,CONSIDERATION,25,2030-03-01,30,,,,,,,,,,",
    "CAMPAIGN,,c1,,,Spring sale,ACTIVE,CONSIDERATION,25.50,2026-12-01,30,,,,,,,,,,",
    "PRODUCT_GROUP,,pg,,,All cushions,PAUSED,,,,,,,,,,,,,,\"{\"\"product_type\"\":[\"\"cushions\"\"]}\"",
    "AD_GROUP,,g1,c1,,Home decor,,,,,,1.5,FALSE,WIDE,,,,,,,",
    "AD,,,,g1,Linen cushions,,,,,,,,,111,,,https://shop.example/cushions,,,",
    "AD,,,,g1,All cushions,,,,,,,,,,pg,,https://shop.example/all,,,",
    "KEYWORD,,,,g1,,PAUSED,,,,,0.80,,,,,,,linen cushions,PHRASE,",
  ].join("\n");

  it("creates every kind, tying rows together by ref, and ignores the example row", () => {
    const plan = planOf(file);
    expect([plan.created, plan.updated]).toEqual([6, 0]);
    expect(plan.campaigns.create).toEqual([{ id: 1001, name: "Spring sale", goal: "CONSIDERATION", status: "ACTIVE", daily_budget_micro: 25_500_000, start_at: Date.UTC(2026, 11, 1), end_at: Date.UTC(2026, 11, 31) }]);
    expect(plan.productGroups.create).toEqual([{ id: 1002, name: "All cushions", filters: '{"product_type":["cushions"]}', status: "PAUSED" }]);
    expect(plan.adGroups.create).toEqual([{ id: 1003, campaign_id: 1001, name: "Home decor", status: "ACTIVE", bid_micro: 1_500_000, targeting: '{"auto":false,"size":"WIDE"}' }]);
    expect(plan.ads.create.map((ad) => [ad.id, ad.ad_group_id, ad.campaign_id, ad.pin_id, ad.product_group_id, ad.ad_type])).toEqual([
      [1004, 1003, 1001, 111, null, "STANDARD"],
      [1005, 1003, 1001, null, 1002, "SHOPPING"],
    ]);
    expect(plan.keywords.create).toEqual([{ id: 1006, ad_group_id: 1003, text: "linen cushions", match_type: "PHRASE", bid_micro: 800_000, status: "PAUSED" }]);
    expect(plan.history.map((entry) => [entry.action, entry.entity_id])).toEqual([
      ["CAMPAIGN_CREATED", "1001"],
      ["PRODUCT_GROUP_CREATED", "1002"],
      ["AD_GROUP_CREATED", "1003"],
      ["AD_CREATED", "1004"],
      ["AD_CREATED", "1005"],
      ["KEYWORD_CREATED", "1006"],
    ]);
    expect(plan.history[0]!.detail).toEqual({ name: "Spring sale", bulk_upload_id: "9" });
  });

  it("reads a spreadsheet's semicolon file with a byte order mark, a decimal comma and only its section's columns", () => {
    const plan = planOf("\uFEFFtype;name;goal;daily_budget\r\nCAMPAIGN;Été;WEB_CONVERSION;7,5\r\n\r\n");
    expect(plan.campaigns.create).toEqual([{ id: 1001, name: "Été", goal: "WEB_CONVERSION", status: "ACTIVE", daily_budget_micro: 7_500_000, start_at: TODAY, end_at: null }]);
  });
});

describe("a file with bad rows reports each with its row, column and code", () => {
  it("names a budget under the country's minimum, with the minimum", () => {
    const result = check("type,name,goal,daily_budget\nCAMPAIGN,Fine,CONSIDERATION,7\nCAMPAIGN,Too small,CONSIDERATION,6.99\n");
    expect(result).toEqual({ ok: false, errors: [{ row: 3, column: "daily_budget", code: "BUDGET_BELOW_MINIMUM", values: { minimum: 7 } }] });
  });

  it("checks every campaign cell", () => {
    const file = [
      "type,name,status,goal,daily_budget,start_date,duration_days",
      "CAMPAIGN,,ACTIVE,AWARENESS,1000000.01,2026-11-26,366",
      "CAMPAIGN,Ended at birth,ENDED,CONSIDERATION,10,2026-02-30,0",
      "CAMPAIGN,Odd,SLEEPING,CONSIDERATION,1 000,,ten",
    ].join("\n");
    expect(errorsOf(file)).toEqual([
      [2, "name", "REQUIRED"],
      [2, "goal", "ENUM_INVALID"],
      [2, "daily_budget", "BUDGET_ABOVE_MAXIMUM"],
      [2, "start_date", "DATE_IN_PAST"],
      [2, "duration_days", "DURATION_OUT_OF_RANGE"],
      [3, "start_date", "DATE_INVALID"],
      [3, "duration_days", "DURATION_OUT_OF_RANGE"],
      [3, "status", "STATUS_NOT_ALLOWED"],
      [4, "daily_budget", "NUMBER_INVALID"],
      [4, "duration_days", "NUMBER_INVALID"],
      [4, "status", "ENUM_INVALID"],
    ]);
  });

  it("checks references: only this account's ids and rows above, of the right kind", () => {
    const file = [
      "type,ref,campaign_id,ad_group_id,name,goal,daily_budget,pin_id,destination_url",
      "AD_GROUP,,later,,Too early,,,,",
      "CAMPAIGN,later,,,Later,CONSIDERATION,9,,",
      "AD_GROUP,g,id:424242,,Elsewhere,,,,",
      "AD,,,later,Wrong kind,,,111,https://shop.example/",
      "AD_GROUP,g,later,,Same ref,,,,",
      "AD_GROUP,9lives,later,,Bad ref,,,,",
    ].join("\n");
    expect(errorsOf(file)).toEqual([
      [2, "campaign_id", "REF_NOT_FOUND"],
      [4, "campaign_id", "ID_NOT_FOUND"],
      [5, "ad_group_id", "REF_NOT_FOUND"],
      [6, "ref", "REF_DUPLICATE"],
      [7, "ref", "REF_INVALID"],
    ]);
  });

  it("checks ads: the link rule, one creative, a public pin, the type that fits it", () => {
    const file = [
      "type,ref,campaign_id,ad_group_id,name,goal,daily_budget,pin_id,product_group_id,ad_type,destination_url",
      "CAMPAIGN,c,,,C,CONSIDERATION,9,,,,",
      "AD_GROUP,g,c,,G,,,,,,",
      "PRODUCT_GROUP,pg,,,PG,,,,,,",
      "AD,,,g,Ftp,,,111,,,ftp://shop.example/",
      "AD,,,g,Blocked,,,111,,,https://www.spam.example/deal",
      "AD,,,g,Both,,,111,pg,,https://shop.example/",
      "AD,,,g,Neither,,,,,,https://shop.example/",
      "AD,,,g,Hidden pin,,,333,,,https://shop.example/",
      "AD,,,g,Shopping pin,,,222,,SHOPPING,https://shop.example/",
      "AD,,,g,No link,,,222,,,",
    ].join("\n");
    expect(errorsOf(file)).toEqual([
      [5, "destination_url", "URL_INVALID"],
      [6, "destination_url", "URL_BLOCKED"],
      [7, "product_group_id", "CREATIVE_CONFLICT"],
      [8, "pin_id", "CREATIVE_REQUIRED"],
      [9, "pin_id", "PIN_NOT_PROMOTABLE"],
      [10, "ad_type", "AD_TYPE_MISMATCH"],
      [11, "destination_url", "REQUIRED"],
    ]);
  });

  it("checks keywords: match types, their two statuses, no repeat in an ad group", () => {
    const file = [
      "type,ref,campaign_id,ad_group_id,name,goal,daily_budget,keyword,match_type,status,bid",
      "CAMPAIGN,c,,,C,CONSIDERATION,9,,,,",
      "AD_GROUP,g,c,,G,,,,,,",
      "KEYWORD,,,g,,,,linen,EXACT,,",
      "KEYWORD,,,g,,,,linen,EXACT,,",
      "KEYWORD,,,g,,,,linen,FUZZY,,",
      "KEYWORD,,,g,,,,cotton,BROAD,ENDED,",
      "KEYWORD,,,g,,,,wool,BROAD,,0",
    ].join("\n");
    expect(errorsOf(file)).toEqual([
      [5, "keyword", "KEYWORD_DUPLICATE"],
      [6, "match_type", "ENUM_INVALID"],
      [7, "status", "STATUS_NOT_ALLOWED"],
      [8, "bid", "BID_OUT_OF_RANGE"],
    ]);
  });

  it("refuses unknown kinds and cells in columns a kind does not have", () => {
    expect(errorsOf("type,name,goal,daily_budget,keyword\nBANNER,X,,,\nCAMPAIGN,Y,CONSIDERATION,9,shoes\n,Z,,,\n")).toEqual([
      [2, "type", "TYPE_INVALID"],
      [3, "keyword", "COLUMN_NOT_APPLICABLE"],
      [4, "type", "REQUIRED"],
    ]);
  });
});

describe("the file itself", () => {
  it("refuses a header with an unknown, a repeated or no type column", () => {
    expect(errorsOf("type,name,colour,name\nCAMPAIGN,X,red,Y\n")).toEqual([
      [1, "colour", "HEADER_UNKNOWN_COLUMN"],
      [1, "name", "HEADER_DUPLICATE_COLUMN"],
    ]);
    expect(errorsOf("name,goal\nX,CONSIDERATION\n")).toEqual([[1, "type", "HEADER_MISSING_TYPE"]]);
  });

  it("refuses a quote never closed, a file with only examples, too many rows and a row longer than the header", () => {
    expect(errorsOf('type,name\nCAMPAIGN,"Spring\n')).toEqual([[2, "", "FILE_MALFORMED"]]);
    expect(errorsOf("type,name\n#CAMPAIGN,Example\n")).toEqual([[0, "", "FILE_EMPTY"]]);
    expect(errorsOf(`type,name\n${"PRODUCT_GROUP,P\n".repeat(5001)}`)).toEqual([[0, "", "TOO_MANY_ROWS"]]);
    expect(errorsOf("type,name\nPRODUCT_GROUP,P,extra\n")).toEqual([[2, "", "ROW_TOO_MANY_CELLS"]]);
  });

  it("accepts exactly 5,000 rows", () => {
    expect(planOf(`type,name\n${"PRODUCT_GROUP,P\n".repeat(5000)}`).created).toBe(5000);
  });
});

describe("rows with an id update this account's objects", () => {
  const inventory: Inventory = {
    ...EMPTY,
    campaigns: [
      { id: 4503599627370497, name: "Running", goal: "CONSIDERATION", status: "ACTIVE", daily_budget_micro: 20_000_000, start_at: TODAY - 10 * DAY, end_at: TODAY + 20 * DAY },
      { id: 4503599627370498, name: "Over", goal: "CONSIDERATION", status: "ENDED", daily_budget_micro: 9_000_000, start_at: TODAY - 40 * DAY, end_at: null },
    ],
  };

  it("changes only the cells given, keeps the rest, and writes what changed in history", () => {
    const plan = planOf("type,id,status,daily_budget,name\nCAMPAIGN,id:4503599627370497,PAUSED,30,\n", inventory);
    expect(plan.campaigns.update).toEqual([{ ...inventory.campaigns[0], status: "PAUSED", daily_budget_micro: 30_000_000 }]);
    expect([plan.created, plan.updated]).toEqual([0, 1]);
    expect(plan.history).toEqual([{ action: "CAMPAIGN_UPDATED", entity_type: "CAMPAIGN", entity_id: "4503599627370497", detail: { name: "Running", bulk_upload_id: "9", changes: ["status", "daily_budget_micro"] } }]);
  });

  it("leaves an object whose row repeats what it holds, even an ended one with its past start date", () => {
    const plan = planOf("type,id,name,status,goal,daily_budget,start_date,duration_days\nCAMPAIGN,id:4503599627370497,Running,ACTIVE,CONSIDERATION,20,2026-11-17,30\nCAMPAIGN,4503599627370498,Over,ENDED,CONSIDERATION,9,2026-10-18,\n", inventory);
    expect([plan.created, plan.updated, plan.history]).toEqual([0, 0, []]);
  });

  it("refuses a goal change, a change to an ended object, an id twice and an id of another account", () => {
    const file = [
      "type,id,goal,status,name",
      "CAMPAIGN,4503599627370497,CATALOG_SALES,,",
      "CAMPAIGN,4503599627370498,,ACTIVE,",
      "CAMPAIGN,4503599627370498,,,Renamed",
      "CAMPAIGN,4503599627370499,,PAUSED,",
      "CAMPAIGN,45035996273704971,,PAUSED,",
    ].join("\n");
    expect(errorsOf(file, inventory)).toEqual([
      [2, "goal", "GOAL_IMMUTABLE"],
      [3, "status", "OBJECT_ENDED"],
      [4, "id", "ID_DUPLICATE_IN_FILE"],
      [5, "id", "ID_NOT_FOUND"],
      [6, "id", "ID_INVALID"],
    ]);
  });

  it("refuses a child of an ended campaign", () => {
    expect(errorsOf("type,campaign_id,name\nAD_GROUP,id:4503599627370498,Late\n", inventory)).toEqual([[2, "campaign_id", "PARENT_ENDED"]]);
  });
});

describe("writing CSV", () => {
  it("starts with a byte order mark, quotes what needs it and keeps would-be formulas text, which reading takes off again", () => {
    const written = writeCsv(["type", "name"], [["CAMPAIGN", 'Say "hi", then go'], ["CAMPAIGN", "=HYPERLINK(1)"]]);
    expect(written).toBe('\uFEFFtype,name\r\nCAMPAIGN,"Say ""hi"", then go"\r\nCAMPAIGN,\'=HYPERLINK(1)\r\n');
    const read = readCsv(written);
    expect(read.ok && read.records.map((record) => record.cells)).toEqual([
      ["CAMPAIGN", 'Say "hi", then go'],
      ["CAMPAIGN", "=HYPERLINK(1)"],
    ]);
  });
});
