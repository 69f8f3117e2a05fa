// Account calls of spec 000 §7 under /v3: handshakes, the session exchange, the signed-in
// user, e-mail verification, the account switcher's batch, fingerprints and the human check.
import { Hono } from "hono";
import type { AppEnv } from "../src/server/context.ts";

export const accountRoutes = new Hono<AppEnv>();
