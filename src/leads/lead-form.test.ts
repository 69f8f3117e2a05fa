import { describe, expect, it } from "vitest";
import { autofill, autofillFlags, checkSubmission, dedupeKey, leadFormSchema, privacyPolicyProblem, type AutofillViewer } from "./lead-form.ts";

const ALL = ["fullName", "email", "phoneNumber", "zipCode"] as const;

const viewer = (name: boolean, email: boolean): AutofillViewer => ({
  full_name: "Mina Okafor",
  email: "mina@example.com",
  is_name_eligible_for_lead_form_autofill: name,
  is_email_eligible_for_lead_form_autofill: email,
});

describe("lead form autofill (spec 000: only for signed-in people flagged eligible for each field)", () => {
  it("fills the name only for a person eligible for the name only", () => {
    expect(autofill(viewer(true, false), ALL)).toEqual({ fullName: "Mina Okafor" });
  });

  it("fills the email only for a person eligible for the email only", () => {
    expect(autofill(viewer(false, true), ALL)).toEqual({ email: "mina@example.com" });
  });

  it("fills both for a person eligible for both", () => {
    expect(autofill(viewer(true, true), ALL)).toEqual({ fullName: "Mina Okafor", email: "mina@example.com" });
  });

  it("fills nothing for a person eligible for neither", () => {
    expect(autofill(viewer(false, false), ALL)).toEqual({});
  });

  it("fills nothing for a signed-out visitor", () => {
    expect(autofill(null, ALL)).toEqual({});
  });

  it("fills only the fields the form asks for, and never the phone or the zip", () => {
    expect(autofill(viewer(true, true), ["email", "phoneNumber", "zipCode"])).toEqual({ email: "mina@example.com" });
    expect(autofill(viewer(true, true), ["phoneNumber", "zipCode"])).toEqual({});
  });

  it("flags a full login's name when it has one and its email once verified; a limited login neither", () => {
    expect(autofillFlags({ full_name: "Mina", email_verified: 1 }, true)).toEqual({ is_name_eligible_for_lead_form_autofill: true, is_email_eligible_for_lead_form_autofill: true });
    expect(autofillFlags({ full_name: "  ", email_verified: 0 }, true)).toEqual({ is_name_eligible_for_lead_form_autofill: false, is_email_eligible_for_lead_form_autofill: false });
    expect(autofillFlags({ full_name: "Mina", email_verified: 1 }, false)).toEqual({ is_name_eligible_for_lead_form_autofill: false, is_email_eligible_for_lead_form_autofill: false });
  });
});

describe("a submission against its form", () => {
  it("keeps the asked fields trimmed, the email lowercased", () => {
    expect(checkSubmission(ALL, { fullName: "  Mina Okafor ", email: " Mina@Example.COM", phoneNumber: "+1 (555) 010-2030", zipCode: "94107-1234", consent: true })).toEqual({
      ok: true,
      values: { fullName: "Mina Okafor", email: "mina@example.com", phoneNumber: "+1 (555) 010-2030", zipCode: "94107-1234" },
    });
  });

  it("names each bad field: a missing name, an email without a domain, a phone of letters, a zip too long", () => {
    expect(checkSubmission(ALL, { fullName: " ", email: "mina@", phoneNumber: "call me", zipCode: "12345678901", consent: true })).toEqual({
      ok: false,
      problems: [
        { field: "fullName", reason: "leads:validation.required" },
        { field: "email", reason: "leads:validation.email" },
        { field: "phoneNumber", reason: "leads:validation.phone", values: { minimum: 7, maximum: 15 } },
        { field: "zipCode", reason: "leads:validation.zip", values: { minimum: 3, maximum: 10 } },
      ],
    });
  });

  it("counts a phone's digits: 6 is too few, 7 and 15 are fine, 16 too many", () => {
    const phone = (phoneNumber: string) => checkSubmission(["phoneNumber"], { phoneNumber, consent: true }).ok;
    expect([phone("555 010"), phone("555-0102"), phone("+44 20 7946 0958"), phone("123456789012345"), phone("1234567890123456")]).toEqual([false, true, true, true, false]);
  });

  it("bounds the zip: 2 characters is too short, 3 and 10 fit, a lone dash or a symbol does not", () => {
    const zip = (zipCode: string) => checkSubmission(["zipCode"], { zipCode, consent: true }).ok;
    expect([zip("12"), zip("101"), zip("SW1A 1AA"), zip("94107-1234"), zip("-----"), zip("941#7")]).toEqual([false, true, true, true, false, false]);
  });

  it("refuses a field the form does not ask for, and a submission without consent", () => {
    expect(checkSubmission(["email"], { email: "mina@example.com", zipCode: "94107", consent: false })).toEqual({
      ok: false,
      problems: [
        { field: "zipCode", reason: "leads:validation.notAsked" },
        { field: "consent", reason: "leads:validation.consent" },
      ],
    });
  });
});

describe("the advertiser's form", () => {
  it("asks for at least one field, each once, kept in the form's order", () => {
    expect(leadFormSchema.parse({ headline: "Win a lamp", privacyPolicyUrl: "https://shop.example/privacy", fields: ["zipCode", "email"] })).toEqual({
      headline: "Win a lamp",
      privacyPolicyUrl: "https://shop.example/privacy",
      fields: ["email", "zipCode"],
      callToAction: "SIGN_UP",
    });
    expect(leadFormSchema.safeParse({ headline: "Win a lamp", privacyPolicyUrl: "https://shop.example/privacy", fields: [] }).success).toBe(false);
    expect(leadFormSchema.safeParse({ headline: "Win a lamp", privacyPolicyUrl: "https://shop.example/privacy", fields: ["email", "email"] }).success).toBe(false);
    expect(leadFormSchema.safeParse({ headline: "x".repeat(101), privacyPolicyUrl: "https://shop.example/privacy", fields: ["email"] }).success).toBe(false);
  });

  it("holds the privacy policy to the link rule: http or https, not a blocked host", () => {
    expect(privacyPolicyProblem("https://shop.example/privacy", new Set())).toBeNull();
    expect(privacyPolicyProblem("javascript:alert(1)", new Set())).toBe("leads:validation.linkScheme");
    expect(privacyPolicyProblem("https://spam.example/privacy", new Set(["spam.example"]))).toBe("leads:validation.linkBlocked");
  });
});

describe("one submission per person", () => {
  it("names a signed-in person by account, a visitor by email, else phone digits, else address", () => {
    expect(dedupeKey(7, { email: "a@b.co" }, "203.0.113.9")).toBe("u7");
    expect(dedupeKey(null, { email: "a@b.co", phoneNumber: "555 0102 030" }, "203.0.113.9")).toBe("e:a@b.co");
    expect(dedupeKey(null, { phoneNumber: "+1 555-0102" }, "203.0.113.9")).toBe("p:15550102");
    expect(dedupeKey(null, { fullName: "Mina" }, "203.0.113.9")).toBe("a:203.0.113.9");
  });
});
