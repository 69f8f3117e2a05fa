// Helpers for the accounts Worker tests: a cookie jar per simulated browser, same-site calls
// carrying the CSRF pair, seeded accounts with real password hashes, and TOTP codes.
import { env } from "cloudflare:workers";
import { hashPassword } from "~/accounts/password.ts";
import { BASE, BROWSER_UA, fetchWorker } from "./fixtures.ts";

export const CSRF = "c".repeat(64);
export const PASSWORD = "PinloomDemo#2026";
export const MFA_SECRET = "PINLOOMDEMOTOTPSECRETKEY23456ABC";

export const USERS = {
  ana: { id: 1, username: "ana", email: "ana@pinloom.test" },
  ben: { id: 2, username: "ben", email: "ben@pinloom.test" },
  lou: { id: 4, username: "lou_limited", email: "lou@pinloom.test" },
  noah: { id: 6, username: "noah_secure", email: "noah@pinloom.test" },
  biz: { id: 3, username: "bakeandbloom", email: "hello@bake.test" },
  cal: { id: 8, username: "cal", email: "cal@pinloom.test" },
} as const;

/** Seeds the accounts above (password PASSWORD); one hash, reused, keeps seeding fast. */
export async function seedAccounts(): Promise<void> {
  const hash = await hashPassword(PASSWORD, new Uint8Array(16).fill(1));
  const insert = (id: number, username: string, email: string, extra: string, values: unknown[] = []) =>
    env.DB.prepare(
      `INSERT INTO users (id, username, email, password_hash, full_name, first_name, created_at${extra ? `, ${extra}` : ""})
       VALUES (?1, ?2, ?3, ?4, ?5, ?5, 0${values.map((_, i) => `, ?${i + 6}`).join("")})`,
    ).bind(id, username, email, hash, username, ...values);
  await env.DB.batch([
    insert(USERS.ana.id, USERS.ana.username, USERS.ana.email, "email_verified", [1]),
    insert(USERS.ben.id, USERS.ben.username, USERS.ben.email, ""),
    insert(USERS.lou.id, USERS.lou.username, USERS.lou.email, "login_state", ["limited"]),
    insert(USERS.noah.id, USERS.noah.username, USERS.noah.email, "has_mfa_enabled, mfa_secret", [1, MFA_SECRET]),
    insert(USERS.biz.id, USERS.biz.username, USERS.biz.email, "account_type, is_partner, business_name", ["business", 1, "Bake & Bloom Studio"]),
    insert(USERS.cal.id, USERS.cal.username, USERS.cal.email, "is_write_banned", [1]),
  ]);
}

let ipCounter = 0;
/** A fresh client address, so one test's throttle counts never reach another's. */
export const freshIp = () => `198.51.100.${++ipCounter % 250}`;

export interface Envelope<T = Record<string, unknown>> {
  status: "success" | "failure";
  code: number;
  message: string;
  data: T;
  message_detail?: string | null;
  extra_data?: Record<string, unknown> | null;
  http_status?: number;
}

/** One simulated browser: its cookies (session, device, csrf) and its client address. */
export class Browser {
  cookies = new Map<string, string>([["csrftoken", CSRF]]);
  /** `send` reaches the Worker: its default export, or another door to it (fault tests' wrapped bindings). */
  constructor(
    public ip = freshIp(),
    private readonly send: (path: string, init?: RequestInit) => Promise<Response> = fetchWorker,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(path: string, init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {}): Promise<Response> {
    const method = init.method ?? "GET";
    const headers: Record<string, string> = {
      "user-agent": BROWSER_UA,
      "cf-connecting-ip": this.ip,
      cookie: this.cookieHeader(),
      ...(method === "GET" ? {} : { origin: BASE, "x-csrftoken": CSRF }),
      ...init.headers,
    };
    const response = await this.send(path, { redirect: "manual", ...init, headers });
    this.remember(response);
    return response;
  }

  json(path: string, body: unknown, method = "POST"): Promise<Response> {
    return this.fetch(path, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  }

  form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  /** An XResource call: get as GET ?data=, the others as a JSON POST. */
  resource(name: string, action: "get" | "create" | "update" | "delete", options: unknown): Promise<Response> {
    if (action === "get") return this.fetch(`/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`);
    return this.json(`/resource/${name}/${action}/`, { options });
  }

  /** Password login → exchange; returns the exchange's body. Fails the test otherwise. */
  async login(usernameOrEmail: string, password = PASSWORD): Promise<Envelope<{ user: Record<string, unknown>; viewer_type: string; days_to_expiration: number }>> {
    const handshake = await this.form("/v3/login/handshake/", { username_or_email: usernameOrEmail, password, referrer: "" });
    const body = await handshake.json<Envelope<{ token: string }>>();
    if (handshake.status !== 200) throw new Error(`login ${usernameOrEmail}: ${handshake.status} ${JSON.stringify(body)}`);
    const exchange = await this.json("/v3/sessions/exchange/", { token: body.data.token, isRegistration: false });
    if (exchange.status !== 200) throw new Error(`exchange: ${exchange.status}`);
    return exchange.json();
  }

  get session(): string | undefined {
    return this.cookies.get("__Host-pinloom_sess");
  }
}

/** The current window's counter for a throttle rule, set directly (to test the 51st try). */
export async function fillCounter(key: string, count: number, windowMs: number): Promise<void> {
  const now = Date.now();
  await env.DB.prepare("INSERT OR REPLACE INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3)").bind(key, now - (now % windowMs), count).run();
}
