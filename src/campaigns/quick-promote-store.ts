// The quick promote form's state (spec 002 §3 "Quick promote form", §4 "Quick promote"), as pure
// transitions (quickPromoteReducer, unit-tested) behind one nanostores atom the island reads.
// Selecting a pin clears the product group and back; changing advertiser recomputes its country
// and its billing-profile, address and GDPR flags (and the country's budget and duration
// defaults); resetting clears the form and every modal; submitting sets isFormOnSubmitting.
import { atom } from "nanostores";
import {
  adTypeFor,
  adTypeProblem,
  budgetProblem,
  destinationProblem,
  durationProblem,
  gdprApplies,
  promotionDefaults,
  startingBudget,
  type AdType,
  type AudienceSize,
  type ConversionEvent,
  type PromotionGoal,
} from "./quick-promote.ts";

/** The recent-pin image list keeps at most this many signatures, newest first (spec 002 §9). */
const RECENT_PIN_IMAGES_MAX = 10;

export interface AdvertiserFacts {
  id: string;
  name: string;
  country: string;
  currency: string;
  hasValidBillingProfile: boolean;
  hasBusinessAddress: boolean;
  gdprAccepted: boolean;
}

export interface PinChoice {
  id: string;
  kind: string;
  title: string;
  imageUrl: string | null;
  imageSignature: string;
  link: string | null;
}

export interface ProductGroupChoice {
  id: string;
  name: string;
}

/** The flow's modals (spec 002 §2), one open at a time. */
type Modal = "gdpr" | "pinSelection" | "business" | "billing" | "success" | "error" | "tag";

export const ERROR_SLOTS = ["destinationUrl", "adType", "dailyBudget", "duration", "name"] as const;
export type ErrorSlot = (typeof ERROR_SLOTS)[number];
export interface SlotError {
  reason: string;
  values?: Record<string, number> | undefined;
}

export interface QuickPromoteState {
  dailyBudget: number;
  duration: number | null;
  isOngoing: boolean;
  isFdb: boolean;
  destinationUrl: string;
  adType: AdType;
  selectedOCPMTag: ConversionEvent | null;
  name: string;
  goal: PromotionGoal;
  ages: string[];
  genders: string[];
  interests: string[];
  locale: string[];
  isAutoTargeting: boolean;
  targetingOptions: { size: AudienceSize };
  errors: Partial<Record<ErrorSlot, SlotError>>;
  advertiserId: string | null;
  advertiserCountry: string;
  hasValidBillingProfile: boolean;
  hasBusinessAddress: boolean;
  /** The GDPR modal's question is pending for this advertiser (it applies and is not yet answered). */
  needsGdpr: boolean;
  pin: PinChoice | null;
  productGroup: ProductGroupChoice | null;
  recentPinImages: string[];
  serverError: string | null;
  isFormOnSubmitting: boolean;
  modal: Modal | null;
  createdCampaignId: string | null;
}

export function initialState(advertiser: AdvertiserFacts | null = null): QuickPromoteState {
  const country = advertiser?.country ?? "";
  return {
    dailyBudget: startingBudget(country),
    duration: promotionDefaults(country).duration,
    isOngoing: false,
    isFdb: true,
    destinationUrl: "",
    adType: "STANDARD",
    selectedOCPMTag: null,
    name: "",
    goal: "CONSIDERATION",
    ages: [],
    genders: [],
    interests: [],
    locale: [],
    isAutoTargeting: true,
    targetingOptions: { size: "MEDIUM" },
    errors: {},
    advertiserId: advertiser?.id ?? null,
    advertiserCountry: country,
    hasValidBillingProfile: advertiser?.hasValidBillingProfile ?? false,
    hasBusinessAddress: advertiser?.hasBusinessAddress ?? false,
    needsGdpr: advertiser ? gdprApplies(advertiser.country) && !advertiser.gdprAccepted : false,
    pin: null,
    productGroup: null,
    recentPinImages: [],
    serverError: null,
    isFormOnSubmitting: false,
    modal: null,
    createdCampaignId: null,
  };
}

/** The fields a person edits directly. */
type Editable = Pick<QuickPromoteState, "dailyBudget" | "duration" | "isOngoing" | "isFdb" | "destinationUrl" | "adType" | "selectedOCPMTag" | "name" | "goal" | "ages" | "genders" | "interests" | "locale" | "isAutoTargeting">;

export type QuickPromoteAction =
  | { type: "selectPin"; pin: PinChoice }
  | { type: "selectProductGroup"; productGroup: ProductGroupChoice }
  | { type: "changeAdvertiser"; advertiser: AdvertiserFacts }
  | { type: "setField"; field: keyof Editable; value: Editable[keyof Editable] }
  | { type: "setAudienceSize"; size: AudienceSize }
  | { type: "openModal"; modal: Modal }
  | { type: "closeModal" }
  | { type: "billingSaved" }
  | { type: "addressSaved" }
  | { type: "gdprAccepted" }
  | { type: "submit" }
  | { type: "submitted"; campaignId: string }
  | { type: "refused"; errors: Partial<Record<ErrorSlot, SlotError>>; serverError: string | null }
  | { type: "reset" };

/** The recent-pin image list with `signature` in front: newest first, once each, at most RECENT_PIN_IMAGES_MAX. */
export function rememberPinImage(list: readonly string[], signature: string): string[] {
  return [signature, ...list.filter((item) => item !== signature)].slice(0, RECENT_PIN_IMAGES_MAX);
}

