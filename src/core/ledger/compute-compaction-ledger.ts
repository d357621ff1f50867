import type { CacheTtl } from '../caching/apply-cache-control.ts';
import type { Preset } from '../presets/preset.ts';
import type { CanonicalUsage } from '../usage/canonical-usage.ts';
import {
  addDecimal,
  compareDecimal,
  decimalFromInteger,
  decimalToNumber,
  divideDecimal,
  multiplyDecimal,
  ZERO_AMOUNT,
  type DecimalAmount,
} from '../usage/decimal-amount.ts';
import type { CostRoute } from '../usage/estimate-usage-cost.ts';
import type { CompactionCacheFigures } from './compaction-cache-figures.ts';
import { resolveLedgerPrices, type LedgerPrices } from './resolve-ledger-prices.ts';

export interface CompactionLedgerInput {
  /** The conversation's model: it prices the later turns and the cache rewrite. */
  model: string;
  route: CostRoute;
  preset: Preset;
  /** The summariser call's usage; null when the strategy made none (plain truncation). */
  summaryUsage: CanonicalUsage | null;
  /** The summariser's model and route when they are not the conversation's (an auxiliary model). */
  summaryModel?: string;
  summaryRoute?: CostRoute;
  cache: CompactionCacheFigures;
  /** Lifetime of the cache entries written: a write costs 1.25× input for 5m, 2× for 1h (Anthropic). */
  cacheTtl: CacheTtl;
}

/**
 * What one compaction cost and what it saves (ROUND2 §5). Every dollar figure is null when a
 * price it needs is unknown ("price unknown" in `notes`), never 0.
 */
export interface CompactionLedger {
  /** Prompt tokens of the summariser call (uncached input, cache reads and writes). */
  summaryInputTokens: number;
  summaryOutputTokens: number;
  summaryUsd: number | null;
  /** Tokens the next request writes to the cache again because the compaction changed the prefix. */
  cacheRewriteTokens: number;
  /** That write, at the cache-write price for the TTL (or plain input where writes are not billed apart). */
  cacheRewriteUsd: number | null;
  /** Context tokens each later request no longer sends: tokens before − tokens after. */
  savedTokensPerTurn: number;
  /** What each later request saves, with caching (see `computeCompactionLedger`). */
  savedUsdPerTurn: number | null;
  /**
   * What the first request after the compaction saves: one turn's saving plus the rewritten
   * tokens, which that request writes (paid in `cacheRewriteUsd`) instead of reading.
   */
  firstTurnSavedUsd: number | null;
  /** `summaryUsd + cacheRewriteUsd`: what has to be earned back. */
  costUsd: number | null;
  /** The first later turn (1 = the next request) at which the savings add up to `costUsd`; null when never or unknown. */
  breakEvenTurn: number | null;
  /** Whether every dollar figure is known. */
  priced: boolean;
  notes: string[];
}

/**
 * The cache-and-cost ledger of one compaction, live (figures from the last response's usage,
 * `cacheFiguresFromUsage`) or replayed (figures from the cache simulator,
 * `simulateCompactionCache`), priced with the built-in table (`resolveLedgerPrices`), in exact
 * decimal arithmetic.
 *
 * How caching changes the saving: with B tokens before, A after, C of B cached, P of A still
 * cached after the compaction and W rewritten, a later request without the compaction would have
 * read C tokens from the cache and sent B − C as plain input; with it, once the rewrite is done,
 * it reads P + W and sends A − P − W. So
 *
 *   saved per turn = (C − P − W) × cache-read price + ((B − C) − (A − P − W)) × input price,
 *
 * which is (B − A) × the cache-read price when everything was cached (the removed tokens would
 * mostly have been cache reads at 0.1× input) and (B − A) × the input price without caching. The
 * first request after the compaction writes W (counted in the rewrite) instead of reading it, so
 * it saves W × the cache-read price more. The break-even turn is the first n with
 * first-turn saving + (n − 1) × saved per turn ≥ summary + rewrite. Later growth of the
 * conversation is the same with or without the compaction and cancels out; a cache entry that
 * expires between turns is not modelled.
 *
 * @example
 * computeCompactionLedger({
 *   model: 'claude-sonnet-4-6', route: { provider: 'anthropic' }, preset: HERMES_2026_07,
 *   summaryUsage, cache: cacheFiguresFromUsage({ lastUsage, before, after, countTokens }), cacheTtl: '5m',
 * }).breakEvenTurn // 16
 */
