import type { CacheTtl } from '../caching/apply-cache-control.ts';
import type { Preset } from '../presets/preset.ts';
import { EMPTY_USAGE } from '../usage/canonical-usage.ts';
import { multiplyDecimal, parseDecimal, type DecimalAmount } from '../usage/decimal-amount.ts';
import { estimateUsageCost, type CostRoute } from '../usage/estimate-usage-cost.ts';
import { lookupListPrice } from '../usage/price-table.ts';

/** USD per million tokens, exact. */
export interface LedgerPrices {
  input: DecimalAmount;
  output: DecimalAmount;
  /** Null when the route has no cache-read price. */
  cacheRead: DecimalAmount | null;
  /**
   * A cache write for the TTL asked: the table's 5-minute price (1.25× input on Anthropic) or,
   * for 1 hour, 2× input. Null when the provider bills no separate write (OpenAI, Google): the
   * tokens then cost plain input.
   */
  cacheWrite: DecimalAmount | null;
  /** `snapshot`: Hermes' billing route; `list`: the app's list prices; `included`: a subscription. */
  source: 'snapshot' | 'list' | 'included';
}

export interface ResolvedLedgerPrices {
  /** Null when the model has no price: every dollar figure is then unknown, never $0. */
  prices: LedgerPrices | null;
  notes: string[];
}

const ZERO: DecimalAmount = { coefficient: 0n, exponent: 0 };
const TWO: DecimalAmount = { coefficient: 2n, exponent: 0 };

/**
 * The prices a ledger uses for one model, from the one built-in price table: Hermes' billing
 * route first (`estimateUsageCost`, as the Usage panel prices turns), then the app's list prices
 * for models Hermes' snapshot does not carry (`lookupListPrice`, meant for projections like this
 * one). A subscription route costs nothing.
 *
 * @example resolveLedgerPrices('claude-sonnet-4-6', { provider: 'anthropic' }, 'hermes-2026-07', '5m')
 */
export function resolveLedgerPrices(
  model: string,
  route: CostRoute,
  preset: Preset,
  ttl: CacheTtl,
): ResolvedLedgerPrices {
  const estimate = estimateUsageCost(model, { ...EMPTY_USAGE, requestCount: 0 }, route, preset);
  if (estimate.status === 'included') {
    return {
      prices: { input: ZERO, output: ZERO, cacheRead: ZERO, cacheWrite: ZERO, source: 'included' },
      notes: [`${model}: included in the subscription`],
    };
  }
  if (estimate.status === 'estimated' && estimate.prices) {
    const prices = fromStrings(estimate.prices, ttl, 'snapshot');
    if (prices) return { prices, notes: [] };
  }
  const listed = lookupListPrice(model);
  const prices = listed ? fromStrings(listed, ttl, 'list') : null;
  if (prices) return { prices, notes: [`${model}: list price (not in Hermes' price snapshot)`] };
  return { prices: null, notes: [`${model}: price unknown`] };
}

interface PriceStrings {
  input: string | null;
  output: string | null;
  cacheRead: string | null;
  cacheWrite: string | null;
}

function fromStrings(
  strings: PriceStrings,
  ttl: CacheTtl,
  source: LedgerPrices['source'],
): LedgerPrices | null {
  const input = parseNullable(strings.input);
  const output = parseNullable(strings.output);
  if (input === null || output === null) return null;
  const fiveMinuteWrite = parseNullable(strings.cacheWrite);
  return {
    input,
    output,
    cacheRead: parseNullable(strings.cacheRead),
    // A provider that bills writes bills a 1-hour write at 2× input (peers.md §0 item 5).
    cacheWrite:
      fiveMinuteWrite === null ? null : ttl === '1h' ? multiplyDecimal(input, TWO) : fiveMinuteWrite,
    source,
  };
}

const parseNullable = (text: string | null): DecimalAmount | null =>
  text === null ? null : parseDecimal(text);
