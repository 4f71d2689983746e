export type Currency = 'USD' | 'EUR' | 'GBP' | 'JPY';

export interface ExchangeRateTable {
  base: Currency;
  rates: Record<Currency, number>;
  fetchedAt: number;
}

const RATE_CACHE_TTL_MS = 15 * 60 * 1000;

// Fallback table used until the first successful fetch.
const FALLBACK_RATES: ExchangeRateTable = {
  base: 'USD',
  rates: { USD: 1, EUR: 0.92, GBP: 0.79, JPY: 148.5 },
  fetchedAt: 0,
};

let cached: ExchangeRateTable = FALLBACK_RATES;

export type RateSource = () => Promise<ExchangeRateTable>;

export async function getExchangeRates(source?: RateSource, now = Date.now()): Promise<ExchangeRateTable> {
  if (source && now - cached.fetchedAt > RATE_CACHE_TTL_MS) {
    try {
      cached = await source();
    } catch (err) {
      console.warn('[exchange] could not refresh rates, using cached table', err);
    }
  }
  return cached;
}

export function exchangeRate(table: ExchangeRateTable, from: Currency, to: Currency): number {
  if (from === to) {
    return 1;
  }
  const fromRate = table.rates[from];
  const toRate = table.rates[to];
  if (!fromRate || !toRate) {
    throw new Error(`no exchange rate for ${from} -> ${to}`);
  }
  return toRate / fromRate;
}

/** Converts an amount in minor units (cents), rounding half away from zero. */
export function convertAmount(table: ExchangeRateTable, amountCents: number, from: Currency, to: Currency): number {
  const converted = amountCents * exchangeRate(table, from, to);
  return Math.sign(converted) * Math.round(Math.abs(converted));
}

export function formatMoney(amountCents: number, currency: Currency): string {
  const digits = currency === 'JPY' ? 0 : 2;
  const value = currency === 'JPY' ? amountCents : amountCents / 100;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits }).format(value);
}
