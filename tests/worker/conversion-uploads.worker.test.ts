// Conversion uploads: an offline conversions file stored as UPLOAD events through the one
// conversion statement (an event the API already stored under the same id kept once), a file with
// a bad row refused whole with that row's column and code and nothing stored, the history with
// its counts, the size bound, a PCA list matched into a customer list by hashed address, and who
// may do what (strangers 404, analysts read but never upload).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { conversionStatement } from "~/conversions/record.server.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 46_101, manager: 46_102, analyst: 46_103, stranger: 46_104, ana: 46_105, ben: 46_106 } as const;
const BEN_HASH = "9c".padEnd(64, "1");

let businessId = "";
let adAccountId = "";
let audienceId = "";
const base = () => `/v3/businesses/${businessId}/ad_accounts/${adAccountId}/conversions/uploads`;

type Upload = { id: string; kind: string; status: string; row_count: number; error_count: number; stored_count: number; skipped_count: number; file_name: string; audience: { id: string; name: string } | null };
type Answer = { status: number; data: { upload: Upload; errors?: Array<{ row: number; column: string; code: string; message: string }> }; message?: string };

async function upload(userId: number, kind: string, fileName: string, csv: string | Uint8Array<ArrayBuffer>, query = ""): Promise<Answer> {
  const form = new FormData();
  form.append("file", new File([csv], fileName, { type: "text/csv" }));
  const response = await (await browserAs(userId)).fetch(`${base()}/${kind}/${query}`, { method: "POST", body: form });
  const json = await response.json<{ data: Answer["data"]; message?: string }>();
  return { status: response.status, data: json.data, ...(json.message ? { message: json.message } : {}) };
}

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 19) + "Z";

beforeAll(async () => {
  const db = env.DB;
  const anaHash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("ana@cup.test"))), (byte) => byte.toString(16).padStart(2, "0")).join("");
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, 30)").bind(id, `cup_${name}`, `${name}@cup.test`),
    ),
    db.prepare("INSERT INTO email_match (email_sha256, user_id) VALUES (?1, ?2), (?3, ?4)").bind(anaHash, U.ana, BEN_HASH, U.ben),
  ]);
  const made = await (
    await (
      await browserAs(U.owner)
    ).json("/v3/businesses/", {
      businessGoals: ["INCREASE_SALES"],
      businessName: "Loja",
      businessVertical: "HOME_AND_GARDEN",
      numberEmployees: "2_10",
      hasWebsite: false,
      country: "US",
      locale: "en_US",
      advertisingIntent: "NOW",
      worksWithAgency: false,
      firstName: "Rui",
      lastName: "Costa",
      email: "loja@cup.test",
      whatsAppConsent: false,
      ageConfirmed: true,
    })
  ).json<{ data: { business: { id: string }; ad_account: { id: string } } }>();
  businessId = made.data.business.id;
  adAccountId = made.data.ad_account.id;
  audienceId = "4503599627371234";
  await db.batch([
    ...(
      [
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.analyst, "ANALYST"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
    db
      .prepare("INSERT INTO audiences (id, business_id, ad_account_id, name, type, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, 'Loyal customers', 'CUSTOMER_LIST', ?4, 0, 0)")
      .bind(audienceId, businessId, adAccountId, U.owner),
  ]);
});

