import { describe, expect, it } from "vitest";
import {
  DELAY_HYDRATION_GROUP,
  delaysHydration,
  errorPayload,
  FINGERPRINT_DELAY_MS,
  fingerprintOf,
  HYDRATION_DELAY_MS,
  installIslandRetry,
  LOADABLE_EXPERIMENT,
  PIN_PRELOAD_EXPERIMENT,
  pinLinkPath,
  PlatformError,
  preloadAllowed,
  readEmbedded,
  sendsFingerprint,
  shouldAbort,
  StartupError,
  takeForcedReload,
} from "./startup.ts";
import { FORCED_RELOAD_KEY } from "./version.ts";

const doc = (elements: Record<string, string | null>) => ({
  getElementById: (id: string) => (id in elements ? ({ textContent: elements[id] } as HTMLElement) : null),
});
const complete = { "pinloom-context": '{"loginState":"UNAUTH"}', "pinloom-manifest": '{"version":"v1"}', main: "" };

describe("start-up constants (spec 000 §9)", () => {
  it("holds hydration 500 ms and sends the fingerprint after 300 ms", () => {
    expect(HYDRATION_DELAY_MS).toBe(500);
    expect(FINGERPRINT_DELAY_MS).toBe(300);
  });
});

describe("shouldAbort", () => {
  it.each([
    ["webcache.googleusercontent.com", "", true],
    ["pinloom.test", "?server_only=1", true],
    ["pinloom.test", "?server_only", true],
    ["pinloom.test", "?x=server_only", false],
    ["pinloom.test", "", false],
  ])("%s%s → %s", (host, search, expected) => {
    expect(shouldAbort(host, search)).toBe(expected);
  });
});

describe("readEmbedded", () => {
  it("returns the state, manifest and root", () => {
    const embedded = readEmbedded(doc(complete));
    expect(embedded.state).toEqual({ loginState: "UNAUTH" });
    expect(embedded.manifest).toEqual({ version: "v1" });
  });

  it.each([
    ["state", { ...complete, "pinloom-context": null }],
    ["state", { ...complete, "pinloom-context": "not json" }],
    ["manifest", { ...complete, "pinloom-manifest": null }],
    ["manifest", { ...complete, "pinloom-manifest": '{"version":3}' }],
    ["root", { "pinloom-context": complete["pinloom-context"], "pinloom-manifest": complete["pinloom-manifest"] }],
  ] as const)("stops naming the missing %s", (missing, elements) => {
    const read = () => readEmbedded(doc(elements));
    expect(read).toThrow(StartupError);
    expect(read).toThrow(`embedded ${missing} is missing`);
  });
});

describe("errorPayload", () => {
  it("is null without a payload", () => {
    expect(errorPayload(doc({}))).toBeNull();
    expect(errorPayload(doc({ "pinloom-error": "[]" }))).toBeNull();
  });
  it("raises a platform error with the payload's message and stack", () => {
    const error = errorPayload(doc({ "pinloom-error": JSON.stringify({ message: "render failed", stack: "at page (x.ts:1)" }) }));
    expect(error).toBeInstanceOf(PlatformError);
    expect(error!.message).toBe("render failed");
    expect(error!.stack).toContain("at page (x.ts:1)");
  });
});

describe("experiment checks", () => {
  it("delays hydration only for the enabled_delay_hydration group", () => {
    expect(delaysHydration({ [LOADABLE_EXPERIMENT]: DELAY_HYDRATION_GROUP })).toBe(true);
    expect(delaysHydration({ [LOADABLE_EXPERIMENT]: "control" })).toBe(false);
    expect(delaysHydration(undefined)).toBe(false);
  });

  it.each([
    [undefined, undefined, true],
    [{ [PIN_PRELOAD_EXPERIMENT]: "control" }, undefined, false],
    [{ [PIN_PRELOAD_EXPERIMENT]: "enabled" }, { effectiveType: "4g" }, true],
    [undefined, { saveData: true }, false],
    [undefined, { effectiveType: "2g" }, false],
    [undefined, { effectiveType: "slow-2g" }, false],
    [undefined, { effectiveType: "3g" }, true],
  ])("preload with %j on %j → %s", (experiments, connection, expected) => {
    expect(preloadAllowed(experiments, connection)).toBe(expected);
  });

  it("sends the fingerprint for a full sign-in only", () => {
    expect(sendsFingerprint("AUTH")).toBe(true);
    expect(sendsFingerprint("LIMITED_LOGIN")).toBe(false);
    expect(sendsFingerprint("UNAUTH")).toBe(false);
    expect(sendsFingerprint(undefined)).toBe(false);
  });
});

describe("takeForcedReload", () => {
  it("reads and clears the flag", () => {
    const items = new Map([[FORCED_RELOAD_KEY, '{"from":"a","to":"b"}']]);
    const storage = { getItem: (key: string) => items.get(key) ?? null, removeItem: (key: string) => void items.delete(key) };
    expect(takeForcedReload(storage)).toBe('{"from":"a","to":"b"}');
    expect(items.size).toBe(0);
    expect(takeForcedReload(storage)).toBeNull();
  });
  it("survives blocked storage", () => {
    expect(takeForcedReload(null)).toBeNull();
    expect(takeForcedReload({ getItem: () => { throw new Error("blocked"); }, removeItem: () => undefined })).toBeNull();
  });
});

describe("pinLinkPath", () => {
  it.each([
    ["https://pinloom.test/pin/12/", "/pin/12/"],
    ["/pin/12/?utm_source=x", "/pin/12/?utm_source=x"],
    ["https://elsewhere.test/pin/12/", null],
    ["/pin/abc/", null],
    ["/pin/12/sent/", null],
    ["javascript:alert(1)", null],
  ])("%s → %s", (href, expected) => {
    expect(pinLinkPath(href, "https://pinloom.test")).toBe(expected);
  });
});

describe("fingerprintOf", () => {
  it("is 32 hex characters, stable, and changes with the facts", async () => {
    const a = await fingerprintOf(["ua", "en", 1920]);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(await fingerprintOf(["ua", "en", 1920])).toBe(a);
    expect(await fingerprintOf(["ua", "en", 1280])).not.toBe(a);
  });
});

describe("installIslandRetry", () => {
  it("does nothing without Astro's island element", () => {
    expect(installIslandRetry(undefined, async () => undefined)).toBe(false);
    expect(installIslandRetry({ get: () => undefined }, async () => undefined)).toBe(false);
  });

  it("replaces importWithRetry: waits for the gate, then three tries at 500 ms doubling", async () => {
    class Island {
      importWithRetry(_url: string): Promise<unknown> {
        return Promise.reject(new Error("original"));
      }
      getRetryImportUrl(url: string) {
        return `${url}?astro-retry=1`;
      }
    }
    const order: string[] = [];
    const waits: number[] = [];
    expect(
      installIslandRetry({ get: () => Island as unknown as CustomElementConstructor }, async () => void order.push("gate"), async (ms) => void waits.push(ms)),
    ).toBe(true);
    // A data: URL that cannot be imported: every try fails, so the waits show the schedule.
    await expect(new Island().importWithRetry("data:text/javascript,throw new Error('chunk')")).rejects.toThrow();
    expect(order).toEqual(["gate"]);
    expect(waits).toEqual([500, 1000]);
  });
});
