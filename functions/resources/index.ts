// Every XResource the product serves, by name. Each feature adds its own file here.
import type { ResourceDefinition } from "./define.ts";
import { homefeedResource } from "./homefeed-resource.ts";
import { pinResource } from "./pin-resource.ts";
import { userRegisterResource } from "./user-register-resource.ts";
import { userSessionResource } from "./user-session-resource.ts";

export type { ResourceAction } from "./define.ts";

export const resources: Record<string, ResourceDefinition> = {
  HomefeedResource: homefeedResource,
  PinResource: pinResource,
  UserRegisterResource: userRegisterResource,
  UserSessionResource: userSessionResource,
};
