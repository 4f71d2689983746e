// Billing: each plan has a rate per month, and invoices have a limit on
// their line count.
export const MONTHLY_RATE = { basic: 5, pro: 20 };
export const INVOICE_LINE_LIMIT = 100;

export function invoiceTotal(plan: 'basic' | 'pro', months: number): number {
  return MONTHLY_RATE[plan] * months;
}
