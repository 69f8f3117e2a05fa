// Storage that fails on command, for the fault tests. The built Worker's own handlers are
// called with an env whose D1, R2 and queue bindings are wrapped, and the same env is made the
// `cloudflare:workers` env for the call (withEnv), which is what the Astro pages read: the
// production code has no test switch. With no fault armed, every call goes to the real
// binding, so a test can write, break, retry and then read the real rows.
import { env, withEnv } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext, type MessageBatchMessage, type QueueResult } from "cloudflare:test";
import { BASE } from "./fixtures.ts";

/** D1's own words for its retryable failures (Cloudflare's D1 error list). */
export const D1_CONNECTION_LOST = "D1_ERROR: Network connection lost.";
export const D1_TIMEOUT = "D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.";
export const D1_OVERLOADED = "D1_ERROR: D1 DB is overloaded. Requests queued for too long.";
/** R2's answer when its storage fails (error 10001). */
const R2_INTERNAL = "We encountered an internal error. Please try again. (10001)";
const QUEUE_UNREACHABLE = "Queue send failed: Network connection lost.";

/** Any trace of an internal error in an answer: a stack, a file, a storage message. */
export const LEAKS = /D1_ERROR|SQLITE|no such table|at .*\.(js|mjs|ts):\d+|Error:|\(10001\)|Network connection lost|exceeded timeout|Queue send failed/;

const BUILT_WORKER = "../../dist/server/entry.mjs";
const worker = ((await import(/* @vite-ignore */ BUILT_WORKER)) as { default: ExportedHandler<Env> }).default;

interface D1Rule {
  when: RegExp;
  message: string;
  delayMs: number;
  remaining: number;
  /** Run the batch for real up to the failing statement, then roll it back (D1's own atomicity). */
  midway: boolean;
}

interface SimpleRule {
  ops: ReadonlySet<string>;
  message: string;
  remaining: number;
}

export interface D1FaultOptions {
  /** Only statements whose SQL matches fail (every statement when left out). */
  when?: RegExp;
  message?: string;
  /** Fail after this long (a timeout is D1 answering late with its timeout error). */
  delayMs?: number;
  /** Fail this many times, then work again (always when left out). */
  times?: number;
  /** For a batch: run its statements before the matching one for real, then fail and roll back. */
  midway?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Statement = D1PreparedStatement & { statement: string };

export class Faults {
  readonly env: Env;
  /** SQL of every statement run or batched through the wrapped D1, in order (for assertions). */
  readonly log: string[] = [];
  private d1Rules: D1Rule[] = [];
  private r2Rules: SimpleRule[] = [];
  private queueRules: SimpleRule[] = [];
  private pending: Promise<void>[] = [];

  constructor(base: Env = env) {
    this.env = { ...base, DB: this.wrapD1(base.DB), MEDIA: this.wrapR2(base.MEDIA), EVENTS: this.wrapQueue(base.EVENTS) };
  }

  failD1(options: D1FaultOptions = {}): this {
    this.d1Rules.push({
      when: options.when ?? /[\s\S]/,
      message: options.message ?? D1_CONNECTION_LOST,
      delayMs: options.delayMs ?? 0,
      remaining: options.times ?? Infinity,
      midway: options.midway ?? false,
    });
    return this;
  }

  failR2(ops: ReadonlyArray<"get" | "head" | "put" | "delete" | "list">, options: { message?: string; times?: number } = {}): this {
    this.r2Rules.push({ ops: new Set(ops), message: options.message ?? R2_INTERNAL, remaining: options.times ?? Infinity });
    return this;
  }

  failQueue(options: { message?: string; times?: number } = {}): this {
    this.queueRules.push({ ops: new Set(["send", "sendBatch"]), message: options.message ?? QUEUE_UNREACHABLE, remaining: options.times ?? Infinity });
    return this;
  }

  /** Every binding works again. */
  heal(): this {
    this.d1Rules = [];
    this.r2Rules = [];
    this.queueRules = [];
    return this;
  }

  /** One request through the built Worker's fetch handler, with the wrapped bindings. */
  fetch = async (path: string | Request, init?: RequestInit): Promise<Response> => {
    const request = typeof path === "string" ? new Request(new URL(path, BASE), init) : path;
    const ctx = createExecutionContext();
    const response = (await withEnv(this.env, () => worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, this.env, ctx))) as Response;
    this.pending.push(waitOnExecutionContext(ctx));
    return response;
  };

