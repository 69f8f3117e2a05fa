// Every XResource the product serves, by name. Each feature adds its own file here.
import type { ResourceDefinition } from "./define.ts";
import { pinResource } from "./pin-resource.ts";

export type { ResourceAction } from "./define.ts";

export const resources: Record<string, ResourceDefinition> = {
  PinResource: pinResource,
};
