// Parental passcode and protected settings calls under /v3 (spec 000 §4, §5, §6).
import { Hono } from "hono";
import type { AppEnv } from "../src/server/context.ts";

export const passcodeRoutes = new Hono<AppEnv>();
