// Session calls outside /v3 (spec 000 §7): GET /refresh_token, GET /refresh_stored_accounts
// and POST /vx/users/cctld_token/.
import { Hono } from "hono";
import type { AppEnv } from "../src/server/context.ts";

export const sessionRoutes = new Hono<AppEnv>();