export function computeCompactionLedger(input: CompactionLedgerInput): CompactionLedger {
  const { cache, cacheTtl, summaryUsage } = input;
  const conversation = resolveLedgerPrices(input.model, input.route, input.preset, cacheTtl);
  const summaryModel = input.summaryModel ?? input.model;
  const summariser =
    summaryUsage === null || (summaryModel === input.model && input.summaryRoute === undefined)
      ? conversation
      : resolveLedgerPrices(summaryModel, input.summaryRoute ?? input.route, input.preset, cacheTtl);
  const notes = [...new Set([...conversation.notes, ...summariser.notes])];

  const before = Math.max(0, cache.tokensBefore);
  const after = Math.max(0, cache.tokensAfter);
  const cachedBefore = clamp(cache.cachedTokensBefore, before);
  const cachedAfter = clamp(cache.cachedTokensAfter, after);
  const rewrite = clamp(cache.rewriteTokens, after - cachedAfter);
  const ledgerTokens = {
    summaryInputTokens: summaryUsage
      ? summaryUsage.inputTokens + summaryUsage.cacheReadTokens + summaryUsage.cacheWriteTokens
      : 0,
    summaryOutputTokens: summaryUsage?.outputTokens ?? 0,
    cacheRewriteTokens: rewrite,
    savedTokensPerTurn: before - after,
  };
  if (before < after) notes.push('the compaction made the context larger');

  const prices = conversation.prices;
  const summaryAmount =
    summaryUsage === null
      ? ZERO_AMOUNT
      : summariser.prices
        ? usageAmount(summaryUsage, summariser.prices)
        : null;
  const amounts = prices
    ? turnAmounts(prices, { before, after, cachedBefore, cachedAfter, rewrite }, notes)
    : null;
  if (summaryAmount === null || amounts === null) {
    return {
      ...ledgerTokens,
      summaryUsd: summaryAmount === null ? null : usd(summaryAmount),
      cacheRewriteUsd: amounts ? usd(amounts.rewrite) : null,
      savedUsdPerTurn: amounts ? usd(amounts.savedPerTurn) : null,
      firstTurnSavedUsd: amounts ? usd(amounts.firstTurnSaved) : null,
      costUsd: null,
      breakEvenTurn: null,
      priced: false,
      notes,
    };
  }
  const cost = addDecimal(summaryAmount, amounts.rewrite);
  return {
    ...ledgerTokens,
    summaryUsd: usd(summaryAmount),
    cacheRewriteUsd: usd(amounts.rewrite),
    savedUsdPerTurn: usd(amounts.savedPerTurn),
    firstTurnSavedUsd: usd(amounts.firstTurnSaved),
    costUsd: usd(cost),
    breakEvenTurn: breakEvenTurn(cost, amounts.firstTurnSaved, amounts.savedPerTurn),
    priced: true,
    notes,
  };
}

interface TurnTokens {
  before: number;
  after: number;
  cachedBefore: number;
  cachedAfter: number;
  rewrite: number;
}

/** Amounts in token × USD-per-million (divided by a million only for display). */
interface TurnAmounts {
  rewrite: DecimalAmount;
  savedPerTurn: DecimalAmount;
  firstTurnSaved: DecimalAmount;
}

function turnAmounts(prices: LedgerPrices, tokens: TurnTokens, notes: string[]): TurnAmounts | null {
  const { before, after, cachedBefore, cachedAfter, rewrite } = tokens;
  const caching = cachedBefore > 0 || cachedAfter > 0 || rewrite > 0;
  if (caching && prices.cacheRead === null) {
    notes.push('cache-read price unknown');
    return null;
  }
  const read = prices.cacheRead ?? prices.input;
  if (caching && prices.cacheWrite === null) notes.push('cache writes billed as plain input');
  const write = prices.cacheWrite ?? prices.input;
  const cost = (count: number, price: DecimalAmount): DecimalAmount =>
    multiplyDecimal(decimalFromInteger(count), price);
  const baseline = addDecimal(cost(cachedBefore, read), cost(before - cachedBefore, prices.input));
  const later = addDecimal(
    cost(cachedAfter + rewrite, read),
    cost(after - cachedAfter - rewrite, prices.input),
  );
  const firstAfter = addDecimal(cost(cachedAfter, read), cost(after - cachedAfter - rewrite, prices.input));
  return {
    rewrite: cost(rewrite, write),
    savedPerTurn: subtract(baseline, later),
    firstTurnSaved: subtract(baseline, firstAfter),
  };
}

/** The summariser call: every bucket of its usage at its own price. */
function usageAmount(usage: CanonicalUsage, prices: LedgerPrices): DecimalAmount | null {
  if (usage.cacheReadTokens > 0 && prices.cacheRead === null) return null;
  const cost = (count: number, price: DecimalAmount): DecimalAmount =>
    multiplyDecimal(decimalFromInteger(count), price);
  return [
    cost(usage.inputTokens, prices.input),
    cost(usage.outputTokens, prices.output),
    cost(usage.cacheReadTokens, prices.cacheRead ?? prices.input),
    cost(usage.cacheWriteTokens, prices.cacheWrite ?? prices.input),
  ].reduce(addDecimal, ZERO_AMOUNT);
}

/** The first turn n ≥ 1 with firstTurnSaved + (n − 1) × savedPerTurn ≥ cost; null when never. */
function breakEvenTurn(
  cost: DecimalAmount,
  firstTurnSaved: DecimalAmount,
  savedPerTurn: DecimalAmount,
): number | null {
  if (compareDecimal(firstTurnSaved, cost) >= 0) return 1;
  if (compareDecimal(savedPerTurn, ZERO_AMOUNT) <= 0) return null;
  const [shortfall, perTurn] = sameExponent(subtract(cost, firstTurnSaved), savedPerTurn);
  const turnsAfterFirst = (shortfall + perTurn - 1n) / perTurn;
  return 1 + Number(turnsAfterFirst);
}

function sameExponent(first: DecimalAmount, second: DecimalAmount): [bigint, bigint] {
  const exponent = Math.min(first.exponent, second.exponent);
  return [
    first.coefficient * 10n ** BigInt(first.exponent - exponent),
    second.coefficient * 10n ** BigInt(second.exponent - exponent),
  ];
}

const subtract = (first: DecimalAmount, second: DecimalAmount): DecimalAmount =>
  addDecimal(first, { coefficient: -second.coefficient, exponent: second.exponent });

const ONE_MILLION: DecimalAmount = { coefficient: 1_000_000n, exponent: 0 };

const usd = (amount: DecimalAmount): number => decimalToNumber(divideDecimal(amount, ONE_MILLION));

const clamp = (value: number, maximum: number): number => Math.min(Math.max(0, value), Math.max(0, maximum));
