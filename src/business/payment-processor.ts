// Where money would move. Pinloom has no payment processor yet, so billing runs in TEST mode:
// the test processor accepts every billing form as a valid payment method and settles every
// charge at once. A real processor plugs in behind the same interface (docs/decisions.md,
// "Billing: the payment processor"): setUp returns the processor's token for a card entered in
// its hosted form (so card numbers never reach Pinloom), charge creates a payment for an issued
// invoice, and its webhooks call the same markPaid / profile status updates the test processor
// triggers directly here.

interface PaymentMethodSetup {
  mode: "TEST";
  status: "VALID" | "INVALID";
}

interface ChargeResult {
  status: "succeeded" | "failed";
  /** The processor's id of the payment, kept on the invoice. */
  reference: string;
}

export interface PaymentProcessor {
  /** A payment method for an ad account's billing profile. */
  setUp(adAccountId: number): Promise<PaymentMethodSetup>;
  /** Charges an issued invoice's total. */
  charge(invoice: { id: number; totalMicro: number; currency: string }): Promise<ChargeResult>;
}

/** The only processor: TEST mode, every form valid, every charge settled, nothing moved. */
export const testProcessor: PaymentProcessor = {
  setUp: async () => ({ mode: "TEST", status: "VALID" }),
  charge: async (invoice) => ({ status: "succeeded", reference: `test_${invoice.id}` }),
};
