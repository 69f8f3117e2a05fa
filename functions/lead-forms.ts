// Lead-gen forms on promoted pins, mounted at /v3 with the {status, code, message, data} envelope
// (paths ours, recorded in docs/decisions.md "Lead-gen forms"):
//   GET  /v3/lead_forms/{adId}/                                  the running form, with the viewer's autofill (signed out: none)
//   POST /v3/lead_forms/{adId}/submissions/                      {fullName?, email?, phoneNumber?, zipCode?, consent} → {id, form_submissions}
//   PUT  /v3/ad_accounts/{id}/ads/{adId}/lead_form/              the advertiser's form {headline, privacyPolicyUrl, fields, callToAction}
//   GET  /v3/ad_accounts/{id}/lead_submissions/?(table state)    what people sent (leads.read)
//   GET  /v3/ad_accounts/{id}/lead_submissions/csv/              the same, every row, as CSV
// Bots get 404 from the public calls: a lead comes from a person. Signed-out visitors may send a
// form (with the consent box ticked, like everyone); one submission per person per form.
import { Hono } from "hono";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import type { AppEnv } from "~/server/context.ts";
import { enforce, type RateRule } from "~/server/rate-limit.server.ts";
import { notFound } from "~/domain/errors.ts";
import { requireAccount } from "~/campaigns/quick-promote.server.ts";
import { autofillFlags, leadFormSchema, leadSubmissionSchema } from "~/leads/lead-form.ts";
import { leadSubmissionsCsv, listLeadSubmissions, openLeadForm, saveLeadForm, submitLead } from "~/leads/lead-forms.server.ts";
import { leadSubmissionQuery } from "~/leads/lead-table.ts";
import { pathId, query, reader, writer } from "./business-request.ts";

export const leadFormRoutes = new Hono<AppEnv>();

/** Submissions per person (signed in) or network address (signed out): a few forms an hour is a person; more is a script. */
const SUBMIT_RULE: RateRule = { name: "lead-submit:viewer", limit: 10, windowMs: 60 * 60_000 };

const FORM = "/lead_forms/:adId{[0-9]+}";
const ACCOUNT = "/ad_accounts/:adAccountId{[0-9]+}";

leadFormRoutes.get(`${FORM}/`, async (c) => {
  const ctx = c.var.ctx;
  if (ctx.isBot) throw notFound("leads:api.formNotFound");
  const adId = pathId(c.req.param("adId"), "leads:api.formNotFound");
  // Autofill is for a full login only (spec 000 §6); anyone else sees empty fields.
  const user = ctx.viewerType === "AUTH" ? ctx.session?.user ?? null : null;
  const viewer = user ? { id: user.id, full_name: user.full_name, email: user.email, ...autofillFlags(user, true) } : null;
  c.header("Cache-Control", "private, no-store");
  return success(c, await openLeadForm(c.env.DB, adId, viewer));
});

leadFormRoutes.post(`${FORM}/submissions/`, async (c) => {
  const ctx = c.var.ctx;
  if (ctx.isBot) throw notFound("leads:api.formNotFound");
  const adId = pathId(c.req.param("adId"), "leads:api.formNotFound");
  const input = await readParsed(c, leadSubmissionSchema);
  const userId = ctx.viewerType === "AUTH" ? ctx.session?.user.id ?? null : null;
  const address = throttleSubject(clientIp(c.req.raw));
  await enforce(c.env.DB, SUBMIT_RULE, userId === null ? `a:${address}` : `u${userId}`);
  return success(c, await submitLead(c.env.DB, { adId, userId, address, locale: ctx.locale, input }));
});

const account = (adAccountId: string | undefined) => pathId(adAccountId, "business:api.adAccountNotFound");

leadFormRoutes.put(`${ACCOUNT}/ads/:adId{[0-9]+}/lead_form/`, async (c) => {
  const userId = writer(c);
  const adAccountId = account(c.req.param("adAccountId"));
  const adId = pathId(c.req.param("adId"), "leads:api.adNotFound");
  // Who may, before what they sent: a stranger learns nothing from a 400.
  await requireAccount(c.env.DB, userId, adAccountId, "campaign.update");
  const form = await readParsed(c, leadFormSchema);
  return success(c, await saveLeadForm(c.env.DB, userId, adAccountId, adId, form));
});

leadFormRoutes.get(`${ACCOUNT}/lead_submissions/`, async (c) => {
  const userId = reader(c);
  const adAccountId = account(c.req.param("adAccountId"));
  return success(c, await listLeadSubmissions(c.env.DB, userId, adAccountId, query(c, leadSubmissionQuery)));
});

leadFormRoutes.get(`${ACCOUNT}/lead_submissions/csv/`, async (c) => {
  const userId = reader(c);
  const adAccountId = account(c.req.param("adAccountId"));
  const csv = await leadSubmissionsCsv(c.env.DB, userId, adAccountId);
  return c.body(csv, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="leads-${adAccountId}.csv"`,
    "Cache-Control": "private, no-store",
  });
});
