// The conversions API's wire format (POST /v5/ad_accounts/{id}/events), read into the shared event
// shape. The body follows the ads API's own: {test?, data: [{event_name, action_source,
// event_time (seconds), event_id, user_data: {em: [sha256]}, custom_data: {value, currency,
// num_items}, click_id?}]}. The batch as a whole is refused only when it cannot be read (not an
// object, no data list, too many events); each event is then checked on its own and the valid
// ones are stored: per-event validation is the API's contract, and every failed event is
// answered with its index, field and reason. Pure: shared by the endpoint and the payload helper.
import type { FieldProblem } from "~/domain/errors.ts";
import {
  CONVERSION_EVENT_NAMES,
  CONVERSION_LIMITS,
  conversionEventSchema,
  eventTimeProblem,
  type ConversionEvent,
  type ConversionEventName,
} from "./conversion.ts";

export const API_LIMITS = {
  /** Events in one call. */
  maxEvents: 1_000,
  /** Bytes of one call's body. */
  maxBodyBytes: 1_000_000,
  /** Addresses per event: the first is matched. */
  maxEmails: 10,
} as const;

/** Where the event happened, as the ads API names it. */
export const ACTION_SOURCES = [
  "web",
  "app_android",
  "app_ios",
  "offline",
] as const;
export type ActionSource = (typeof ACTION_SOURCES)[number];

/** Why one event was refused: the `capi:reasons.<reason>` message says it in words. */
type EventReason =
  | "required"
  | "not_object"
  | "not_string"
  | "not_integer"
  | "not_list"
  | "unknown_value"
  | "too_long"
  | "too_old"
  | "in_future"
  | "not_sha256"
  | "not_amount"
  | "too_large"
  | "currency_required"
  | "not_currency"
  | "not_click_id";

interface EventError {
  index: number;
  field: string;
  reason: EventReason;
}

export type EventReading =
  | { index: number; ok: true; event: ConversionEvent }
  | { index: number; ok: false; errors: EventError[] };

export type BatchReading =
  | { ok: false; problems: FieldProblem[] }
  | { ok: true; test: boolean; events: EventReading[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const SHA256 = /^[0-9a-fA-F]{64}$/;
const CLICK_ID = /^(0|[1-9]\d{0,19})$/;
const CURRENCY = /^[A-Za-z]{3}$/;
/** An amount as the ads API sends it ("72.39"), with at most six decimals. */
const AMOUNT = /^\d{1,13}(?:\.\d{1,6})?$/;

/** An amount (string or number) in micro-units, or null when it is not a plain non-negative amount. */
export function amountMicro(value: unknown): number | null {
  const text =
    typeof value === "number" && Number.isFinite(value) && value >= 0
      ? String(value)
      : typeof value === "string"
        ? value.trim()
        : null;
  if (text === null || !AMOUNT.test(text)) return null;
  const [whole, fraction = ""] = text.split(".") as [string, string?];
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, "0"));
}

