// Input no call can use: malformed bodies, keys no schema can keep, paths that do not decode.
// Each is a 400 naming the body (or field) and the reason, or the 404 any missing thing gets:
// never a 500. Every request carries the CSRF pair, so bodies reach the parsers.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, seedAccounts, USERS } from "./accounts-helpers.ts";
import { fetchWorker, get } from "./fixtures.ts";

interface Failure {
  status?: string;
  message: string;
  message_detail: string | null;
  http_status: number;
}
type Answer = Failure & { resource_response?: { error: Failure } };

/** The error object of a /v3 answer or a /resource answer alike. */
const errorOf = (body: Answer): Failure => body.resource_response?.error ?? body;

let signedIn: Browser;

beforeAll(async () => {
  await seedAccounts();
  signedIn = new Browser();
  await signedIn.login(USERS.ana.username);
});

const BOUNDARY = "pinloomBoundary7MA4YWxk";
const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const WELL_FRAMED = `${part("username_or_email", "ana")}${part("password", "x")}--${BOUNDARY}--\r\n`;

const MALFORMED_MULTIPART = [
  {
    name: "a body framed by another boundary",
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: WELL_FRAMED.replaceAll(BOUNDARY, "somethingElse"),
    detail: "body: has an invalid format",
  },
  {
    name: "a truncated part",
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"options":{}}`,
    detail: "body: has an invalid format",
  },
  {
    name: "a content-type without its boundary",
    contentType: "multipart/form-data",
    body: WELL_FRAMED,
    detail: "content-type: must name the multipart boundary",
  },
];

/** Routes that read a form body, as who may reach their parser (some check the session first). */
const FORM_ROUTES: Array<{ name: string; method: string; path: string; as: () => Browser }> = [
  { name: "login", method: "POST", path: "/v3/login/handshake/", as: () => new Browser() },
  { name: "sign-up", method: "POST", path: "/v3/register/email/handshake/", as: () => new Browser() },
  { name: "a /resource write", method: "POST", path: "/resource/BoardResource/create/", as: () => signedIn },
  { name: "the sign-up resource", method: "POST", path: "/resource/UserRegisterResource/create/", as: () => new Browser() },
  { name: "a /v3 comment write", method: "POST", path: "/v3/aggregated_comments/1/react/", as: () => signedIn },
  { name: "a /v3 settings write", method: "PUT", path: "/v3/users/settings/privacy/", as: () => signedIn },
  { name: "the tried-it photo upload", method: "POST", path: "/v3/did_it/photos/", as: () => signedIn },
];

describe("a malformed multipart body", () => {
  for (const route of FORM_ROUTES) {
    it.each(MALFORMED_MULTIPART)(`to ${route.name}: $name is a 400 naming it`, async ({ contentType, body, detail }) => {
      const response = await route.as().fetch(route.path, { method: route.method, body, headers: { "content-type": contentType } });
      expect(response.status).toBe(400);
      const error = errorOf(await response.json<Answer>());
      expect(error).toMatchObject({ message: "The request body is not a valid form", message_detail: detail, http_status: 400 });
    });
  }

  it("is answered in the request's language", async () => {
    const response = await new Browser().fetch("/v3/login/handshake/", {
      method: "POST",
      body: MALFORMED_MULTIPART[0]!.body,
      headers: { "content-type": MALFORMED_MULTIPART[0]!.contentType, "accept-language": "fr" },
    });
    expect(errorOf(await response.json<Answer>())).toMatchObject({
      message: "Le corps de la requête n'est pas un formulaire valide",
      message_detail: "body: a un format non valide",
    });
  });

  it("a well-framed one still reaches the handler", async () => {
    const response = await new Browser().fetch("/v3/login/handshake/", { method: "POST", body: WELL_FRAMED, headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } });
    // The parser read both fields: the refusal is the password check's, not the body's.
    expect(response.status).toBe(401);
  });
});

describe("a malformed JSON body", () => {
  const send = (browser: Browser, path: string, body: BodyInit, method = "POST") => browser.fetch(path, { method, body, headers: { "content-type": "application/json" } });

  it.each([
    ["login", "/v3/login/handshake/"],
    ["a /resource write", "/resource/BoardResource/create/"],
    ["persisted GraphQL", "/_/graphql/"],
  ])("to %s: text that is not JSON is a 400 naming it", async (_name, path) => {
    const response = await send(signedIn, path, '{"options": {');
    expect(response.status).toBe(400);
    expect(errorOf(await response.json<Answer>())).toMatchObject({ message: "The request body is not valid JSON" });
  });

  it("bytes that are not UTF-8 are a 400 naming the body", async () => {
    const response = await send(signedIn, "/resource/BoardResource/create/", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
    expect(response.status).toBe(400);
    expect(errorOf(await response.json<Answer>()).message_detail).toBe("body: is not valid UTF-8 text");
  });

  it("nesting past 32 levels is a 400 naming where", async () => {
    const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
    const tooDeep = await send(signedIn, "/v3/sessions/exchange/", `{"token":${deep(32)}}`);
    expect(tooDeep.status).toBe(400);
    expect(errorOf(await tooDeep.json<Answer>()).message_detail).toBe(`token${".0".repeat(31)}: must not nest more than 32 levels deep`);
    // One level less is read, and refused by the call's own schema instead.
    const shallow = await send(signedIn, "/v3/sessions/exchange/", `{"token":${deep(31)}}`);
    expect(shallow.status).toBe(400);
    expect(errorOf(await shallow.json<Answer>()).message_detail).toBe("token: must be a string");
  });

  it("a huge nesting is refused without overflowing anything", async () => {
    const response = await send(signedIn, "/resource/BoardResource/create/", `{"options":{"name":${"[".repeat(400_000)}${"]".repeat(400_000)}}}`);
    expect(response.status).toBe(400);
    expect(errorOf(await response.json<Answer>()).message_detail).toMatch(/^data\.options\.name(\.0)+: must not nest more than 32 levels deep$/);
  });
});

describe("__proto__ and other keys no schema knows", () => {
  const problemOf = async (response: Response) => {
    expect(response.status).toBe(400);
    return errorOf(await response.json<Answer>()).message_detail;
  };

  it("in a resource's options, as any unknown option is", async () => {
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const body = `{"options":{"name":"Trips","${key}":{"privacy":"secret"}}}`;
      const detail = await problemOf(await signedIn.fetch("/resource/BoardResource/create/", { method: "POST", body, headers: { "content-type": "application/json" } }));
      expect(detail).toMatch(new RegExp(`^(data\\.)?options\\.${key}: is not a known option$`));
    }
  });

  it("in a GET's data parameter", async () => {
    const data = encodeURIComponent('{"options":{"id":"1","__proto__":{"x":1}}}');
    expect(await problemOf(await fetchWorker(`/resource/PinResource/get/?data=${data}`))).toBe("data.options.__proto__: is not a known option");
  });

  it("inside a record an option holds (an event's aux_data)", async () => {
    const event = `{"clientUUID":"evt-proto-1","event_type":1,"time":"1700000000000000000","aux_data":{"ok":1,"__proto__":{"polluted":true}}}`;
    const body = `{"options":{"events":[${event}],"report_time":"1700000000000000000"}}`;
    const response = await new Browser().fetch("/resource/ApiCResource/create/", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(await problemOf(response)).toBe("data.options.events.0.aux_data.__proto__: is not a known option");
  });

  it("in a JSON body of a /v3 call", async () => {
    const response = await signedIn.fetch("/v3/users/settings/privacy/", { method: "PUT", body: '{"is_private_profile":true,"__proto__":{"passcode":"1234"}}', headers: { "content-type": "application/json" } });
    expect(await problemOf(response)).toBe("__proto__: is not a known option");
    const row = await env.DB.prepare("SELECT is_private_profile FROM users WHERE id = ?1").bind(USERS.ana.id).first<{ is_private_profile: number }>();
    expect(row?.is_private_profile).toBe(0);
  });

  it("as a form field's name, where copying the form dropped it and applied the rest", async () => {
    const body = new URLSearchParams([["is_private_profile", "true"], ["__proto__", "x"]]).toString();
    const response = await signedIn.fetch("/v3/users/settings/privacy/", { method: "PUT", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(await problemOf(response)).toBe("__proto__: is not a known option");
    const row = await env.DB.prepare("SELECT is_private_profile FROM users WHERE id = ?1").bind(USERS.ana.id).first<{ is_private_profile: number }>();
    expect(row?.is_private_profile).toBe(0);
  });

  it("as a form field's name on login", async () => {
    const body = new URLSearchParams([["username_or_email", "ana"], ["password", "x"], ["__proto__", "y"]]).toString();
    const response = await new Browser().fetch("/v3/login/handshake/", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(await problemOf(response)).toBe("__proto__: is not a known option");
  });

  it("inside a JSON text field of a form (sign-up's user_behavior_data)", async () => {
    const response = await new Browser().form("/v3/register/email/handshake/", {
      email: "proto@pinloom.test",
      username: "proto_person",
      password: "Sunny-Day#42",
      first_name: "Pro",
      country: "",
      locale: "en-US",
      referrer: "",
      user_behavior_data: '{"clicks":1,"__proto__":{"admin":true}}',
    });
    expect(await problemOf(response)).toBe("user_behavior_data.__proto__: is not a known option");
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = 'proto@pinloom.test'").first()).toBeNull();
  });

  it("in GraphQL variables", async () => {
    const body = '{"queryHash":"' + "0".repeat(64) + '","variables":{"__proto__":{"pinId":"1"}}}';
    const response = await new Browser().fetch("/_/graphql/", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(await problemOf(response)).toBe("variables.__proto__: is not a known option");
  });
});

describe("a path that does not decode", () => {
  const PAGE_PATHS = ["/%FF/", "/pin/%FF/", "/search/%FF/?q=a", "/today/best/%FF/1/", "/ana/%E0%A4%A/", "/pin/%/", "/pin/%" + "25".repeat(10) + "41/"];

  it.each(PAGE_PATHS)("%s answers the 404 page", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const html = await response.text();
    expect(html).toContain("<title>Page not found</title>");
    expect(html).not.toMatch(/URIError|Invalid URL encoding/);
  });

  it("the 404 page is the one a missing page gets, in the request's language", async () => {
    const response = await get("/pin/%FF/", { "accept-language": "fr" });
    const missing = await get("/nobody-by-this-name/", { "accept-language": "fr" });
    expect(response.status).toBe(missing.status);
    const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
    expect(title(await response.text())).toBe(title(await missing.text()));
  });

  it.each([
    ["/sitemaps/%FF.xml", "/sitemaps/nothing.xml"],
    ["/resource/%FF/get/", "/resource/Nothing/get/"],
    ["/v3/%FF/", "/v3/nothing/"],
    ["/v3/users/%FF/", "/v3/users/nothing/"],
    ["/_/graphql/%FF", "/_/graphql/nothing"],
    ["/media/pins/%FF/orig.jpg", "/media/pins/nothing/orig.jpg"],
  ])("%s answers as %s does", async (path, sibling) => {
    const [response, missing] = await Promise.all([get(path), get(sibling)]);
    expect(response.status).toBe(404);
    expect(response.status).toBe(missing.status);
    expect(response.headers.get("content-type")).toBe(missing.headers.get("content-type"));
    if ((missing.headers.get("content-type") ?? "").startsWith("application/json")) {
      const [body, expected] = await Promise.all([response.json<Answer>(), missing.json<Answer>()]);
      expect(errorOf(body).http_status).toBe(404);
      expect(errorOf(body).message_detail).toBe(errorOf(expected).message_detail);
    }
  });

  it("the error page's own route answers the 404 page, not a 500", async () => {
    for (const path of ["/500", "/500/", "/%35%30%30"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("<title>Page not found</title>");
    }
  });

  it("the viewer's state for such a page is answered, not a 500", async () => {
    const response = await get(`/_/_/state?source_url=${encodeURIComponent("/pin/%FF/")}`);
    expect(response.status).toBe(200);
  });

  it("a state source_url off the site is a 400 in the request's language", async () => {
    const response = await get(`/_/_/state?source_url=${encodeURIComponent("https://elsewhere.example/")}`, { "accept-language": "fr" });
    expect(response.status).toBe(400);
    expect(errorOf(await response.json<Answer>()).message_detail).toBe("source_url: doit être un chemin de ce site, d'au plus 2048 caractères");
  });

  it("a write to such a path is refused the same way", async () => {
    const response = await new Browser().fetch("/pin/%FF/", { method: "POST", body: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(response.status).toBe(404);
  });
});
