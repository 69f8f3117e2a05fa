// A scripted fetch for the client modules' unit tests: answers queued responses in order and
// records every request it saw.
import type { Transport } from "./api.client.ts";

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  credentials: RequestCredentials | undefined;
}

export type Scripted = { status: number; body: unknown; headers?: Record<string, string> } | { throws: unknown };

export function fakeTransport(answers: Scripted[], cookie = "csrftoken=abc123; other=1") {
  const seen: Seen[] = [];
  const waits: number[] = [];
  const transport: Transport = {
    cookie: () => cookie,
    sleep: async (ms) => {
      waits.push(ms);
    },
    fetch: async (input, init) => {
      seen.push({
        url: String(input),
        method: init?.method ?? "GET",
        headers: (init?.headers ?? {}) as Record<string, string>,
        body: typeof init?.body === "string" ? init.body : undefined,
        credentials: init?.credentials,
      });
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected request ${String(input)}`);
      if ("throws" in answer) throw answer.throws;
      const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      return new Response(text, { status: answer.status, headers: { "content-type": "application/json", ...answer.headers } });
    },
  };
  return { transport, seen, waits };
}

export const ok = (data: unknown) => ({ status: 200, body: { status: "success", code: 0, message: "ok", data } });
export const fail = (status: number, code: number | null, extra: Record<string, unknown> = {}) => ({
  status,
  body: { status: "failure", code, message: `failure ${code}`, data: null, ...extra },
});
