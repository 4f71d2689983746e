import { Currency } from './exchange';

export interface LineItem {
  sku: string;
  description: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Invoice {
  orderId: string;
  currency: Currency;
  lines: LineItem[];
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
}

export interface CustomerAccount {
  id: string;
  creditLimitCents: number;
  outstandingBalanceCents: number;
}

/** Tax rate by region, as a fraction. */
const TAX_RATES: Record<string, number> = {
  'US-CA': 0.0725,
  'US-NY': 0.04,
  'GB': 0.2,
  'DE': 0.19,
};

export function taxRateFor(region: string): number {
  return TAX_RATES[region] ?? 0;
}

export function subtotal(lines: LineItem[]): number {
  return lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
}

export function buildInvoice(
  orderId: string,
  lines: LineItem[],
  opts: { region: string; currency: Currency; discountPercent?: number },
): Invoice {
  const subtotalCents = subtotal(lines);
  const discountCents = Math.round(subtotalCents * ((opts.discountPercent ?? 0) / 100));
  const taxable = subtotalCents - discountCents;
  const taxCents = Math.round(taxable * taxRateFor(opts.region));
  return {
    orderId,
    currency: opts.currency,
    lines,
    subtotalCents,
    discountCents,
    taxCents,
    totalCents: taxable + taxCents,
  };
}

export function availableCredit(account: CustomerAccount): number {
  return Math.max(0, account.creditLimitCents - account.outstandingBalanceCents);
}

/** An order can be placed on account only if it fits within the remaining credit limit. */
export function canChargeToAccount(account: CustomerAccount, invoice: Invoice): boolean {
  return invoice.totalCents <= availableCredit(account);
}
