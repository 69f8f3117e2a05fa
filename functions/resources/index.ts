// Every XResource the product serves, by name. Each feature adds its own file here.
import type { ResourceDefinition } from "./define.ts";
import { boardFeedResource } from "./board-feed-resource.ts";
import { boardsFeedResource } from "./boards-feed-resource.ts";
import { homefeedResource } from "./homefeed-resource.ts";
import { pinResource } from "./pin-resource.ts";
import { relatedPinsFeedResource } from "./related-pins-feed-resource.ts";
import { userPinsResource } from "./user-pins-resource.ts";

export type { ResourceAction } from "./define.ts";

export const resources: Record<string, ResourceDefinition> = {
  HomefeedResource: homefeedResource,
  PinResource: pinResource,
  BoardFeedResource: boardFeedResource,
  BoardsFeedResource: boardsFeedResource,
  RelatedPinsFeedResource: relatedPinsFeedResource,
  UserPinsResource: userPinsResource,
};
