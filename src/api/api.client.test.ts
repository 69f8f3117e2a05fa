import { describe, expect, it } from "vitest";
import { ApiCallError, HandshakeHttpError, NetworkError, call, formBody, readCookie, resource } from "./api.client.ts";
import { fail, fakeTransport, ok } from "./fake-transport.ts";

describe("call", () => {
  it("sends the CSRF token from the csrftoken cookie, X-Requested-With and credentials (the runtime fetch layer)", async () => {
    const { transport, seen } = fakeTransport([ok({ a: 1 })], "x=1; csrftoken=tok%20en; y=2");
    await expect(call("/v3/x/", { method: "POST", body: { json: { a: 1 } } }, transport)).resolves.toEqual({ a: 1 });
    expect(seen[0]!.headers["X-CSRFToken"]).toBe("tok en");
    expect(seen[0]!.headers["X-Requested-With"]).toBe("XMLHttpRequest");
    expect(seen[0]!.headers["Content-Type"]).toBe("application/json");
    expect(seen[0]!.credentials).toBe("include");
    expect(seen[0]!.headers["X-Pinloom-App-State"]).toBe("active");
    expect(seen[0]!.body).toBe('{"a":1}');
  });

  it("form-encodes form bodies and leaves out absent fields", async () => {
    const { transport, seen } = fakeTransport([ok(null)]);
    await call("/v3/f/", { body: { form: { a: "1 2", b: undefined, c: "" } } }, transport);
    expect(seen[0]!.method).toBe("POST");
    expect(seen[0]!.headers["Content-Type"]).toBe("application/x-www-form-urlencoded");
    expect(seen[0]!.body).toBe("a=1+2&c=");
  });

  it("sends no CSRF header on GET", async () => {
    const { transport, seen } = fakeTransport([ok(null)]);
    await call("/refresh_token", {}, transport);
    expect(seen[0]!.headers["X-CSRFToken"]).toBeUndefined();
  });

  it.each([200, 401, 409])("a handshake accepts HTTP %i and reads its body", async (status) => {
    const { transport } = fakeTransport([status === 200 ? ok({ token: "t" }) : fail(status, 2)]);
    const promise = call("/v3/login/handshake/", { body: { form: {} }, handshake: true }, transport);
    if (status === 200) await expect(promise).resolves.toEqual({ token: "t" });
    else {
      const error = await promise.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiCallError);
      expect(error).not.toBeInstanceOf(HandshakeHttpError);
      expect((error as ApiCallError).code).toBe(2);
    }
  });

  it.each([400, 403, 429, 500, 502])("a handshake answered with HTTP %i raises a handshake HTTP error", async (status) => {
    const { transport } = fakeTransport([fail(status, status === 502 ? null : 9)]);
    const error = await call("/v3/login/handshake/", { body: { form: {} }, handshake: true }, transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandshakeHttpError);
    expect((error as HandshakeHttpError).httpStatus).toBe(status);
  });

  it("a 200 whose body is not a success raises an API error with its code", async () => {
    const { transport } = fakeTransport([{ status: 200, body: { status: "failure", code: 6, message: "taken", data: null } }]);
    const error = (await call("/v3/x/", { handshake: true }, transport).catch((e: unknown) => e)) as ApiCallError;
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error.code).toBe(6);
    expect(error.message).toBe("taken");
  });

  it("a body that is not JSON is an error with no code", async () => {
    const { transport } = fakeTransport([{ status: 502, body: "<html>bad gateway</html>" }]);
    const error = (await call("/v3/x/", {}, transport).catch((e: unknown) => e)) as ApiCallError;
    expect(error.code).toBeNull();
    expect(error.httpStatus).toBe(502);
  });

  it("a failed fetch is a NetworkError", async () => {
    const { transport } = fakeTransport([{ throws: new TypeError("Failed to fetch") }]);
    await expect(call("/v3/x/", {}, transport)).rejects.toBeInstanceOf(NetworkError);
  });

  it("resource calls post {options} as JSON and unwrap resource_response", async () => {
    const { transport, seen } = fakeTransport([{ status: 200, body: { resource_response: { status: "success", code: 0, message: "ok", data: { n: 1 } } } }]);
    await expect(resource("UserSessionResource", "create", { session_accounts: true }, transport)).resolves.toEqual({ n: 1 });
    expect(seen[0]!.url).toBe("/resource/UserSessionResource/create/");
    expect(JSON.parse(seen[0]!.body!)).toEqual({ options: { session_accounts: true } });
  });

  it("a resource call's 400 keeps the field problems its error object names", async () => {
    const failure = { status: "failure", code: 1, message: "Invalid parameters", data: null, error: { code: 1, message: "Invalid parameters", message_detail: "story.pages.1.blocks.1.pinId: Gone", extra_data: null, http_status: 400 } };
    const { transport } = fakeTransport([{ status: 400, body: { resource_response: failure } }]);
    const error = (await resource("StoryPinDraftsResource", "update", { id: "1" }, transport).catch((e: unknown) => e)) as ApiCallError;
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error.httpStatus).toBe(400);
    expect(error.detail).toBe("story.pages.1.blocks.1.pinId: Gone");
  });

  it("resource get sends the options in the data query parameter, by GET, without a body", async () => {
    const { transport, seen } = fakeTransport([{ status: 200, body: { resource_response: { status: "success", code: 0, message: "ok", data: { boards: [] } } } }]);
    await expect(resource("BoardPickerResource", "get", { pin_id: "12", filter: "a&b" }, transport)).resolves.toEqual({ boards: [] });
    const url = new URL(seen[0]!.url, "https://pinloom.test");
    expect(url.pathname).toBe("/resource/BoardPickerResource/get/");
    expect(JSON.parse(url.searchParams.get("data")!)).toEqual({ options: { pin_id: "12", filter: "a&b" } });
    expect(seen[0]!.method).toBe("GET");
    expect(seen[0]!.body).toBeUndefined();
    expect(seen[0]!.headers["X-CSRFToken"]).toBeUndefined();
  });
});

