import { describe, expect, it } from "vitest";
import { createQuickPromoteStore, initialState, quickPromoteReducer, rememberPinImage, type AdvertiserFacts, type PinChoice, type QuickPromoteAction, type QuickPromoteState } from "./quick-promote-store.ts";

const US: AdvertiserFacts = { id: "1", name: "Shop US", country: "US", currency: "USD", hasValidBillingProfile: true, hasBusinessAddress: true, gdprAccepted: false };
const SE: AdvertiserFacts = { id: "2", name: "Shop SE", country: "SE", currency: "SEK", hasValidBillingProfile: false, hasBusinessAddress: true, gdprAccepted: false };
const pin = (id: string, kind = "image"): PinChoice => ({ id, kind, title: `Pin ${id}`, imageUrl: null, imageSignature: `sig${id}`, link: `https://shop.example/${id}` });

const run = (state: QuickPromoteState, ...actions: QuickPromoteAction[]) => actions.reduce(quickPromoteReducer, state);

describe("the quick promote form's store", () => {
  it("starts with auto-targeting on, isFdb true and the country's defaults", () => {
    const state = initialState(US);
    expect([state.isAutoTargeting, state.isFdb, state.dailyBudget, state.duration, state.isOngoing, state.advertiserCountry, state.needsGdpr, state.modal]).toEqual([true, true, 7, 10, false, "US", false, null]);
  });

  it("clears the product group when a pin is selected, and the pin when a product group is", () => {
    const withGroup = run(initialState(US), { type: "selectProductGroup", productGroup: { id: "9", name: "Lamps" } });
    expect([withGroup.productGroup?.id, withGroup.pin, withGroup.adType, withGroup.name]).toEqual(["9", null, "SHOPPING", "Lamps"]);
    const withPin = run(withGroup, { type: "selectPin", pin: pin("5", "video") });
    expect([withPin.pin?.id, withPin.productGroup, withPin.adType, withPin.destinationUrl]).toEqual(["5", null, "VIDEO", "https://shop.example/5"]);
    const back = run(withPin, { type: "selectProductGroup", productGroup: { id: "9", name: "Lamps" } });
    expect([back.pin, back.productGroup?.id]).toEqual([null, "9"]);
  });

  it("recomputes country, billing-profile, address and GDPR flags and the country's defaults when the advertiser changes", () => {
    const before = run(initialState(US), { type: "selectPin", pin: pin("5") }, { type: "setField", field: "name", value: "Spring" });
    const after = run(before, { type: "changeAdvertiser", advertiser: SE });
    expect([after.advertiserId, after.advertiserCountry, after.hasValidBillingProfile, after.hasBusinessAddress, after.needsGdpr, after.dailyBudget, after.duration]).toEqual(["2", "SE", false, true, true, 70, 30]);
    // What the person chose stays.
    expect([after.pin?.id, after.name]).toEqual(["5", "Spring"]);
  });

  it("keeps the recent-pin image list newest first, each once, at most 10", () => {
    let list: string[] = [];
    for (let index = 1; index <= 12; index++) list = rememberPinImage(list, `s${index}`);
    expect(list).toEqual(["s12", "s11", "s10", "s9", "s8", "s7", "s6", "s5", "s4", "s3"]);
    expect(rememberPinImage(list, "s7")).toEqual(["s7", "s12", "s11", "s10", "s9", "s8", "s6", "s5", "s4", "s3"]);
    const state = run(initialState(US), { type: "selectPin", pin: pin("1") }, { type: "selectPin", pin: pin("2") }, { type: "selectPin", pin: pin("1") });
    expect(state.recentPinImages).toEqual(["sig1", "sig2"]);
  });

  it("asks the GDPR, business and billing questions in that order before sending", () => {
    const needsAll = initialState({ ...SE, hasBusinessAddress: false });
    const first = run(needsAll, { type: "submit" });
    expect([first.modal, first.isFormOnSubmitting]).toEqual(["gdpr", false]);
    const second = run(first, { type: "gdprAccepted" }, { type: "submit" });
    expect(second.modal).toBe("business");
    const third = run(second, { type: "addressSaved" }, { type: "submit" });
    expect(third.modal).toBe("billing");
    const ready = run(third, { type: "billingSaved" });
    expect([ready.hasValidBillingProfile, ready.hasBusinessAddress, ready.needsGdpr, ready.modal]).toEqual([true, true, false, null]);
  });

  it("fills the error slots instead of sending a form with problems", () => {
    const state = run(initialState(US), { type: "setField", field: "dailyBudget", value: 3 }, { type: "setField", field: "duration", value: 366 }, { type: "setField", field: "destinationUrl", value: "ftp://x" }, { type: "submit" });
    expect(state.isFormOnSubmitting).toBe(false);
    expect(state.errors).toEqual({
      destinationUrl: { reason: "campaigns:validation.linkScheme" },
      adType: { reason: "campaigns:validation.pinOrProductGroup" },
      dailyBudget: { reason: "campaigns:validation.budgetMinimum", values: { minimum: 7 } },
      duration: { reason: "campaigns:validation.duration", values: { minimum: 1, maximum: 365 } },
      name: { reason: "campaigns:validation.nameRequired" },
    });
    // Editing a field clears its slot only.
    const edited = run(state, { type: "setField", field: "name", value: "Spring" });
    expect(Object.keys(edited.errors)).toEqual(["destinationUrl", "adType", "dailyBudget", "duration"]);
  });

  it("sets isFormOnSubmitting for a good form, then opens the success or the error modal", () => {
    const sending = run(initialState(US), { type: "selectPin", pin: pin("5") }, { type: "submit" });
    expect([sending.isFormOnSubmitting, sending.errors, sending.name]).toEqual([true, {}, "Pin 5"]);
    const done = run(sending, { type: "submitted", campaignId: "77" });
    expect([done.isFormOnSubmitting, done.modal, done.createdCampaignId]).toEqual([false, "success", "77"]);
    const failed = run(sending, { type: "refused", errors: {}, serverError: "Sorry! Something went wrong on our end!" });
    expect([failed.isFormOnSubmitting, failed.modal, failed.serverError]).toEqual([false, "error", "Sorry! Something went wrong on our end!"]);
  });

  it("asks for the conversion event when the goal becomes WEB_CONVERSION, and forgets it for another goal", () => {
    const asked = run(initialState(US), { type: "setField", field: "goal", value: "WEB_CONVERSION" });
    expect(asked.modal).toBe("tag");
    const chosen = run(asked, { type: "setField", field: "selectedOCPMTag", value: "CHECKOUT" }, { type: "closeModal" }, { type: "setField", field: "goal", value: "CONSIDERATION" });
    expect([chosen.selectedOCPMTag, chosen.modal]).toEqual([null, null]);
  });

  it("clears the form and every modal on reset, keeping the advertiser and the recent pins", () => {
    const busy = run(initialState(US), { type: "selectPin", pin: pin("5") }, { type: "setField", field: "dailyBudget", value: 40 }, { type: "openModal", modal: "pinSelection" });
    const reset = run(busy, { type: "reset" });
    expect([reset.pin, reset.dailyBudget, reset.name, reset.modal, reset.advertiserId, reset.recentPinImages]).toEqual([null, 7, "", null, "1", ["sig5"]]);
  });

  it("drives one atom through the same transitions", () => {
    const store = createQuickPromoteStore(initialState(US));
    store.dispatch({ type: "openModal", modal: "pinSelection" });
    store.dispatch({ type: "selectPin", pin: pin("8") });
    expect([store.$state.get().pin?.id, store.$state.get().modal]).toEqual(["8", null]);
  });
});
