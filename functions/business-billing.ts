// Billing's calls (spec 002 §2 "Billing sections", §7 "billing invoices"; the paths are ours,
// recorded in docs/decisions.md), beside the business calls and answering the same way: a full
// login, then the role table (billing.read / billing.update / billing.spend_read). A stranger
// gets the same 404 for anything of a business, a PDF included.
//   GET    /v3/businesses/{id}/billing/                              the forms' state and each ad account's billing profile
//   PUT    /v3/businesses/{id}/billing/business_information/         {legal_name, line1, line2, city, region, postal_code, country, tax_id}
//   GET    /v3/businesses/{id}/billing/history/                      the latest billing changes
//   GET    /v3/businesses/{id}/billing/tax_documents/                issued amounts and tax by year and currency
//   PUT|DELETE /v3/businesses/{id}/ad_accounts/{adAccountId}/billing_profile/   {contact_name, email, autofill, line1, …}
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/invoices/?tab=PROGRESS|UNPAID|PAID
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/invoices/{invoiceId}/
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/invoices/{invoiceId}.pdf
//   POST   /v3/businesses/{id}/ad_accounts/{adAccountId}/invoices/{invoiceId}/pay/
//   GET|POST /v3/businesses/{id}/ad_accounts/{adAccountId}/promotions/   POST {code}
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/prepaid_spend/
import { Hono, type Context } from "hono";
import { z } from "zod";
import { billingInformationSchema, businessInformationSchema, initialBillingForms, invoicePdfFile, invoiceTab, pdfLocaleFor, promotionCodeSchema } from "~/business/billing.ts";
import {
  applyPromotion,
  billingAccounts,
  billingHistory,
  getInvoice,
  listInvoices,
  listPromotions,
  payInvoice,
  prepaidSpend,
  readBusinessInformation,
  removeBillingInformation,
  saveBillingInformation,
  saveBusinessInformation,
  taxDocuments,
} from "~/business/billing.server.ts";
import { requireAction, requireAssetAction } from "~/business/core.server.ts";
import { renderInvoicePdf } from "~/business/invoice-pdf.server.ts";
import { testProcessor } from "~/business/payment-processor.ts";
import { toLanguageTag } from "~/context/locales.ts";
import { getT } from "~/i18n/i18n.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { badRequest, zodProblems } from "~/domain/errors.ts";
import { businessParam, pathId, reader, writer } from "./business-request.ts";

export const businessBillingRoutes = new Hono<AppEnv>();

const adAccount = (c: Context<AppEnv>) => pathId(c.req.param("adAccountId"), "business:api.adAccountNotFound");
const invoice = (c: Context<AppEnv>) => pathId(c.req.param("invoiceId"), "billing:api.invoiceNotFound");

const BUSINESS = "/businesses/:businessId{[0-9]+}";
const ACCOUNT = `${BUSINESS}/ad_accounts/:adAccountId{[0-9]+}`;

const tabQuery = z.strictObject({ tab: z.enum(["PROGRESS", "UNPAID", "PAID"]).optional() });

businessBillingRoutes.get(`${BUSINESS}/billing/`, async (c) => {
  const userId = reader(c);
  const businessId = businessParam(c);
  const accounts = await billingAccounts(c.env.DB, userId, businessId);
  const information = await readBusinessInformation(c.env.DB, businessId);
  return success(c, { ...initialBillingForms(), businessInformationForm: information, ad_accounts: accounts });
});

businessBillingRoutes.put(`${BUSINESS}/billing/business_information/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  // Who may, before what they sent: a stranger learns nothing from a 400.
  await requireAction(c.env.DB, businessId, userId, "billing.update");
  return success(c, await saveBusinessInformation(c.env.DB, userId, businessId, await readParsed(c, businessInformationSchema)));
});

businessBillingRoutes.get(`${BUSINESS}/billing/history/`, async (c) => success(c, { items: await billingHistory(c.env.DB, reader(c), businessParam(c)) }));

businessBillingRoutes.get(`${BUSINESS}/billing/tax_documents/`, async (c) => success(c, { items: await taxDocuments(c.env.DB, reader(c), businessParam(c)) }));

businessBillingRoutes.put(`${ACCOUNT}/billing_profile/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAssetAction(c.env.DB, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccount(c) });
  return success(c, await saveBillingInformation(c.env.DB, testProcessor, userId, businessId, adAccount(c), await readParsed(c, billingInformationSchema)));
});

businessBillingRoutes.delete(`${ACCOUNT}/billing_profile/`, async (c) => success(c, await removeBillingInformation(c.env.DB, writer(c), businessParam(c), adAccount(c))));

businessBillingRoutes.get(`${ACCOUNT}/invoices/`, async (c) => {
  const userId = reader(c);
  const businessId = businessParam(c);
  await requireAssetAction(c.env.DB, businessId, userId, "billing.read", { type: "AD_ACCOUNT", id: adAccount(c) });
  const input = c.req.query();
  const parsed = tabQuery.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  const tab = invoiceTab(parsed.data.tab);
  return success(c, { tab, items: await listInvoices(c.env.DB, userId, businessId, adAccount(c), tab) });
});

businessBillingRoutes.get(`${ACCOUNT}/invoices/:invoiceId{[0-9]+}/`, async (c) => success(c, await getInvoice(c.env.DB, reader(c), businessParam(c), adAccount(c), invoice(c))));

businessBillingRoutes.get(`${ACCOUNT}/invoices/:file{[0-9]+\\.pdf}`, async (c) => {
  const userId = reader(c);
  const invoiceId = pathId(c.req.param("file").slice(0, -".pdf".length), "billing:api.invoiceNotFound");
  const detail = await getInvoice(c.env.DB, userId, businessParam(c), adAccount(c), invoiceId);
  const locale = pdfLocaleFor(c.var.ctx.locale);
  const t = getT(locale, "billing");
  const bytes = await renderInvoicePdf(detail, (key, values) => t(key, values ?? {}), toLanguageTag(locale));
  // A copy typed as ArrayBuffer-backed, as the Response body wants.
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${invoicePdfFile(detail)}"`,
      // Only the viewer's browser keeps it; an issued invoice never changes, an open one does.
      "Cache-Control": detail.status === "PROGRESS" ? "private, no-store" : "private, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    },
  });
});

businessBillingRoutes.post(`${ACCOUNT}/invoices/:invoiceId{[0-9]+}/pay/`, async (c) => success(c, await payInvoice(c.env.DB, testProcessor, writer(c), businessParam(c), adAccount(c), invoice(c))));

businessBillingRoutes.get(`${ACCOUNT}/promotions/`, async (c) => success(c, { items: await listPromotions(c.env.DB, reader(c), businessParam(c), adAccount(c)) }));

businessBillingRoutes.post(`${ACCOUNT}/promotions/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAssetAction(c.env.DB, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccount(c) });
  const { code } = await readParsed(c, promotionCodeSchema);
  return success(c, await applyPromotion(c.env.DB, userId, businessId, adAccount(c), code));
});

businessBillingRoutes.get(`${ACCOUNT}/prepaid_spend/`, async (c) => success(c, { items: await prepaidSpend(c.env.DB, reader(c), businessParam(c), adAccount(c)) }));
