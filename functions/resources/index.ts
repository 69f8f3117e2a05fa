// Every XResource the product serves, by name. Each feature adds its own file here.
import type { ResourceDefinition } from "./define.ts";
import { homefeedResource } from "./homefeed-resource.ts";
import { inviteMetadataResource } from "./invite-metadata-resource.ts";
import { inviteResource } from "./invite-resource.ts";
import { pinResource } from "./pin-resource.ts";

export type { ResourceAction } from "./define.ts";

export const resources: Record<string, ResourceDefinition> = {
  HomefeedResource: homefeedResource,
  InviteMetadataResource: inviteMetadataResource,
  InviteResource: inviteResource,
  PinResource: pinResource,
};
