// Every XResource the product serves, by name. Each feature adds its own file here.
import type { ResourceDefinition } from "./define.ts";
import { apiCResource } from "./apic-resource.ts";
import { boardBulkResource } from "./board-bulk-resource.ts";
import { boardCollaboratorResource } from "./board-collaborator-resource.ts";
import { boardCollaboratorsResource } from "./board-collaborators-resource.ts";
import { boardFeedResource } from "./board-feed-resource.ts";
import { boardFollowResource } from "./board-follow-resource.ts";
import { boardOwnershipTransferResource } from "./board-ownership-transfer-resource.ts";
import { boardPickerResource } from "./board-picker-resource.ts";
import { boardResource } from "./board-resource.ts";
import { boardSectionPinsResource } from "./board-section-pins-resource.ts";
import { boardSectionResource } from "./board-section-resource.ts";
import { boardSectionsResource } from "./board-sections-resource.ts";
import { boardsFeedResource } from "./boards-feed-resource.ts";
import { aggregatedCommentFeaturesResource, aggregatedCommentHideResource, aggregatedCommentResource, unifiedCommentsResource } from "./comment-resources.ts";
import {
  contactRequestsResource,
  conversationMessageResource,
  conversationMessagesResource,
  conversationResource,
  conversationsResource,
  shareSuggestionsResource,
} from "./conversation-resources.ts";
import { didItActivityResource, didItUserFeedResource } from "./did-it-post-resources.ts";
import { didItHelpfulResource, didItLikeResource } from "./did-it-mark-resources.ts";
import { didItResource } from "./did-it-resource.ts";
import { findPinImagesResource } from "./find-pin-images-resource.ts";
import { homefeedResource } from "./homefeed-resource.ts";
import { interestFollowResource } from "./interest-follow-resource.ts";
import { newsHubBadgeResource, newsHubDetailsResource } from "./news-hub-resources.ts";
import { inviteMetadataResource } from "./invite-metadata-resource.ts";
import { inviteResource } from "./invite-resource.ts";
import { pinDraftResource, pinDraftsResource } from "./pin-draft-resources.ts";
import { storyPinDraftsResource } from "./story-pin-drafts-resource.ts";
import { pinReactionResource } from "./pin-reaction-resource.ts";
import { pinResource } from "./pin-resource.ts";
import { reactionsResource } from "./reactions-resource.ts";
import { countriesResource, localesResource } from "./regional-resources.ts";
import { relatedPinsFeedResource } from "./related-pins-feed-resource.ts";
import { promotedPinsResource } from "./promoted-pins-resource.ts";
import { repinResource } from "./repin-resource.ts";
import { scheduledPinsResource } from "./scheduled-pins-resource.ts";
import {
  advancedTypeaheadResource,
  baseSearchResource,
  searchTabResource,
  userRecentSearchesResource,
  visualLiveSearchResource,
  visualSearchFlashlightUnifiedResource,
} from "./search-resources.ts";
import { sponsorshipResource } from "./sponsorship-resource.ts";
import { relatedArticlesResource, todayArticleFeedResource, todayTabResource } from "./today-resources.ts";
import { userBlockResource } from "./user-block-resource.ts";
import { userFollowResource } from "./user-follow-resource.ts";
import { userLookupResource } from "./user-lookup-resource.ts";
import { userPinsResource } from "./user-pins-resource.ts";
import { userRegisterResource } from "./user-register-resource.ts";
import { userSessionResource } from "./user-session-resource.ts";
import { verifiedMerchantResource } from "./verified-merchant-resource.ts";
import { userExperienceCompletedResource, userExperiencePlatformResource, userExperienceResource, userExperienceViewedResource } from "./experience-resources.ts";

export type { ResourceAction } from "./define.ts";

export const resources: Record<string, ResourceDefinition> = {
  AdvancedTypeaheadResource: advancedTypeaheadResource,
  ApiCResource: apiCResource,
  AggregatedCommentFeaturesResource: aggregatedCommentFeaturesResource,
  AggregatedCommentHideResource: aggregatedCommentHideResource,
  AggregatedCommentResource: aggregatedCommentResource,
  BaseSearchResource: baseSearchResource,
  BoardBulkResource: boardBulkResource,
  BoardCollaboratorResource: boardCollaboratorResource,
  BoardCollaboratorsResource: boardCollaboratorsResource,
  BoardFeedResource: boardFeedResource,
  BoardFollowResource: boardFollowResource,
  BoardOwnershipTransferResource: boardOwnershipTransferResource,
  BoardPickerResource: boardPickerResource,
  BoardResource: boardResource,
  BoardSectionPinsResource: boardSectionPinsResource,
  BoardSectionResource: boardSectionResource,
  BoardSectionsResource: boardSectionsResource,
  BoardsFeedResource: boardsFeedResource,
  CountriesResource: countriesResource,
  ContactRequestsResource: contactRequestsResource,
  ConversationMessageResource: conversationMessageResource,
  ConversationMessagesResource: conversationMessagesResource,
  ConversationResource: conversationResource,
  ConversationsResource: conversationsResource,
  DidItActivityResource: didItActivityResource,
  DidItHelpfulResource: didItHelpfulResource,
  DidItLikeResource: didItLikeResource,
  DidItResource: didItResource,
  DidItUserFeedResource: didItUserFeedResource,
  FindPinImagesResource: findPinImagesResource,
  HomefeedResource: homefeedResource,
  InterestFollowResource: interestFollowResource,
  InviteMetadataResource: inviteMetadataResource,
  InviteResource: inviteResource,
  LocalesResource: localesResource,
  NewsHubBadgeResource: newsHubBadgeResource,
  NewsHubDetailsResource: newsHubDetailsResource,
  PinDraftResource: pinDraftResource,
  PinDraftsResource: pinDraftsResource,
  StoryPinDraftsResource: storyPinDraftsResource,
  PinReactionResource: pinReactionResource,
  PinResource: pinResource,
  ReactionsResource: reactionsResource,
  RelatedPinsFeedResource: relatedPinsFeedResource,
  PromotedPinsResource: promotedPinsResource,
  RepinResource: repinResource,
  ScheduledPinsResource: scheduledPinsResource,
  SearchTabResource: searchTabResource,
  ShareSuggestionsResource: shareSuggestionsResource,
  SponsorshipResource: sponsorshipResource,
  TodayArticleFeedResource: todayArticleFeedResource,
  TodayTabResource: todayTabResource,
  RelatedArticlesResource: relatedArticlesResource,
  UnifiedCommentsResource: unifiedCommentsResource,
  UserBlockResource: userBlockResource,
  UserFollowResource: userFollowResource,
  UserLookupResource: userLookupResource,
  UserPinsResource: userPinsResource,
  UserRecentSearchesResource: userRecentSearchesResource,
  UserRegisterResource: userRegisterResource,
  UserSessionResource: userSessionResource,
  VisualLiveSearchResource: visualLiveSearchResource,
  VisualSearchFlashlightUnifiedResource: visualSearchFlashlightUnifiedResource,
  VerifiedMerchantResource: verifiedMerchantResource,
  UserExperiencePlatformResource: userExperiencePlatformResource,
  UserExperienceResource: userExperienceResource,
  UserExperienceViewedResource: userExperienceViewedResource,
  UserExperienceCompletedResource: userExperienceCompletedResource,
};
