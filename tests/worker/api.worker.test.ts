import { beforeAll, describe, expect, it } from "vitest";
import { BASE, fetchWorker, get, seedWorld } from "./fixtures.ts";

beforeAll(async () => {
  await seedWorld([{ id: 101, title: "Lemon tart" }, { id: 102, isDeleted: true }, { id: 104, boardId: 11 }]);
});

const TOKEN = "a".repeat(64);
const data = (options: unknown) => encodeURIComponent(JSON.stringify({ options }));
const getResource = (name: string, options: unknown, init?: RequestInit) =>
  fetchWorker(`/resource/${name}/get/?data=${data(options)}`, init);

/** A same-site POST carrying the CSRF cookie and header. */
function post(path: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return fetchWorker(path, {
    method: "POST",
    body,
    headers: { origin: BASE, cookie: `csrftoken=${TOKEN}`, "x-csrftoken": TOKEN, "content-type": "application/json", ...headers },
  });
}

describe("/resource/{Name}/{action}/", () => {
  it("answers a get in the resource_response envelope", async () => {
    const response = await getResource("PinResource", { id: "101" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.json<{ resource_response: { status: string; code: number; message: string; data: { id: string; title: string } } }>();
    expect(body.resource_response).toMatchObject({ status: "success", code: 0, message: "ok", data: { id: "101", title: "Lemon tart" } });
  });

  it.each([
    ["an unknown option", { id: "101", colour: "red" }, "options.colour: is not a known option"],
    ["a malformed id", { id: "12a" }, "options.id: has an invalid format"],
    ["a missing id", {}, "options.id: is required"],
    ["a number for a string", { id: 101 }, "options.id: must be a string"],
  ])("%s is a 400 naming the field", async (_name, options, detail) => {
    const response = await getResource("PinResource", options);
    expect(response.status).toBe(400);
    const body = await response.json<{ resource_response: { status: string; error: Record<string, unknown> } }>();
    expect(body.resource_response.status).toBe("failure");
    expect(body.resource_response.error).toEqual({
      api_error_code: 1,
      code: 1,
      message: "Invalid parameters",
      message_detail: detail,
      extra_data: null,
      http_status: 400,
    });
  });

  it("data that is not JSON is a 400 naming data", async () => {
    const response = await fetchWorker("/resource/PinResource/get/?data=%7Bnope");
    expect(response.status).toBe(400);
    const body = await response.json<{ resource_response: { error: { message: string; message_detail: string } } }>();
    expect(body.resource_response.error.message).toBe("The request body is not valid JSON");
    expect(body.resource_response.error.message_detail).toBe("data: has an invalid format");
  });

  it("data without options reads as no options", async () => {
    const response = await fetchWorker(`/resource/PinResource/get/?data=${encodeURIComponent("{}")}`);
    expect(response.status).toBe(400);
  });

  it("a missing pin is 404 and a deleted one 410", async () => {
    expect((await getResource("PinResource", { id: "999" })).status).toBe(404);
    expect((await getResource("PinResource", { id: "102" })).status).toBe(410);
  });

  it("a pin on a secret board is a 404 to a stranger, like a missing one", async () => {
    const secret = await getResource("PinResource", { id: "104" });
    const missing = await getResource("PinResource", { id: "999" });
    expect(secret.status).toBe(404);
    expect(await secret.json()).toEqual(await missing.json());
  });

  it("an unknown resource or action is a 404 in the same shape", async () => {
    for (const path of ["/resource/NopeResource/get/", "/resource/PinResource/explode/", "/resource/not-a-name/get/"]) {
      const response = await fetchWorker(path);
      expect(response.status, path).toBe(404);
      const body = await response.json<{ resource_response: { error: { http_status: number } } }>();
      expect(body.resource_response.error.http_status).toBe(404);
    }
  });

  it("the wrong method is a 405 that says which is right", async () => {
    const response = await post("/resource/PinResource/get/", JSON.stringify({ options: { id: "101" } }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });

  it("translates its messages", async () => {
    const response = await getResource("PinResource", { id: "999" }, { headers: { "accept-language": "fr" } });
    const body = await response.json<{ resource_response: { message: string } }>();
    expect(body.resource_response.message).toBe("Épingle introuvable");
  });
});

describe("/v3/", () => {
  it("an unknown call is a 404 with {status, code, message, data} and the error fields", async () => {
    const response = await fetchWorker("/v3/nothing/here/");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: "failure", code: 4, message: "Not found", data: null, api_error_code: 4, http_status: 404 });
  });
});

describe("body bounds", () => {
  it("a body over 1 MiB is a 413", async () => {
    const response = await post("/resource/PinResource/create/", "x".repeat(1024 * 1024 + 1));
    expect(response.status).toBe(413);
    const body = await response.json<{ resource_response: { error: { http_status: number } } }>();
    expect(body.resource_response.error.http_status).toBe(413);
  });
});

describe("CSRF on every state-changing request", () => {
  const target = "/resource/NopeResource/create/"; // reaching the router at all answers 404
  const body = JSON.stringify({ options: {} });

  it("passes a same-site request with the token (and the router answers)", async () => {
    expect((await post(target, body)).status).toBe(404);
  });

  it("passes without Origin when Sec-Fetch-Site says same-origin", async () => {
    const response = await fetchWorker(target, {
      method: "POST",
      body,
      headers: { "sec-fetch-site": "same-origin", cookie: `csrftoken=${TOKEN}`, "x-csrftoken": TOKEN },
    });
    expect(response.status).toBe(404);
  });

  it.each([
    ["no token header", { "x-csrftoken": "" }],
    ["a wrong token", { "x-csrftoken": "b".repeat(64) }],
    ["no cookie", { cookie: "" }],
    ["a malformed cookie", { cookie: "csrftoken=short", "x-csrftoken": "short" }],
    ["another origin", { origin: "https://evil.example" }],
    ["a lookalike origin", { origin: `${BASE}.evil.example` }],
    ["a null origin", { origin: "null" }],
    ["text/plain from another site", { "content-type": "text/plain", origin: "https://evil.example" }],
    ["text/plain without the token", { "content-type": "text/plain", "x-csrftoken": "" }],
    ["a form", { "content-type": "application/x-www-form-urlencoded", "x-csrftoken": "" }],
    ["multipart", { "content-type": "multipart/form-data; boundary=x", origin: "https://evil.example" }],
  ])("refuses %s with a 403", async (_name, headers) => {
    const response = await post(target, body, headers);
    expect(response.status).toBe(403);
    const answer = await response.json<{ resource_response: { error: { api_error_code: number } } }>();
    expect(answer.resource_response.error.api_error_code).toBe(10);
  });

  it("refuses a request with neither Origin nor Sec-Fetch-Site", async () => {
    const response = await fetchWorker(target, { method: "POST", body, headers: { cookie: `csrftoken=${TOKEN}`, "x-csrftoken": TOKEN } });
    expect(response.status).toBe(403);
  });

  it.each(["PUT", "DELETE", "PATCH"])("covers %s too", async (method) => {
    const response = await fetchWorker("/v3/anything/", { method, headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(403);
  });

  it("issues the cookie on the first page, readable by the page's script", async () => {
    const response = await get("/");
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^csrftoken=[a-f0-9]{64};/);
    expect(cookie).toContain("Path=/");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).not.toContain("HttpOnly");
    expect((await get("/", { cookie: `csrftoken=${TOKEN}` })).headers.get("set-cookie")).toBeNull();
  });

  it("never issues it on cacheable media", async () => {
    const response = await fetchWorker("/media/pins/1/nothing.jpg");
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

describe("security headers on every response", () => {
  it.each([
    ["a page", "/"],
    ["an error page", "/pin/999/"],
    ["an API answer", "/resource/PinResource/get/"],
    ["the health check", "/healthz"],
    ["a media 404", "/media/pins/x.jpg"],
    ["a static asset", "/favicon.svg"],
  ])("%s", async (_name, path) => {
    const response = await get(path);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
  });

  it.each(["/", "/pin/101/", "/pin/999/"])("every inline style and script of %s is allowed by a hash in the header", async (path) => {
    const response = await get(path);
    const csp = response.headers.get("content-security-policy") ?? "";
    const html = await response.text();
    const inline = [...html.matchAll(/<(style|script)(\s[^>]*)?>([\s\S]*?)<\/\1>/g)].filter(
      ([, tag, attributes = ""]) => !(tag === "script" && /\bsrc=|type="application\/(ld\+)?json"/.test(attributes)),
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const [, tag, , body = ""] of inline) {
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
      const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
      const directive = new RegExp(`${tag}-src [^;]*'sha256-${hash.replace(/[+/=]/g, "\\$&")}'`);
      expect(csp, `${tag}: ${body.slice(0, 60)}`).toMatch(directive);
    }
  });

  it("a page's CSP allows Astro's scripts by hash and nothing inline besides", async () => {
    const csp = (await get("/pin/101/")).headers.get("content-security-policy") ?? "";
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1]?.trim().split(/\s+/) ?? [];
    expect(scriptSrc[0]).toBe("'self'");
    expect(scriptSrc.slice(1).every((source) => /^'sha256-[A-Za-z0-9+/=]+'$/.test(source))).toBe(true);
  });
});
