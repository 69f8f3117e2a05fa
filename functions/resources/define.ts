// The shape of one XResource: a handler per action, each with its strict options schema.
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "~/server/context.ts";

export type ResourceAction = "get" | "create" | "update" | "delete";

export interface ResourceHandler<Schema extends z.ZodType = z.ZodType> {
  /** Options as the spec names them; strict, so an unknown option is a 400 naming it. */
  options: Schema;
  handle: (c: Context<AppEnv>, options: z.output<Schema>) => Promise<unknown>;
  /**
   * A write sent again with the same X-Client-Request-Id answers its first answer instead of
   * applying again (src/server/client-request.ts); its batch carries claimOf(c). Only for
   * answers that hold nothing secret: the first answer is stored for a day.
   */
  appliesOnce?: boolean;
}

export type ResourceDefinition = Partial<Record<ResourceAction, ResourceHandler>>;

/** Keeps each handler's option type tied to its schema while the registry stays uniform. */
export function defineHandler<Schema extends z.ZodType>(handler: ResourceHandler<Schema>): ResourceHandler {
  return handler as unknown as ResourceHandler;
}
