// DidItLikeResource and DidItHelpfulResource create / delete: like a did-it or mark it helpful.
import { z } from "zod";
import { setDidItMark, type DidItMark } from "~/social/did-it.server.ts";
import { idSchema } from "~/social/guard.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const options = z.strictObject({ did_it_id: idSchema });

function markResource(kind: DidItMark): ResourceDefinition {
  return {
    create: defineHandler({ options, handle: (c, o) => setDidItMark(c.env.DB, c.var.ctx, o.did_it_id, kind, true) }),
    delete: defineHandler({ options, handle: (c, o) => setDidItMark(c.env.DB, c.var.ctx, o.did_it_id, kind, false) }),
  };
}

export const didItLikeResource = markResource("like");
export const didItHelpfulResource = markResource("helpful");
