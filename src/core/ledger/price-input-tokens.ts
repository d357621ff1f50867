import {
  addDecimal,
  decimalFromInteger,
  decimalToNumber,
  divideDecimal,
  multiplyDecimal,
  ZERO_AMOUNT,
  type DecimalAmount,
} from '../usage/decimal-amount.ts';
import type { LedgerPrices } from './resolve-ledger-prices.ts';

/** Prompt tokens split by how the provider bills them. */
export interface InputTokenBuckets {
  /** Sent and billed at the plain input price. */
  readonly uncached: number;
  /** Read from the prompt cache (0.1× input on Anthropic). */
  readonly cacheRead: number;
  /** Written to the prompt cache (1.25× input for 5m, 2× for 1h on Anthropic). */
  readonly cacheWrite: number;
}

const ONE_MILLION: DecimalAmount = { coefficient: 1_000_000n, exponent: 0 };

/**
 * What prompt tokens cost in USD, each bucket at its own price, in exact decimals. A provider
 * that bills no separate cache write bills it as plain input; a cache read without a known
 * read price (or no prices at all) is unknown: null, never $0.
 *
 * @example priceInputTokens({ uncached: 1000, cacheRead: 9000, cacheWrite: 0 }, prices) // 0.0057 on Sonnet
 */
export function priceInputTokens(buckets: InputTokenBuckets, prices: LedgerPrices | null): number | null {
  if (!prices) return null;
  if (buckets.cacheRead > 0 && prices.cacheRead === null) return null;
  const cost = (count: number, price: DecimalAmount): DecimalAmount =>
    multiplyDecimal(decimalFromInteger(count), price);
  const total = [
    cost(buckets.uncached, prices.input),
    cost(buckets.cacheRead, prices.cacheRead ?? prices.input),
    cost(buckets.cacheWrite, prices.cacheWrite ?? prices.input),
  ].reduce(addDecimal, ZERO_AMOUNT);
  return decimalToNumber(divideDecimal(total, ONE_MILLION));
}
