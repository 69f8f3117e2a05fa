import { handle } from "@astrojs/cloudflare/handler";
import { Hono } from "hono";

const app = new Hono<{ Bindings: Env }>();
app.get("/healthz", (c) => c.text("ok"));
app.all("*", (c) => handle(c.req.raw, c.env, c.executionCtx));

export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
