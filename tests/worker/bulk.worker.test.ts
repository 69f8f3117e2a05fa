// Bulk editing's calls: the templates' headers (written out here by hand), a valid file applied
// whole with its history, a file with one bad row refused whole and recorded with that row's
// code, the size and row bounds, a retried file applied once, the account's objects downloaded,
// edited and uploaded again, and who may do what (strangers 404, analysts read but never upload).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 27_001, manager: 27_002, analyst: 27_003, stranger: 27_004, rival: 27_005, pinner: 27_006 } as const;
const PIN = 88_001;
const HIDDEN_PIN = 88_002;

let businessId = "";
let adAccountId = "";
let rivalAccountId = "";
const base = () => `/v3/businesses/${businessId}/ad_accounts/${adAccountId}/bulk`;

type Failure = { message: string; message_detail: string | null; extra_data: Record<string, unknown> | null };
type UploadAnswer = {
  status: number;
  data: { upload: { id: string; status: string; row_count: number; error_count: number; created_count: number; updated_count: number; file_name: string }; duplicate?: boolean; errors?: Array<{ row: number; column: string; code: string; message: string }> };
  error?: Failure;
};

async function upload(browser: Browser, fileName: string, csv: string | Uint8Array<ArrayBuffer>, path = `${base()}/uploads/`): Promise<UploadAnswer> {
  const form = new FormData();
  form.append("file", new File([csv], fileName, { type: "text/csv" }));
  const response = await browser.fetch(path, { method: "POST", body: form });
  const json = await response.json<{ data: UploadAnswer["data"]; error?: Failure }>();
  return { status: response.status, data: json.data, ...(json.error ? { error: json.error } : {}) };
}

const counts = async () => ({
  campaigns: await scalar("SELECT COUNT(*) FROM campaigns WHERE ad_account_id = ?1", adAccountId),
  adGroups: await scalar("SELECT COUNT(*) FROM ad_groups"),
  ads: await scalar("SELECT COUNT(*) FROM ads"),
  keywords: await scalar("SELECT COUNT(*) FROM keywords"),
  productGroups: await scalar("SELECT COUNT(*) FROM product_groups"),
  history: await scalar("SELECT COUNT(*) FROM business_history WHERE business_id = ?1", businessId),
});

const onboarding = (name: string, country: string) => ({
  businessGoals: ["INCREASE_SALES"],
  businessName: name,
  businessVertical: "HOME_AND_GARDEN",
  numberEmployees: "2_10",
  hasWebsite: false,
  country,
  locale: "fr",
  advertisingIntent: "NOW",
  worksWithAgency: false,
  firstName: "Lea",
  lastName: "Martin",
  email: `${name.toLowerCase()}@bulk.test`,
  whatsAppConsent: false,
  ageConfirmed: true,
});

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, 30)").bind(id, `bulk_${name}`, `${name}@bulk.test`),
    ),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, NULL, 'image', 'Linen', 'sig', 0, 0)").bind(PIN, U.pinner),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at, is_hidden) VALUES (?1, ?2, NULL, 'image', 'Hidden', 'sig', 0, 0, 1)").bind(HIDDEN_PIN, U.pinner),
    db.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES ('spam.example', 1)"),
  ]);
  const made = await (await browserAs(U.owner)).json("/v3/businesses/", onboarding("Maison", "FR"));
  const body = await made.json<{ data: { business: { id: string }; ad_account: { id: string } } }>();
  businessId = body.data.business.id;
  adAccountId = body.data.ad_account.id;
  const rival = await (await (await browserAs(U.rival)).json("/v3/businesses/", onboarding("Rival", "US"))).json<{ data: { ad_account: { id: string } } }>();
  rivalAccountId = rival.data.ad_account.id;
  await db.batch(
    (
      [
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.analyst, "ANALYST"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
  );
});

describe("downloading templates", () => {
  it("serves the campaigns template as UTF-8 CSV with a byte order mark, its header and an example row marked #", async () => {
    const response = await (await browserAs(U.analyst)).fetch(`${base()}/download/?section=campaigns`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="pinloom-campaigns-${adAccountId}-template.csv"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(lines[0]).toBe("type,id,ref,name,status,goal,daily_budget,start_date,duration_days");
    expect(lines[1]).toBe('"#CAMPAIGN (example, ignored)",,spring,Spring sale,ACTIVE,CONSIDERATION,25.00,2030-03-01,30');
    expect(lines.slice(2)).toEqual([""]);
  });

  it("serves the general template with every column and one example row of each kind", async () => {
    const text = await (await (await browserAs(U.owner)).fetch(`${base()}/download/?section=general`)).text();
    const lines = text.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "type,id,ref,campaign_id,ad_group_id,name,status,goal,daily_budget,start_date,duration_days,bid,auto_targeting,audience_size,pin_id,product_group_id,ad_type,destination_url,keyword,match_type,filters",
    );
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(['"#CAMPAIGN (example', '"#AD_GROUP (example', '"#AD (example', '"#KEYWORD (example', '"#PRODUCT_GROUP (example']);
  });

  it("refuses an unknown section with a 400 naming it", async () => {
    const response = await (await browserAs(U.owner)).fetch(`${base()}/download/?section=banners`);
    const body = await response.json<{ error: Failure }>();
    expect([response.status, body.error.message_detail?.startsWith("section:")]).toEqual([400, true]);
  });
});

