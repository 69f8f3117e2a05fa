// The quick promote flow (spec 002 §2): the quick promote page's form, the pick-a-pin sheet in
// the pin selection modal, and the GDPR, business, billing, tag, success and error modals. The
// form's state is the store of quick-promote-store.ts; the server checks everything again and
// its refusals land in the same error slots (or serverError and the error modal).
import { useStore } from "@nanostores/react";
import { useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { ApiCallError, call } from "~/api/api.client.ts";
import { CLIENT_REQUEST_HEADER } from "~/runtime/headers.ts";
import { fill } from "~/saves/strings.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { PickPinSheet } from "./PickPinSheet.tsx";
import { word, type PromoteStrings } from "./promote-strings.ts";
import { AD_TYPES, AGE_BUCKETS, AUDIENCE_SIZES, CONVERSION_EVENTS, GENDERS, PROMOTION_GOALS, minimumDailyBudget, type ConversionEvent } from "./quick-promote.ts";
import { CollectLeads, EMPTY_LEAD_DRAFT, leadFormBody, type LeadDraft } from "~/leads/CollectLeads.tsx";
import type { LeadSetupStrings } from "~/leads/lead-strings.ts";
import { createQuickPromoteStore, ERROR_SLOTS, initialState, type AdvertiserFacts, type ErrorSlot, type PinChoice, type QuickPromoteState, type SlotError } from "./quick-promote-store.ts";

interface AdvertiserView extends AdvertiserFacts {
  business_name: string;
  mayEditBusiness: boolean;
  mayEditBilling: boolean;
}

interface QuickPromoteProps {
  strings: PromoteStrings;
  advertisers: AdvertiserView[];
  advertiserId: string;
  pin: PinChoice | null;
  /** Country choices for the business form: code and name in the page's language. */
  countries: Array<{ code: string; name: string }>;
  /** The optional "Collect leads" step's words. */
  leadStrings: LeadSetupStrings;
}

const INTEREST_SPLIT = /\s*,\s*/;

/** "field: reason; other: reason" (the server's words) → the form's slots, and what has no slot. */
function slotsOf(detail: string | null): { errors: Partial<Record<ErrorSlot, SlotError>>; rest: string[] } {
  const errors: Partial<Record<ErrorSlot, SlotError>> = {};
  const rest: string[] = [];
  for (const line of (detail ?? "").split("; ").filter(Boolean)) {
    const at = line.indexOf(": ");
    const field = at > 0 ? line.slice(0, at).split(".")[0]! : "";
    if ((ERROR_SLOTS as readonly string[]).includes(field)) errors[field as ErrorSlot] = { reason: line.slice(at + 2) };
    else rest.push(line);
  }
  return { errors, rest };
}

function bodyOf(state: QuickPromoteState): Record<string, unknown> {
  return {
    ...(state.pin ? { pinId: state.pin.id } : {}),
    ...(state.productGroup ? { productGroupId: state.productGroup.id } : {}),
    dailyBudget: state.dailyBudget,
    duration: state.isOngoing ? null : state.duration,
    isOngoing: state.isOngoing,
    destinationUrl: state.destinationUrl.trim(),
    adType: state.adType,
    goal: state.goal,
    selectedOCPMTag: state.goal === "WEB_CONVERSION" ? state.selectedOCPMTag : null,
    audience: { isAutoTargeting: state.isAutoTargeting, ages: state.ages, genders: state.genders, interests: state.interests, locales: state.locale, size: state.targetingOptions.size },
    name: state.name.trim(),
    isFdb: state.isFdb,
  };
}

/** The server's problems with the lead form ("leadForm.headline: reason"), by its own field, and every other line. */
function leadProblemsOf(detail: string | null): { lead: Record<string, string>; rest: string | null } {
  const lead: Record<string, string> = {};
  const rest: string[] = [];
  for (const line of (detail ?? "").split("; ").filter(Boolean)) {
    const match = /^leadForm\.?([A-Za-z]*)(?:\.[0-9]+)?: (.*)$/.exec(line);
    if (match) lead[match[1] || "headline"] = match[2]!;
    else rest.push(line);
  }
  return { lead, rest: rest.length > 0 ? rest.join("; ") : null };
}

export default function QuickPromote({ strings, advertisers, advertiserId, pin, countries, leadStrings }: QuickPromoteProps) {
  const id = useId();
  const w = (path: string) => word(strings.promote, path);
  const startAdvertiser = advertisers.find((item) => item.id === advertiserId) ?? advertisers[0] ?? null;
  const store = useMemo(() => {
    const made = createQuickPromoteStore(initialState(startAdvertiser));
    if (pin) made.dispatch({ type: "selectPin", pin });
    return made;
    // The store is made once per island; later props do not remake it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const state = useStore(store.$state);
  const { dispatch } = store;
  const [advertiserList, setAdvertiserList] = useState(advertisers);
  const advertiser = advertiserList.find((item) => item.id === state.advertiserId) ?? null;
  const [chosen, setChosen] = useState<PinChoice[]>(pin ? [pin] : []);
  const [modalBusy, setModalBusy] = useState(false);
  const [modalProblem, setModalProblem] = useState<string | null>(null);
  const requestId = useRef<string | null>(null);
  const [leadDraft, setLeadDraft] = useState<LeadDraft>(EMPTY_LEAD_DRAFT);
  const [leadProblems, setLeadProblems] = useState<Record<string, string>>({});

  /** A slot's words: a rule's key ("campaigns:validation.duration", "builder:validation.linkScheme") in the page's language, or the server's own words. */
  const explain = (error: SlotError | undefined) => {
    if (!error) return "";
    const key = /^[a-z]+:[A-Za-z.]+$/.test(error.reason) ? error.reason.slice(error.reason.lastIndexOf(".") + 1) : null;
    return fill((key && strings.validation[key]) || error.reason, { ...(error.values ?? {}), currency: advertiser?.currency ?? "" });
  };
  const fieldId = (field: string) => `${id}-${field}`;
  const errorId = (field: string) => `${id}-${field}-error`;
  const invalid = (field: ErrorSlot) => (state.errors[field] ? { "aria-invalid": true as const, "aria-describedby": errorId(field) } : {});

  function slot(field: ErrorSlot): ReactNode {
    const error = state.errors[field];
    return error ? (
      <p className="hub-error" id={errorId(field)}>
        {explain(error)}
      </p>
    ) : null;
  }

  function replaceAdvertiser(next: AdvertiserView) {
    setAdvertiserList((list) => list.map((item) => (item.id === next.id ? next : item)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    dispatch({ type: "submit" });
    setLeadProblems({});
    const now = store.$state.get();
    if (!now.isFormOnSubmitting || !now.advertiserId) return;
    // One id for this promotion until it is made: a resubmission after a lost answer makes nothing twice.
    requestId.current ??= crypto.randomUUID();
    try {
      const made = await call<{ campaign_id: string }>(`/v3/ad_accounts/${now.advertiserId}/quick_promote/`, { method: "POST", body: { json: { ...bodyOf(now), leadForm: now.pin ? leadFormBody(leadDraft) : null } }, headers: { [CLIENT_REQUEST_HEADER]: requestId.current } });
      requestId.current = null;
      dispatch({ type: "submitted", campaignId: made.campaign_id });
    } catch (error) {
      if (error instanceof ApiCallError && error.httpStatus === 409 && typeof error.extraData?.["missing"] === "string") {
        const missing = error.extraData["missing"];
        if (advertiser) replaceAdvertiser({ ...advertiser, gdprAccepted: missing !== "gdpr" && advertiser.gdprAccepted, hasBusinessAddress: missing !== "businessAddress" && advertiser.hasBusinessAddress, hasValidBillingProfile: missing !== "billingProfile" && advertiser.hasValidBillingProfile });
        dispatch({ type: "refused", errors: {}, serverError: null });
        dispatch({ type: "openModal", modal: missing === "gdpr" ? "gdpr" : missing === "businessAddress" ? "business" : "billing" });
        return;
      }
      if (error instanceof ApiCallError && error.httpStatus === 400) {
        const lead = leadProblemsOf(error.detail);
        setLeadProblems(lead.lead);
        const { errors, rest } = slotsOf(lead.rest);
        if (rest.length === 0 && Object.keys(errors).length === 0 && Object.keys(lead.lead).length > 0) {
          dispatch({ type: "refused", errors, serverError: null });
          return;
        }
        dispatch({ type: "refused", errors, serverError: rest.length > 0 || Object.keys(errors).length === 0 ? [error.message, ...rest].join(" — ") : null });
        return;
      }
      dispatch({ type: "refused", errors: {}, serverError: error instanceof ApiCallError && error.code !== null ? error.message : w("failed") });
    }
  }

  /** A modal's own call: the advertiser's facts come back, and the flow goes on. */
  async function modalCall(path: string, method: "POST" | "PUT", body: Record<string, unknown>, then: "gdprAccepted" | "billingSaved" | "addressSaved") {
    if (!advertiser) return;
    setModalBusy(true);
    setModalProblem(null);
    try {
      const facts = await call<AdvertiserView>(`/v3/ad_accounts/${advertiser.id}/quick_promote/${path}/`, { method, body: { json: body } });
      replaceAdvertiser({ ...advertiser, gdprAccepted: facts.gdprAccepted, hasBusinessAddress: facts.hasBusinessAddress, hasValidBillingProfile: facts.hasValidBillingProfile });
      dispatch({ type: then });
    } catch (error) {
      setModalProblem(error instanceof ApiCallError && error.code !== null ? [error.message, error.detail].filter(Boolean).join(" — ") : w("failed"));
    } finally {
      setModalBusy(false);
    }
  }

  function formValues(event: FormEvent<HTMLFormElement>): Record<string, string> {
    event.preventDefault();
    return Object.fromEntries([...new FormData(event.currentTarget).entries()].map(([key, value]) => [key, String(value)]));
  }

  const close = () => {
    setModalProblem(null);
    dispatch({ type: "closeModal" });
  };
  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list.filter((item) => item !== value), value] : list.filter((item) => item !== value));
  const selectedIds = chosen.map((item) => item.id).join(",");
  const minimum = minimumDailyBudget(state.advertiserCountry);

  if (!advertiser) return <p>{w("noAccounts")}</p>;

  return (
    <>
      <form className="hub-form promote-form" onSubmit={(event) => void submit(event)} noValidate aria-busy={state.isFormOnSubmitting || undefined}>
        <div className="hub-field">
          <label htmlFor={fieldId("advertiser")}>{w("advertiser")}</label>
          <select
            id={fieldId("advertiser")}
            value={advertiser.id}
            onChange={(event) => {
              const next = advertiserList.find((item) => item.id === event.currentTarget.value);
              if (next) dispatch({ type: "changeAdvertiser", advertiser: next });
            }}
          >
            {advertiserList.map((item) => (
              <option key={item.id} value={item.id}>
                {item.business_name === item.name ? item.name : `${item.business_name} · ${item.name}`} ({item.currency})
              </option>
            ))}
          </select>
        </div>

        <fieldset className="promote-chosen">
          <legend>{state.productGroup ? w("chosenProductGroup") : w("chosenPin")}</legend>
          {state.pin ? (
            <div className="promote-chosen-item">
              {state.pin.imageUrl && <img src={state.pin.imageUrl} alt={state.pin.title} width={118} />}
              <span>{state.pin.title}</span>
            </div>
          ) : state.productGroup ? (
            <p>{state.productGroup.name}</p>
          ) : (
            <p>{w("nothingChosen")}</p>
          )}
          <button type="button" className="button" onClick={() => dispatch({ type: "openModal", modal: "pinSelection" })}>
            {state.pin || state.productGroup ? w("changePin") : w("choosePin")}
          </button>
        </fieldset>

        <div className="hub-field">
          <label htmlFor={fieldId("name")}>{w("fields.name")}</label>
          <input id={fieldId("name")} maxLength={100} value={state.name} onChange={(event) => dispatch({ type: "setField", field: "name", value: event.currentTarget.value })} {...invalid("name")} />
          {slot("name")}
        </div>

        <div className="hub-field">
          <label htmlFor={fieldId("destinationUrl")}>{w("fields.destinationUrl")}</label>
          <input
            id={fieldId("destinationUrl")}
            type="url"
            inputMode="url"
            dir="ltr"
            maxLength={2048}
            value={state.destinationUrl}
            onChange={(event) => dispatch({ type: "setField", field: "destinationUrl", value: event.currentTarget.value })}
            {...invalid("destinationUrl")}
          />
          {slot("destinationUrl")}
        </div>

        <div className="hub-field">
          <label htmlFor={fieldId("adType")}>{w("fields.adType")}</label>
          <select id={fieldId("adType")} value={state.adType} onChange={(event) => dispatch({ type: "setField", field: "adType", value: event.currentTarget.value as QuickPromoteState["adType"] })} {...invalid("adType")}>
            {AD_TYPES.map((type) => (
              <option key={type} value={type}>
                {w(`adTypes.${type}`)}
              </option>
            ))}
          </select>
          {slot("adType")}
        </div>

        <div className="hub-field">
          <label htmlFor={fieldId("goal")}>{w("fields.goal")}</label>
          <select id={fieldId("goal")} value={state.goal} onChange={(event) => dispatch({ type: "setField", field: "goal", value: event.currentTarget.value as QuickPromoteState["goal"] })}>
            {PROMOTION_GOALS.map((goal) => (
              <option key={goal} value={goal}>
                {w(`goals.${goal}`)}
              </option>
            ))}
          </select>
          {state.goal === "WEB_CONVERSION" && state.selectedOCPMTag && (
            <p>
              {w("tag.chosen")} {w(`conversionEvents.${state.selectedOCPMTag}`)}{" "}
              <button type="button" className="button" onClick={() => dispatch({ type: "openModal", modal: "tag" })}>
                {w("changePin")}
              </button>
            </p>
          )}
        </div>

        <div className="hub-field">
          <label htmlFor={fieldId("dailyBudget")}>{fill(w("fields.dailyBudget"), { currency: advertiser.currency })}</label>
          <input
            id={fieldId("dailyBudget")}
            type="number"
            inputMode="decimal"
            min={minimum}
            max={1_000_000}
            step="any"
            value={Number.isFinite(state.dailyBudget) ? String(state.dailyBudget) : ""}
            onChange={(event) => dispatch({ type: "setField", field: "dailyBudget", value: event.currentTarget.value === "" ? Number.NaN : Number(event.currentTarget.value) })}
            {...invalid("dailyBudget")}
          />
          <p className="promote-hint">{fill(w("fields.dailyBudgetHint"), { minimum, currency: advertiser.currency })}</p>
          {slot("dailyBudget")}
        </div>

        <div className="hub-field">
          <label className="hub-check">
            <input type="checkbox" checked={state.isOngoing} onChange={(event) => dispatch({ type: "setField", field: "isOngoing", value: event.currentTarget.checked })} />
            {w("fields.isOngoing")}
          </label>
          {!state.isOngoing && (
            <>
              <label htmlFor={fieldId("duration")}>{w("fields.duration")}</label>
              <input
                id={fieldId("duration")}
                type="number"
                inputMode="numeric"
                min={1}
                max={365}
                step={1}
                value={state.duration === null ? "" : String(state.duration)}
                onChange={(event) => dispatch({ type: "setField", field: "duration", value: event.currentTarget.value === "" ? null : Number(event.currentTarget.value) })}
                {...invalid("duration")}
              />
            </>
          )}
          {slot("duration")}
        </div>

        <fieldset className="hub-field">
          <legend>{w("fields.audience")}</legend>
          <label className="hub-check">
            <input type="checkbox" checked={state.isAutoTargeting} onChange={(event) => dispatch({ type: "setField", field: "isAutoTargeting", value: event.currentTarget.checked })} />
            {w("fields.isAutoTargeting")}
          </label>
          {!state.isAutoTargeting && (
            <>
              <fieldset>
                <legend>{w("fields.ages")}</legend>
                {AGE_BUCKETS.map((age) => (
                  <label key={age} className="hub-check">
                    <input type="checkbox" checked={state.ages.includes(age)} onChange={(event) => dispatch({ type: "setField", field: "ages", value: toggle(state.ages, age, event.currentTarget.checked) })} />
                    <span dir="ltr">{age}</span>
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend>{w("fields.genders")}</legend>
                {GENDERS.map((gender) => (
                  <label key={gender} className="hub-check">
                    <input type="checkbox" checked={state.genders.includes(gender)} onChange={(event) => dispatch({ type: "setField", field: "genders", value: toggle(state.genders, gender, event.currentTarget.checked) })} />
                    {w(`genders.${gender}`)}
                  </label>
                ))}
              </fieldset>
              <label htmlFor={fieldId("interests")}>{w("fields.interests")}</label>
              <input
                id={fieldId("interests")}
                maxLength={500}
                defaultValue={state.interests.join(", ")}
                onChange={(event) => dispatch({ type: "setField", field: "interests", value: event.currentTarget.value.split(INTEREST_SPLIT).filter(Boolean).slice(0, 20) })}
              />
            </>
          )}
          <label htmlFor={fieldId("size")}>{w("fields.size")}</label>
          <select id={fieldId("size")} value={state.targetingOptions.size} onChange={(event) => dispatch({ type: "setAudienceSize", size: event.currentTarget.value as QuickPromoteState["targetingOptions"]["size"] })}>
            {AUDIENCE_SIZES.map((size) => (
              <option key={size} value={size}>
                {w(`sizes.${size}`)}
              </option>
            ))}
          </select>
        </fieldset>

        {state.pin && <CollectLeads strings={leadStrings} draft={leadDraft} onChange={setLeadDraft} problems={leadProblems} />}

        <label className="hub-check">
          <input type="checkbox" checked={state.isFdb} onChange={(event) => dispatch({ type: "setField", field: "isFdb", value: event.currentTarget.checked })} />
          {w("fields.isFdb")}
        </label>

        {state.serverError && state.modal !== "error" && (
          <p className="hub-status is-error" role="alert">
            {state.serverError}
          </p>
        )}
        <div className="stepper-actions">
          <button type="submit" className="button primary" disabled={state.isFormOnSubmitting}>
            {state.isFormOnSubmitting ? w("submitting") : w("submit")}
          </button>
          <button type="button" className="button" onClick={() => dispatch({ type: "reset" })}>
            {w("reset")}
          </button>
        </div>
      </form>

      <Dialog open={state.modal === "pinSelection"} onClose={close} className="hub-dialog promote-dialog" title={w("sheet.title")} closeLabel={w("close")}>
        <PickPinSheet
          strings={strings}
          advertiserId={advertiser.id}
          selectedIds={selectedIds}
          onPin={(next) => {
            setChosen((list) => [next, ...list.filter((item) => item.id !== next.id)].slice(0, 10));
            dispatch({ type: "selectPin", pin: next });
          }}
          onProductGroup={(group) => dispatch({ type: "selectProductGroup", productGroup: group })}
        />
      </Dialog>

      <Dialog open={state.modal === "gdpr"} onClose={close} className="hub-dialog" title={w("gdpr.title")} closeLabel={w("close")} busy={modalBusy}>
        <p>{w("gdpr.body")}</p>
        {modalProblem && <p className="hub-error" role="alert">{modalProblem}</p>}
        <div className="stepper-actions">
          <button type="button" className="button primary" disabled={modalBusy} onClick={() => void modalCall("gdpr", "POST", {}, "gdprAccepted")}>
            {w("gdpr.accept")}
          </button>
          <button type="button" className="button" onClick={close}>
            {w("gdpr.decline")}
          </button>
        </div>
      </Dialog>

      <Dialog open={state.modal === "business"} onClose={close} className="hub-dialog" title={w("business.title")} closeLabel={w("close")} busy={modalBusy}>
        <p>{w("business.body")}</p>
        {advertiser.mayEditBusiness ? (
          <form className="promote-modal-form" onSubmit={(event) => void modalCall("business_address", "PUT", formValues(event), "addressSaved")}>
            {(["line1", "line2", "city", "region", "postalCode"] as const).map((field) => (
              <div key={field} className="hub-field">
                <label htmlFor={fieldId(`address-${field}`)}>{w(`business.${field}`)}</label>
                <input id={fieldId(`address-${field}`)} name={field} required={field !== "line2" && field !== "region"} maxLength={field === "postalCode" ? 20 : 100} />
              </div>
            ))}
            <div className="hub-field">
              <label htmlFor={fieldId("address-country")}>{w("business.country")}</label>
              <select id={fieldId("address-country")} name="country" defaultValue={advertiser.country}>
                {countries.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </select>
            </div>
            {modalProblem && <p className="hub-error" role="alert">{modalProblem}</p>}
            <button type="submit" className="button primary" disabled={modalBusy}>
              {w("business.save")}
            </button>
          </form>
        ) : (
          <p>{w("business.askAdmin")}</p>
        )}
      </Dialog>

      <Dialog open={state.modal === "billing"} onClose={close} className="hub-dialog" title={w("billing.title")} closeLabel={w("close")} busy={modalBusy}>
        <p>{w("billing.body")}</p>
        {advertiser.mayEditBilling ? (
          <form className="promote-modal-form" onSubmit={(event) => void modalCall("billing_profile", "PUT", formValues(event), "billingSaved")}>
            <div className="hub-field">
              <label htmlFor={fieldId("billing-name")}>{w("billing.name")}</label>
              <input id={fieldId("billing-name")} name="name" required maxLength={100} defaultValue={advertiser.business_name} />
            </div>
            <div className="hub-field">
              <label htmlFor={fieldId("billing-email")}>{w("billing.email")}</label>
              <input id={fieldId("billing-email")} name="email" type="email" dir="ltr" required maxLength={254} />
            </div>
            {modalProblem && <p className="hub-error" role="alert">{modalProblem}</p>}
            <button type="submit" className="button primary" disabled={modalBusy}>
              {w("billing.save")}
            </button>
          </form>
        ) : (
          <p>{w("billing.askFinance")}</p>
        )}
      </Dialog>

      <Dialog open={state.modal === "tag"} onClose={close} className="hub-dialog" title={w("tag.title")} closeLabel={w("close")}>
        <p>{w("tag.body")}</p>
        <form
          className="promote-modal-form"
          onSubmit={(event) => {
            const value = formValues(event)["event"] as ConversionEvent | undefined;
            if (value) dispatch({ type: "setField", field: "selectedOCPMTag", value });
            dispatch({ type: "closeModal" });
          }}
        >
          <div className="hub-field">
            <label htmlFor={fieldId("tag-event")}>{w("tag.event")}</label>
            <select id={fieldId("tag-event")} name="event" defaultValue={state.selectedOCPMTag ?? "PAGE_VISIT"}>
              {CONVERSION_EVENTS.map((name) => (
                <option key={name} value={name}>
                  {w(`conversionEvents.${name}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button primary">
            {w("tag.confirm")}
          </button>
        </form>
      </Dialog>

      <Dialog open={state.modal === "success"} onClose={close} className="hub-dialog" title={w("success.title")} closeLabel={w("close")}>
        <p>{fill(w("success.body"), { name: state.name })}</p>
        <div className="stepper-actions">
          <a className="button primary" href={`/advertiser/${advertiser.id}/campaigns/`}>
            {w("success.toCampaigns")}
          </a>
          <button type="button" className="button" onClick={() => dispatch({ type: "reset" })}>
            {w("success.another")}
          </button>
        </div>
      </Dialog>

      <Dialog open={state.modal === "error"} onClose={close} className="hub-dialog" role="alertdialog" title={w("error.title")} closeLabel={w("close")}>
        <p>{state.serverError ?? w("failed")}</p>
        <button type="button" className="button primary" onClick={close}>
          {w("close")}
        </button>
      </Dialog>
    </>
  );
}
