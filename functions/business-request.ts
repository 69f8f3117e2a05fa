// What every business call reads from its request the same way: path ids (anything but an id is
// the 404 of an unknown one), a query checked against its schema, the signed-in viewer (a full
// login to read; a write also needs writes allowed), and the role table's answer, asked before
// any body is read so a stranger learns nothing from a 400.
import type { Context } from "hono";
import type { z } from "zod";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { idOption } from "~/boards/options.ts";
import { requireAction, requireAssetAction } from "~/business/core.server.ts";
import type { BusinessAction } from "~/business/roles.ts";
import { badRequest, notFound, zodProblems } from "~/domain/errors.ts";
import type { AppEnv } from "~/server/context.ts";

/** A path id as the API spells ids; anything else is a 404 like an unknown one. */
export function pathId(value: string | undefined, message = "business:api.notFound"): number {
  const parsed = idOption.safeParse(value);
  if (!parsed.success) throw notFound(message);
  return parsed.data;
}

/** The query string, checked whole: a 400 names each bad field. */
export function query<Schema extends z.ZodType>(c: Context<AppEnv>, schema: Schema): z.output<Schema> {
  const input = c.req.query();
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  return parsed.data;
}

export const reader = (c: Context<AppEnv>) => requireFullViewer(c.var.ctx).user.id;
export const writer = (c: Context<AppEnv>) => requireWriteAllowed(c.var.ctx).user.id;
export const businessParam = (c: Context<AppEnv>) => pathId(c.req.param("businessId"));

/** The viewer and the business, once the role table allows the action. */
export async function gate(c: Context<AppEnv>, action: BusinessAction, write: boolean): Promise<{ userId: number; businessId: number }> {
  const userId = write ? writer(c) : reader(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, action);
  return { userId, businessId };
}

/** The viewer and the business, once the role held on this ad account allows the action. */
export async function accountGate(c: Context<AppEnv>, action: BusinessAction, write: boolean, adAccountId: number): Promise<{ userId: number; businessId: number }> {
  const userId = write ? writer(c) : reader(c);
  const businessId = businessParam(c);
  await requireAssetAction(c.env.DB, businessId, userId, action, { type: "AD_ACCOUNT", id: adAccountId });
  return { userId, businessId };
}
