// Every XResource the product serves, by name. Each feature adds its own file here.
import type { ResourceDefinition } from "./define.ts";
import { boardBulkResource } from "./board-bulk-resource.ts";
import { boardFeedResource } from "./board-feed-resource.ts";
import { boardOwnershipTransferResource } from "./board-ownership-transfer-resource.ts";
import { boardPickerResource } from "./board-picker-resource.ts";
import { boardResource } from "./board-resource.ts";
import { boardSectionPinsResource } from "./board-section-pins-resource.ts";
import { boardSectionResource } from "./board-section-resource.ts";
import { boardSectionsResource } from "./board-sections-resource.ts";
import { boardsFeedResource } from "./boards-feed-resource.ts";
import { homefeedResource } from "./homefeed-resource.ts";
import { inviteMetadataResource } from "./invite-metadata-resource.ts";
import { inviteResource } from "./invite-resource.ts";
import { pinResource } from "./pin-resource.ts";
import { repinResource } from "./repin-resource.ts";
import { relatedPinsFeedResource } from "./related-pins-feed-resource.ts";
import { userPinsResource } from "./user-pins-resource.ts";
import { userRegisterResource } from "./user-register-resource.ts";
import { userSessionResource } from "./user-session-resource.ts";

export type { ResourceAction } from "./define.ts";

export const resources: Record<string, ResourceDefinition> = {
  BoardBulkResource: boardBulkResource,
  BoardFeedResource: boardFeedResource,
  BoardOwnershipTransferResource: boardOwnershipTransferResource,
  BoardPickerResource: boardPickerResource,
  BoardResource: boardResource,
  BoardSectionPinsResource: boardSectionPinsResource,
  BoardSectionResource: boardSectionResource,
  BoardSectionsResource: boardSectionsResource,
  BoardsFeedResource: boardsFeedResource,
  HomefeedResource: homefeedResource,
  InviteMetadataResource: inviteMetadataResource,
  InviteResource: inviteResource,
  PinResource: pinResource,
  RelatedPinsFeedResource: relatedPinsFeedResource,
  RepinResource: repinResource,
  UserPinsResource: userPinsResource,
  UserRegisterResource: userRegisterResource,
  UserSessionResource: userSessionResource,
};