  /** Waits for the work the answered requests left running (cache stores, purges). */
  async settle(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.allSettled(pending);
  }

  /**
   * One delivery of `messages` to the built Worker's queue consumer; its ack and retry state,
   * and the delay a retryAll asked for (the test batch itself does not record it).
   */
  async deliver<Body>(messages: MessageBatchMessage<Body>[]): Promise<{ result: QueueResult; error: unknown; retryDelaySeconds: number | undefined }> {
    const batch = createMessageBatch<Body>("pinloom-events", messages);
    let retryDelaySeconds: number | undefined;
    const retryAll = batch.retryAll.bind(batch);
    Object.defineProperty(batch, "retryAll", {
      value: (options?: QueueRetryOptions) => {
        retryDelaySeconds = options?.delaySeconds;
        retryAll(options);
      },
    });
    const ctx = createExecutionContext();
    let error: unknown = null;
    try {
      await withEnv(this.env, () => worker.queue!(batch as MessageBatch<unknown>, this.env, ctx));
    } catch (thrown) {
      error = thrown;
    }
    return { result: await getQueueResult(batch, ctx), error, retryDelaySeconds };
  }

  private takeD1(sql: readonly string[]): { rule: D1Rule; index: number } | null {
    for (const rule of this.d1Rules) {
      if (rule.remaining <= 0) continue;
      const index = sql.findIndex((text) => rule.when.test(text));
      if (index === -1) continue;
      rule.remaining -= 1;
      return { rule, index };
    }
    return null;
  }

  private takeSimple(rules: SimpleRule[], op: string): SimpleRule | null {
    const rule = rules.find((candidate) => candidate.remaining > 0 && candidate.ops.has(op)) ?? null;
    if (rule) rule.remaining -= 1;
    return rule;
  }

  private wrapD1(db: D1Database): D1Database {
    const instrument = (statement: Statement): Statement => {
      for (const method of ["first", "run", "all", "raw"] as const) {
        const original = (statement[method] as (...args: unknown[]) => Promise<unknown>).bind(statement);
        Object.defineProperty(statement, method, {
          value: async (...args: unknown[]) => {
            this.log.push(statement.statement);
            const fault = this.takeD1([statement.statement]);
            if (fault) {
              if (fault.rule.delayMs > 0) await sleep(fault.rule.delayMs);
              throw new Error(fault.rule.message);
            }
            return original(...args);
          },
        });
      }
      const bind = statement.bind.bind(statement);
      Object.defineProperty(statement, "bind", { value: (...values: unknown[]) => instrument(bind(...values) as Statement) });
      return statement;
    };
    return new Proxy(db, {
      get: (target, property) => {
        if (property === "prepare") return (sql: string) => instrument(target.prepare(sql) as Statement);
        if (property === "batch") {
          return async (statements: Statement[]) => {
            const sql = statements.map((statement) => statement.statement);
            this.log.push(...sql);
            const fault = this.takeD1(sql);
            if (!fault) return target.batch(statements);
            if (fault.rule.delayMs > 0) await sleep(fault.rule.delayMs);
            if (fault.rule.midway) {
              // The statements up to the failing one run for real; the guard then fails the
              // batch, and D1 rolls every one of them back.
              const guard = target.prepare("SELECT json('storage went away mid-batch') AS broken");
              await target.batch([...statements.slice(0, fault.index + 1), guard]).then(
                () => {
                  throw new Error("the mid-batch guard did not fail");
                },
                () => undefined,
              );
            }
            throw new Error(fault.rule.message);
          };
        }
        if (property === "exec") {
          return async (sql: string) => {
            const fault = this.takeD1([sql]);
            if (fault) throw new Error(fault.rule.message);
            return target.exec(sql);
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  private wrapR2(bucket: R2Bucket): R2Bucket {
    // R2's errors name the operation that failed ("put: We encountered…").
    return this.failing(bucket, () => this.r2Rules, (operation, message) => `${operation}: ${message}`);
  }

  private wrapQueue(queue: Queue): Queue {
    return this.failing(queue, () => this.queueRules, (_operation, message) => message);
  }

  /** A binding whose every method first asks `rules` whether this call fails. */
  private failing<Binding extends object>(binding: Binding, rules: () => SimpleRule[], error: (operation: string, message: string) => string): Binding {
    return new Proxy(binding, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const rule = this.takeSimple(rules(), String(property));
          if (rule) throw new Error(error(String(property), rule.message));
          return (value as (...args: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}
