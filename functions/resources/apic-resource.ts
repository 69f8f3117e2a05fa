// ApiCResource create: the client logger's event batches (spec 000 §7; src/events/ingest.server.ts).
import { apiCOptionsSchema, ingestEvents } from "../../src/events/ingest.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const apiCResource: ResourceDefinition = {
  create: defineHandler({ options: apiCOptionsSchema, handle: (c, options) => ingestEvents(c, options) }),
};
