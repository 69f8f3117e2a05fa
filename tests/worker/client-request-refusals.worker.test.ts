// A write refused after its batch ran (its guarded statements matched nothing, its claim was
// written) changed nothing, so a retry under the same client request id is judged afresh: the
// refusal leaves no claim behind, whichever layer's error refused it.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { buildRequestContext } from "~/context/request-context.ts";
import { notFound } from "~/domain/errors.ts";
import { answerOnce, claimOf } from "~/server/client-request.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";

const CSRF = "f".repeat(64);

/** A route whose write claims its id in a batch that changes nothing, then is refused by `refuse`. */
function refusingRoute(refuse: () => Error) {
  let tries = 0;
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set("ctx", buildRequestContext(c.req.raw));
    await next();
  });
  app.post("/write", async (c) => {
    try {
      return c.json(
        await answerOnce(c, async () => {
          tries++;
          await env.DB.batch([...claimOf(c), env.DB.prepare("UPDATE pins SET title = title WHERE id = -1")]);
          throw refuse();
        }),
      );
    } catch {
      return c.json({ refused: true }, 404);
    }
  });
  const send = (clientId: string) => app.request("https://pinloom.test/write", { method: "POST", headers: { "x-client-request-id": clientId, cookie: `csrftoken=${CSRF}` } }, env);
  return { send, tries: () => tries };
}

const claims = async (clientId: string) => (await env.DB.prepare("SELECT count(*) AS n FROM client_requests WHERE client_id = ?1").bind(clientId).first<{ n: number }>())!.n;

describe("a write refused after its batch", () => {
  it.each([
    ["the data layer's refusal", () => notFound("boards:api.sectionNotFound")],
    ["the HTTP layer's refusal", () => new ApiError(404, ErrorCode.NotFound, { message: "api.notFound" })],
  ])("by %s leaves no claim, and its retry runs again", async (_, refuse) => {
    const route = refusingRoute(refuse);
    const clientId = `refused-${crypto.randomUUID()}`;
    expect((await route.send(clientId)).status).toBe(404);
    expect(await claims(clientId)).toBe(0);
    expect((await route.send(clientId)).status).toBe(404);
    expect(route.tries()).toBe(2);
  });
});