/** One event of the batch, read into the shared shape or refused with every problem it has. */
function readEvent(
  raw: unknown,
  index: number,
  test: boolean,
  now: number,
): EventReading {
  const errors: EventError[] = [];
  const fail = (field: string, reason: EventReason) =>
    errors.push({ index, field, reason });
  if (!isObject(raw))
    return {
      index,
      ok: false,
      errors: [{ index, field: "", reason: "not_object" }],
    };

  const name = raw["event_name"];
  if (name === undefined) fail("event_name", "required");
  else if (
    typeof name !== "string" ||
    !(CONVERSION_EVENT_NAMES as readonly string[]).includes(name)
  )
    fail("event_name", "unknown_value");

  const source = raw["action_source"];
  if (source === undefined) fail("action_source", "required");
  else if (
    typeof source !== "string" ||
    !(ACTION_SOURCES as readonly string[]).includes(source)
  )
    fail("action_source", "unknown_value");

  const time = raw["event_time"];
  let eventTime = 0;
  if (time === undefined) fail("event_time", "required");
  else if (typeof time !== "number" || !Number.isSafeInteger(time) || time < 0)
    fail("event_time", "not_integer");
  else {
    eventTime = time * 1000;
    const problem = eventTimeProblem(eventTime, now);
    if (problem) fail("event_time", problem);
  }

  const id = raw["event_id"];
  if (id === undefined || (typeof id === "string" && id.trim() === ""))
    fail("event_id", "required");
  else if (typeof id !== "string") fail("event_id", "not_string");
  else if (id.trim().length > CONVERSION_LIMITS.eventIdLength)
    fail("event_id", "too_long");

  let emailSha256: string | null = null;
  const user = raw["user_data"];
  if (user !== undefined) {
    if (!isObject(user)) fail("user_data", "not_object");
    else if (user["em"] !== undefined) {
      const em = user["em"];
      if (!Array.isArray(em)) fail("user_data.em", "not_list");
      else if (em.length > API_LIMITS.maxEmails)
        fail("user_data.em", "too_long");
      else {
        em.forEach((hash, at) => {
          if (typeof hash !== "string" || !SHA256.test(hash))
            fail(`user_data.em.${at}`, "not_sha256");
        });
        if (typeof em[0] === "string" && SHA256.test(em[0]))
          emailSha256 = em[0].toLowerCase();
      }
    }
  }

  let valueMicro: number | null = null;
  let currency: string | null = null;
  let orderQuantity: number | null = null;
  const custom = raw["custom_data"];
  if (custom !== undefined) {
    if (!isObject(custom)) fail("custom_data", "not_object");
    else {
      if (custom["value"] !== undefined) {
        valueMicro = amountMicro(custom["value"]);
        if (valueMicro === null) fail("custom_data.value", "not_amount");
        else if (valueMicro > CONVERSION_LIMITS.maxValueMicro)
          fail("custom_data.value", "too_large");
      }
      const code = custom["currency"];
      if (code !== undefined) {
        if (typeof code !== "string" || !CURRENCY.test(code))
          fail("custom_data.currency", "not_currency");
        else currency = code.toUpperCase();
      } else if (custom["value"] !== undefined)
        fail("custom_data.currency", "currency_required");
      const items = custom["num_items"];
      if (items !== undefined) {
        if (
          typeof items !== "number" ||
          !Number.isSafeInteger(items) ||
          items < 0
        )
          fail("custom_data.num_items", "not_integer");
        else if (items > CONVERSION_LIMITS.maxQuantity)
          fail("custom_data.num_items", "too_large");
        else orderQuantity = items;
      }
    }
  }

  const click = raw["click_id"];
  if (
    click !== undefined &&
    (typeof click !== "string" || !CLICK_ID.test(click))
  )
    fail("click_id", "not_click_id");

  if (errors.length > 0) return { index, ok: false, errors };
  const event = conversionEventSchema.parse({
    eventName: name as ConversionEventName,
    eventId: id as string,
    eventTime,
    isTest: test,
    valueMicro,
    currency,
    orderQuantity,
    clickId: (click as string | undefined) ?? null,
    emailSha256,
  });
  return { index, ok: true, event };
}

/** A call's body: refused whole only when it is not a batch at all; otherwise each event on its own. */
export function readBatch(body: unknown, now: number): BatchReading {
  if (!isObject(body))
    return {
      ok: false,
      problems: [{ field: "data", reason: "validation.required" }],
    };
  const test = body["test"];
  if (test !== undefined && typeof test !== "boolean")
    return {
      ok: false,
      problems: [
        {
          field: "test",
          reason: "validation.invalidType",
          values: { expected: "boolean" },
        },
      ],
    };
  const data = body["data"];
  if (!Array.isArray(data) || data.length === 0)
    return {
      ok: false,
      problems: [{ field: "data", reason: "validation.required" }],
    };
  if (data.length > API_LIMITS.maxEvents)
    return {
      ok: false,
      problems: [
        {
          field: "data",
          reason: "validation.tooBig",
          values: { maximum: API_LIMITS.maxEvents },
        },
      ],
    };
  return {
    ok: true,
    test: test === true,
    events: data.map((raw, index) => readEvent(raw, index, test === true, now)),
  };
}

// ---- The payload helper ----

export interface PayloadChoices {
  eventName: ConversionEventName;
  actionSource: ActionSource;
  /** An amount as typed ("19.99"), or "" for none. */
  value: string;
  currency: string;
  numItems: number | null;
  /** The SHA-256 of a sample address, when the example should carry one. */
  emailSha256: string | null;
  test: boolean;
}

/** A valid example body built from the helper's choices, its event at `now`. */
export function examplePayload(
  choices: PayloadChoices,
  now: number,
): Record<string, unknown> {
  const custom: Record<string, unknown> = {};
  if (choices.value !== "") {
    custom["value"] = choices.value;
    custom["currency"] = choices.currency;
  }
  if (choices.numItems !== null) custom["num_items"] = choices.numItems;
  const event: Record<string, unknown> = {
    event_name: choices.eventName,
    action_source: choices.actionSource,
    event_time: Math.floor(now / 1000),
    event_id: `${choices.eventName}-${Math.floor(now / 1000)}`,
    ...(choices.emailSha256
      ? { user_data: { em: [choices.emailSha256] } }
      : {}),
    ...(Object.keys(custom).length > 0 ? { custom_data: custom } : {}),
  };
  return { ...(choices.test ? { test: true } : {}), data: [event] };
}

/** The shell command that sends a body to an account's endpoint, the token read from the environment. */
export function curlCommand(
  endpoint: string,
  body: Record<string, unknown>,
): string {
  const json = JSON.stringify(body).replace(/'/g, "'\\''");
  return `curl -X POST '${endpoint}' \\\n  -H "Authorization: Bearer $PINLOOM_CONVERSIONS_TOKEN" \\\n  -H 'Content-Type: application/json' \\\n  -d '${json}'`;
}