describe("offline conversion uploads", () => {
  it("stores a good file's rows as UPLOAD events, matched by hashed address, and keeps an event the API already sent once", async () => {
    const now = Date.now();
    await conversionStatement(env.DB, {
      adAccountId: Number(adAccountId),
      tagId: null,
      source: "API",
      receivedAt: now,
      event: { eventName: "checkout", eventId: "store-2", eventTime: now - 3_600_000, isTest: false, valueMicro: null, currency: null, orderQuantity: null, clickId: null, emailSha256: null },
    }).run();
    const file = ["event_name,event_id,event_time,email,value,currency,quantity", `checkout,store-1,${iso(7_200_000)},Ana@Cup.test,42.50,usd,2`, `checkout,store-2,${iso(3_600_000)},,10,USD,1`, `lead,call-1,${iso(600_000)},,,,`].join("\r\n");
    const answer = await upload(U.manager, "offline", "store.csv", `\uFEFF${file}`);
    expect(answer.status).toBe(200);
    expect([answer.data.upload.status, answer.data.upload.row_count, answer.data.upload.stored_count, answer.data.upload.skipped_count, answer.data.upload.error_count]).toEqual(["APPLIED", 3, 2, 1, 0]);
    const stored = await env.DB.prepare("SELECT event_id, source, value_micro, currency, order_quantity, user_id FROM conversion_events WHERE ad_account_id = ?1 ORDER BY event_id").bind(adAccountId).all();
    expect(stored.results).toEqual([
      { event_id: "call-1", source: "UPLOAD", value_micro: null, currency: null, order_quantity: null, user_id: null },
      { event_id: "store-1", source: "UPLOAD", value_micro: 42_500_000, currency: "USD", order_quantity: 2, user_id: U.ana },
      { event_id: "store-2", source: "API", value_micro: null, currency: null, order_quantity: null, user_id: null },
    ]);
    expect(await scalar("SELECT COUNT(*) FROM business_history WHERE business_id = ?1 AND action = 'CONVERSION_UPLOAD_APPLIED'", businessId)).toBe(1);
  });

  it("refuses a file with a bad row whole, naming the row, column and code, and stores none of its rows", async () => {
    const file = ["event_name,event_id,event_time,value,currency", `checkout,bad-1,${iso(60_000)},5,USD`, `checkout,bad-2,${iso(60_000)},five,USD`].join("\n");
    const answer = await upload(U.owner, "offline", "bad.csv", file);
    expect(answer.status).toBe(400);
    expect(answer.data.errors).toEqual([{ row: 3, column: "value", code: "BAD_AMOUNT", message: "Not an amount such as 42.50." }]);
    expect([answer.data.upload.status, answer.data.upload.error_count, answer.data.upload.stored_count]).toEqual(["FAILED", 1, 0]);
    expect(await scalar("SELECT COUNT(*) FROM conversion_events WHERE event_id LIKE 'bad-%'")).toBe(0);
    const detail = await (await (await browserAs(U.analyst)).fetch(`${base()}/offline/${answer.data.upload.id}/`)).json<{ data: { errors: Array<{ row: number; column: string; code: string }> } }>();
    expect(detail.data.errors.map((error) => [error.row, error.column, error.code])).toEqual([[3, "value", "BAD_AMOUNT"]]);
  });

  it("lists the uploads with their counts, newest first on request, to everyone in the business", async () => {
    const answer = await (await browserAs(U.analyst)).fetch(`${base()}/offline/?sort_direction=DESCENDING`);
    const body = await answer.json<{ data: { items: Upload[]; total_count: number } }>();
    expect(body.data.total_count).toBe(2);
    expect(body.data.items.map((item) => [item.file_name, item.status, item.row_count, item.stored_count, item.skipped_count, item.error_count])).toEqual([
      ["bad.csv", "FAILED", 2, 0, 0, 1],
      ["store.csv", "APPLIED", 3, 2, 1, 0],
    ]);
    const page = await (await (await browserAs(U.analyst)).fetch(`/advertiser/${adAccountId}/conversion-uploads/offline/history/`)).text();
    expect(page).toContain("store.csv");
  });

  it("refuses a file over 1,000,000 bytes with 413 and records nothing", async () => {
    const answer = await upload(U.owner, "offline", "huge.csv", "event_name,event_id,event_time\n" + "x".repeat(1_000_001));
    expect(answer.status).toBe(413);
    expect(await scalar("SELECT COUNT(*) FROM conversion_uploads WHERE file_name = 'huge.csv'")).toBe(0);
  });

  it("tells a stranger nothing and lets an analyst read but never upload", async () => {
    expect((await upload(U.stranger, "offline", "x.csv", "event_name\n")).status).toBe(404);
    expect((await (await browserAs(U.stranger)).fetch(`${base()}/offline/`)).status).toBe(404);
    expect((await (await browserAs(U.stranger)).fetch(`/advertiser/${adAccountId}/conversion-uploads/offline/`)).status).toBe(404);
    expect((await upload(U.analyst, "offline", "x.csv", "event_name\n")).status).toBe(403);
  });

  it("serves the template as UTF-8 CSV with a byte order mark", async () => {
    const response = await (await browserAs(U.analyst)).fetch(`${base()}/offline/template/`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([response.status, response.headers.get("content-type")]).toEqual([200, "text/csv; charset=utf-8"]);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3)).split("\r\n")[0]).toBe("event_name,event_id,event_time,email,email_sha256,value,currency,quantity,click_id");
  });
});

describe("PCA uploads", () => {
  it("matches a list's addresses and hashes into the customer list, keeping no address", async () => {
    const answer = await upload(U.manager, "pca", "customers.csv", `email,email_sha256\nana@cup.test,\n,${BEN_HASH.toUpperCase()}\nnobody@cup.test,\n`, `?audience_id=${audienceId}`);
    expect(answer.status).toBe(200);
    expect([answer.data.upload.status, answer.data.upload.row_count, answer.data.upload.stored_count, answer.data.upload.skipped_count, answer.data.upload.audience?.name]).toEqual(["APPLIED", 3, 2, 1, "Loyal customers"]);
    const members = await env.DB.prepare("SELECT user_id FROM audience_members WHERE audience_id = ?1 ORDER BY user_id").bind(audienceId).all();
    expect(members.results).toEqual([{ user_id: U.ana }, { user_id: U.ben }]);
    expect(await scalar("SELECT COUNT(*) FROM conversion_uploads WHERE file_name = 'customers.csv' AND kind = 'PCA'")).toBe(1);
  });

  it("needs a customer list of this account", async () => {
    expect((await upload(U.manager, "pca", "c.csv", "email\nana@cup.test\n")).status).toBe(400);
    expect((await upload(U.manager, "pca", "c.csv", "email\nana@cup.test\n", "?audience_id=4503599627379999")).status).toBe(404);
  });

  it("refuses a bad address on its row and matches nobody", async () => {
    const answer = await upload(U.owner, "pca", "bad.csv", "email\nnot-an-address\n", `?audience_id=${audienceId}`);
    expect([answer.status, answer.data.errors?.map((error) => [error.row, error.column, error.code])]).toEqual([400, [[2, "email", "BAD_EMAIL"]]]);
  });
});