describe("writes", () => {
  const ID = /^[A-Za-z0-9_-]{16,64}$/;
  const unavailable = { status: 503, body: { status: "failure", code: 20, message: "Pinloom is briefly unavailable.", data: null } };

  it("a write names itself with a client request id; a read does not", async () => {
    const { transport, seen } = fakeTransport([ok(null), ok(null), ok(null)]);
    await call("/v3/x/", { method: "POST", body: { json: {} } }, transport);
    await call("/v3/x/", { method: "DELETE" }, transport);
    await call("/v3/x/", {}, transport);
    expect(seen[0]!.headers["X-Client-Request-Id"]).toMatch(ID);
    expect(seen[1]!.headers["X-Client-Request-Id"]).toMatch(ID);
    expect(seen[1]!.headers["X-Client-Request-Id"]).not.toBe(seen[0]!.headers["X-Client-Request-Id"]);
    expect(seen[2]!.headers["X-Client-Request-Id"]).toBeUndefined();
  });

  it("a write that met a 503 or the network is tried again with the same id, waiting 500 ms then 1 s", async () => {
    const { transport, seen, waits } = fakeTransport([unavailable, { throws: new TypeError("Failed to fetch") }, ok({ saved: true })]);
    await expect(resource("RepinResource", "create", { pin_id: "1" }, transport)).resolves.toEqual({ saved: true });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((request) => request.headers["X-Client-Request-Id"])).size).toBe(1);
    expect(waits).toEqual([500, 1000]);
  });

  it("a Retry-After is honoured up to 2 s", async () => {
    const { transport, waits } = fakeTransport([{ ...unavailable, headers: { "retry-after": "10" } }, ok(null)]);
    await call("/v3/x/", { method: "POST" }, transport);
    expect(waits).toEqual([2000]);
  });

  it("gives up after three tries with the last error", async () => {
    const { transport, seen } = fakeTransport([unavailable, unavailable, unavailable, ok(null)]);
    const error = (await call("/v3/x/", { method: "POST" }, transport).catch((e: unknown) => e)) as ApiCallError;
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error.code).toBe(20);
    expect(error.httpStatus).toBe(503);
    expect(seen).toHaveLength(3);
  });

  it("a refusal is final; so are reads, handshakes and aborts", async () => {
    for (const [answer, options] of [
      [fail(400, 1), { method: "POST" }],
      [unavailable, {}],
      [unavailable, { method: "POST", handshake: true }],
      [{ throws: new DOMException("aborted", "AbortError") }, { method: "POST" }],
    ] as const) {
      const { transport, seen } = fakeTransport([answer, ok(null)]);
      await expect(call("/v3/x/", options, transport)).rejects.toBeDefined();
      expect(seen).toHaveLength(1);
    }
  });

  it("a caller's own id is kept (one sign-up, many tries)", async () => {
    const { transport, seen } = fakeTransport([ok(null)]);
    await call("/v3/x/", { method: "POST", headers: { "X-Client-Request-Id": "signup-0123456789abcdef" } }, transport);
    expect(seen[0]!.headers["X-Client-Request-Id"]).toBe("signup-0123456789abcdef");
  });
});

describe("helpers", () => {
  it("readCookie finds one cookie by exact name", () => {
    expect(readCookie("xcsrftoken=1; csrftoken=2", "csrftoken")).toBe("2");
    expect(readCookie("a=1", "csrftoken")).toBeNull();
    expect(readCookie("csrftoken=%E0%A4", "csrftoken")).toBe("%E0%A4");
  });
  it("formBody keeps empty strings but drops undefined", () => {
    expect(formBody({ a: "", b: undefined }).toString()).toBe("a=");
  });
});