/** The form's own problems, slot by slot, before anything is sent (the server checks again). */
function formErrors(state: QuickPromoteState): Partial<Record<ErrorSlot, SlotError>> {
  const errors: Partial<Record<ErrorSlot, SlotError>> = {};
  const destination = destinationProblem(state.destinationUrl);
  if (destination) errors.destinationUrl = { reason: destination };
  const promoted = state.productGroup ? ({ productGroup: true } as const) : state.pin ? { pinKind: state.pin.kind } : null;
  if (promoted === null) errors.adType = { reason: "campaigns:validation.pinOrProductGroup" };
  else {
    const adType = adTypeProblem(state.adType, promoted);
    if (adType) errors.adType = { reason: adType };
  }
  const budget = budgetProblem(state.dailyBudget, state.advertiserCountry);
  if (budget) errors.dailyBudget = budget;
  const duration = durationProblem(state.duration, state.isOngoing);
  if (duration) errors.duration = duration;
  if (state.name.trim() === "") errors.name = { reason: "campaigns:validation.nameRequired" };
  return errors;
}

/** What must be answered before the form may be sent, in the order the flow asks it. */
function blockingModal(state: QuickPromoteState): Modal | null {
  if (state.needsGdpr) return "gdpr";
  if (!state.hasBusinessAddress) return "business";
  if (!state.hasValidBillingProfile) return "billing";
  return null;
}

export function quickPromoteReducer(state: QuickPromoteState, action: QuickPromoteAction): QuickPromoteState {
  switch (action.type) {
    case "selectPin": {
      const { adType: _slot, ...errors } = state.errors;
      return {
        ...state,
        pin: action.pin,
        productGroup: null,
        adType: adTypeFor({ pinKind: action.pin.kind }),
        destinationUrl: state.destinationUrl || action.pin.link || "",
        name: state.name || action.pin.title,
        recentPinImages: rememberPinImage(state.recentPinImages, action.pin.imageSignature),
        errors,
        modal: state.modal === "pinSelection" ? null : state.modal,
      };
    }
    case "selectProductGroup": {
      const { adType: _slot, ...errors } = state.errors;
      return { ...state, productGroup: action.productGroup, pin: null, adType: "SHOPPING", name: state.name || action.productGroup.name, errors, modal: state.modal === "pinSelection" ? null : state.modal };
    }
    case "changeAdvertiser": {
      const fresh = initialState(action.advertiser);
      // What the person chose stays; what depends on the advertiser is recomputed. A product
      // group belongs to one ad account, so it does not follow to another.
      return {
        ...state,
        advertiserId: fresh.advertiserId,
        advertiserCountry: fresh.advertiserCountry,
        hasValidBillingProfile: fresh.hasValidBillingProfile,
        hasBusinessAddress: fresh.hasBusinessAddress,
        needsGdpr: fresh.needsGdpr,
        dailyBudget: fresh.dailyBudget,
        duration: state.isOngoing ? state.duration : fresh.duration,
        productGroup: null,
        errors: {},
        serverError: null,
      };
    }
    case "setField": {
      const { [action.field as ErrorSlot]: _cleared, ...errors } = state.errors;
      const next = { ...state, [action.field]: action.value, errors } as QuickPromoteState;
      // A conversion goal optimises for a tag's event: its modal asks which.
      if (action.field === "goal" && action.value === "WEB_CONVERSION" && state.selectedOCPMTag === null) return { ...next, modal: "tag" };
      if (action.field === "goal" && action.value !== "WEB_CONVERSION") return { ...next, selectedOCPMTag: null };
      return next;
    }
    case "setAudienceSize":
      return { ...state, targetingOptions: { size: action.size } };
    case "openModal":
      return { ...state, modal: action.modal };
    case "closeModal":
      return { ...state, modal: null };
    case "billingSaved":
      return { ...state, hasValidBillingProfile: true, modal: null };
    case "addressSaved":
      return { ...state, hasBusinessAddress: true, modal: null };
    case "gdprAccepted":
      return { ...state, needsGdpr: false, modal: null };
    case "submit": {
      const blocking = blockingModal(state);
      if (blocking) return { ...state, modal: blocking };
      const errors = formErrors(state);
      if (Object.keys(errors).length > 0) return { ...state, errors };
      return { ...state, errors: {}, serverError: null, isFormOnSubmitting: true };
    }
    case "submitted":
      return { ...state, isFormOnSubmitting: false, createdCampaignId: action.campaignId, modal: "success" };
    case "refused":
      return { ...state, isFormOnSubmitting: false, errors: action.errors, serverError: action.serverError, modal: action.serverError ? "error" : null };
    case "reset": {
      const advertiser = state.advertiserId
        ? { id: state.advertiserId, name: "", country: state.advertiserCountry, currency: "", hasValidBillingProfile: state.hasValidBillingProfile, hasBusinessAddress: state.hasBusinessAddress, gdprAccepted: !state.needsGdpr }
        : null;
      // The recent-pin list is the person's history, not the form's: it survives a reset.
      return { ...initialState(advertiser), recentPinImages: state.recentPinImages };
    }
  }
}

/** The island's store: one atom and its dispatch. */
export function createQuickPromoteStore(start: QuickPromoteState) {
  const $state = atom<QuickPromoteState>(start);
  const dispatch = (action: QuickPromoteAction) => $state.set(quickPromoteReducer($state.get(), action));
  return { $state, dispatch };
}