const VALID = [
  "type,ref,campaign_id,ad_group_id,name,status,goal,daily_budget,duration_days,pin_id,destination_url,keyword,match_type",
  "#CAMPAIGN (example),x,,,Example,ACTIVE,CONSIDERATION,25,30,,,,",
  "CAMPAIGN,spring,,,Spring sale,ACTIVE,CONSIDERATION,12.50,30,,,,",
  "AD_GROUP,home,spring,,Home decor,PAUSED,,,,,,,",
  `AD,,,home,Linen ad,,,,,${PIN},https://shop.example/linen,,`,
  "KEYWORD,,,home,,,,,,,,linen cushions,PHRASE",
].join("\r\n");

describe("uploading a file", () => {
  it("applies every row of a valid file in one go, with a history row per object and one for the upload", async () => {
    const before = await counts();
    const answer = await upload(await browserAs(U.manager), "spring.csv", VALID);
    expect(answer.status).toBe(200);
    expect([answer.data.upload.status, answer.data.upload.row_count, answer.data.upload.created_count, answer.data.upload.updated_count, answer.data.duplicate]).toEqual(["APPLIED", 4, 4, 0, false]);
    const campaign = await env.DB.prepare("SELECT id, name, goal, status, daily_budget_micro, end_at - start_at AS span, business_id, created_by FROM campaigns WHERE ad_account_id = ?1").bind(adAccountId).first<Record<string, number | string>>();
    expect([campaign!["name"], campaign!["goal"], campaign!["status"], campaign!["daily_budget_micro"], campaign!["span"], String(campaign!["business_id"]), campaign!["created_by"]]).toEqual(["Spring sale", "CONSIDERATION", "ACTIVE", 12_500_000, 30 * 86_400_000, businessId, U.manager]);
    const adGroup = await env.DB.prepare("SELECT id, status FROM ad_groups WHERE campaign_id = ?1").bind(campaign!["id"]).first<{ id: number; status: string }>();
    expect(adGroup!.status).toBe("PAUSED");
    const ad = await env.DB.prepare("SELECT pin_id, campaign_id, ad_type, destination_url FROM ads WHERE ad_group_id = ?1").bind(adGroup!.id).first();
    expect(ad).toEqual({ pin_id: PIN, campaign_id: campaign!["id"], ad_type: "STANDARD", destination_url: "https://shop.example/linen" });
    expect(await scalar("SELECT json_object('text', text, 'match', match_type) FROM keywords WHERE ad_group_id = ?1", adGroup!.id)).toBe('{"text":"linen cushions","match":"PHRASE"}');
    expect(await counts()).toEqual({ ...before, campaigns: before.campaigns! + 1, adGroups: before.adGroups! + 1, ads: before.ads! + 1, keywords: before.keywords! + 1, history: before.history! + 5 });
    const history = await env.DB.prepare("SELECT action, actor_id FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 5").bind(businessId).all();
    expect(history.results.map((row) => row["action"]).reverse()).toEqual(["BULK_UPLOAD_APPLIED", "CAMPAIGN_CREATED", "AD_GROUP_CREATED", "AD_CREATED", "KEYWORD_CREATED"]);
    expect(new Set(history.results.map((row) => row["actor_id"]))).toEqual(new Set([U.manager]));
  });

  it("refuses a file with one bad row with a 400 naming that row's code, applies nothing, and keeps the failed upload", async () => {
    const before = await counts();
    const file = ["type,ref,campaign_id,name,goal,daily_budget", "CAMPAIGN,a,,Autumn,CONSIDERATION,20", "CAMPAIGN,b,,Winter,CONSIDERATION,3", "AD_GROUP,,a,Autumn people,,"].join("\n");
    const answer = await upload(await browserAs(U.owner), "seasons.csv", file);
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toBe("Errors in the file: 1. Nothing was applied.");
    expect(answer.data.errors).toEqual([{ row: 3, column: "daily_budget", code: "BUDGET_BELOW_MINIMUM", message: "The daily budget is below the minimum for the ad account's country. — minimum: 7" }]);
    expect([answer.data.upload.status, answer.data.upload.error_count, answer.data.upload.row_count]).toEqual(["FAILED", 1, 3]);
    expect(await counts()).toEqual(before);
    const kept = await env.DB.prepare("SELECT row_number, column_name, code, detail FROM bulk_upload_errors WHERE upload_id = ?1").bind(answer.data.upload.id).all();
    expect(kept.results).toEqual([{ row_number: 3, column_name: "daily_budget", code: "BUDGET_BELOW_MINIMUM", detail: '{"minimum":7}' }]);
  });

  it("answers 413 to a file over 1,000,000 bytes and 400 TOO_MANY_ROWS to one over 5,000 rows, applying nothing", async () => {
    const before = await counts();
    const owner = await browserAs(U.owner);
    const big = await upload(owner, "big.csv", `type,name\n${"PRODUCT_GROUP,".padEnd(999, "x")}\n`.repeat(1001));
    expect(big.status).toBe(413);
    const many = await upload(owner, "many.csv", `type,name\n${"PRODUCT_GROUP,P\n".repeat(5001)}`);
    expect([many.status, many.data.errors]).toEqual([400, [{ row: 0, column: "", code: "TOO_MANY_ROWS", message: "The file has too many rows. — maximum: 5000" }]]);
    expect(await counts()).toEqual(before);
  });

  it("applies a retried file once: the same bytes answer the first upload again", async () => {
    const owner = await browserAs(U.owner);
    const file = "type,name,filters\nPRODUCT_GROUP,Cushions,\"{\"\"kind\"\":\"\"cushion\"\"}\"\n";
    const first = await upload(owner, "cushions.csv", file);
    const before = await counts();
    const again = await upload(owner, "cushions (1).csv", file);
    expect([first.status, again.status, again.data.duplicate, again.data.upload.id]).toEqual([200, 200, true, first.data.upload.id]);
    expect(await counts()).toEqual(before);
    expect(await scalar("SELECT COUNT(*) FROM product_groups WHERE ad_account_id = ?1 AND name = 'Cushions'", adAccountId)).toBe(1);
  });

  it("refuses a hidden pin and a blocked destination", async () => {
    const adGroup = await scalar<number>("SELECT g.id FROM ad_groups g JOIN campaigns c ON c.id = g.campaign_id WHERE c.ad_account_id = ?1", adAccountId);
    const file = [`type,ad_group_id,name,pin_id,destination_url`, `AD,id:${adGroup},Hidden,${HIDDEN_PIN},https://shop.example/`, `AD,id:${adGroup},Spam,${PIN},https://deals.spam.example/`].join("\n");
    const answer = await upload(await browserAs(U.owner), "ads.csv", file);
    expect(answer.data.errors!.map((error) => [error.row, error.code])).toEqual([
      [2, "PIN_NOT_PROMOTABLE"],
      [3, "URL_BLOCKED"],
    ]);
  });

  it("takes the JSON form too", async () => {
    const response = await (await browserAs(U.owner)).json(`${base()}/uploads/`, { file_name: "json.csv", content: "type,name\nPRODUCT_GROUP,From JSON\n" });
    expect(response.status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM product_groups WHERE ad_account_id = ?1 AND name = 'From JSON'", adAccountId)).toBe(1);
  });
});

describe("editing the account's current objects", () => {
  it("downloads them with their ids, and the edited file updates them", async () => {
    const owner = await browserAs(U.owner);
    const text = await (await owner.fetch(`${base()}/download/?section=campaigns&current=1`)).text();
    const lines = text.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    const id = await scalar<number>("SELECT id FROM campaigns WHERE ad_account_id = ?1 AND name = 'Spring sale'", adAccountId);
    const today = new Date().toISOString().slice(0, 10);
    expect(lines).toEqual(["type,id,ref,name,status,goal,daily_budget,start_date,duration_days", `CAMPAIGN,id:${id},,Spring sale,ACTIVE,CONSIDERATION,12.50,${today},30`]);
    const before = await counts();
    const edited = `${lines[0]}\r\n${lines[1]!.replace("ACTIVE", "PAUSED").replace("12.50", "40")}\r\n`;
    const answer = await upload(owner, "edited.csv", edited);
    expect([answer.status, answer.data.upload.created_count, answer.data.upload.updated_count]).toEqual([200, 0, 1]);
    expect(await scalar<string>("SELECT json_object('status', status, 'budget', daily_budget_micro) FROM campaigns WHERE id = ?1", id)).toBe('{"status":"PAUSED","budget":40000000}');
    expect(await counts()).toEqual({ ...before, history: before.history! + 2 });
    // A fresh download, byte for byte (its byte order mark too, so not the edited file again), applies cleanly and changes nothing.
    const fresh = new Uint8Array(await (await owner.fetch(`${base()}/download/?section=campaigns&current=1`)).arrayBuffer());
    const same = await upload(owner, "same.csv", fresh);
    expect([same.status, same.data.duplicate, same.data.upload.created_count, same.data.upload.updated_count]).toEqual([200, false, 0, 0]);
  });
});

describe("the uploads' history", () => {
  it("lists the account's uploads with the spec's table state, and opens one with its row errors", async () => {
    const analyst = await browserAs(U.analyst);
    const list = await (await analyst.fetch(`${base()}/uploads/?filters=${encodeURIComponent('{"status":["FAILED"]}')}`)).json<{ data: { items: Array<{ file_name: string; error_count: number; uploaded_by: { username: string } }>; page: number; limit: number; sort_direction: string; start_index: number } }>();
    expect([list.data.page, list.data.limit, list.data.sort_direction, list.data.start_index]).toEqual([1, 10, "ASCENDING", 1]);
    expect(list.data.items.map((item) => [item.file_name, item.error_count, item.uploaded_by.username])).toEqual([
      ["seasons.csv", 1, "bulk_owner"],
      ["many.csv", 1, "bulk_owner"],
      ["ads.csv", 2, "bulk_owner"],
    ]);
    const failedId = await scalar<number>("SELECT id FROM bulk_uploads WHERE file_name = 'seasons.csv'");
    const one = await (await analyst.fetch(`${base()}/uploads/${failedId}/`)).json<{ data: { upload: { status: string }; errors: { items: Array<{ row: number; code: string }>; total_count: number } } }>();
    expect([one.data.upload.status, one.data.errors.items, one.data.errors.total_count]).toEqual(["FAILED", [{ row: 3, column: "daily_budget", code: "BUDGET_BELOW_MINIMUM", message: "The daily budget is below the minimum for the ad account's country. — minimum: 7" }], 1]);
  });

  it("lists every error code with its meaning", async () => {
    const answer = await (await (await browserAs(U.analyst)).fetch(`${base()}/error_codes/`)).json<{ data: { codes: Array<{ code: string; meaning: string }> } }>();
    expect(answer.data.codes.find((entry) => entry.code === "URL_BLOCKED")).toEqual({ code: "URL_BLOCKED", meaning: "The link leads to a blocked site." });
    expect(answer.data.codes).toHaveLength(42);
  });
});

describe("who may", () => {
  it("lets an analyst download and read, never upload (403, nothing kept)", async () => {
    const analyst = await browserAs(U.analyst);
    const uploads = await scalar("SELECT COUNT(*) FROM bulk_uploads");
    expect((await upload(analyst, "no.csv", "type,name\nPRODUCT_GROUP,No\n")).status).toBe(403);
    expect(await scalar("SELECT COUNT(*) FROM bulk_uploads")).toBe(uploads);
    expect((await analyst.fetch(`${base()}/uploads/`)).status).toBe(200);
  });

  it("answers a stranger, and another business's account, 404 everywhere", async () => {
    const stranger = await browserAs(U.stranger);
    expect((await stranger.fetch(`${base()}/download/?section=general`)).status).toBe(404);
    expect((await stranger.fetch(`${base()}/uploads/`)).status).toBe(404);
    expect((await upload(stranger, "x.csv", "type,name\nPRODUCT_GROUP,X\n")).status).toBe(404);
    const foreign = `/v3/businesses/${businessId}/ad_accounts/${rivalAccountId}/bulk`;
    expect((await (await browserAs(U.owner)).fetch(`${foreign}/uploads/`)).status).toBe(404);
    expect((await upload(await browserAs(U.owner), "x.csv", "type,name\nPRODUCT_GROUP,X\n", `${foreign}/uploads/`)).status).toBe(404);
    expect((await stranger.fetch(`/advertiser/${adAccountId}/bulk/`)).status).toBe(404);
    expect((await new Browser().fetch(`${base()}/uploads/`)).status).toBe(401);
  });

  it("shows members the four tabs; the upload form only to a role that may upload", async () => {
    for (const tab of ["", "upload/", "history/", "resources/"]) {
      const response = await (await browserAs(U.analyst)).fetch(`/advertiser/${adAccountId}/bulk/${tab}`);
      expect([tab, response.status]).toEqual([tab, 200]);
      const html = await response.text();
      expect(html).toMatch(/<meta name="robots" content="noindex/);
      if (tab === "upload/") expect(html).not.toContain("data-bulk-upload");
      if (tab === "resources/") expect(html).toContain('id="code-KEYWORD_DUPLICATE"');
    }
    expect(await (await (await browserAs(U.manager)).fetch(`/advertiser/${adAccountId}/bulk/upload/`)).text()).toContain("data-bulk-upload");
  });
});
