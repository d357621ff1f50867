import { hostMatches, hostnameOf } from '../caching/cache-policy.ts';
import type { Preset } from '../presets/preset.ts';
import type { CanonicalUsage } from './canonical-usage.ts';
import {
  addDecimal,
  decimalFromInteger,
  decimalToNumber,
  decimalToString,
  divideDecimal,
  formatDecimalFixed,
  multiplyDecimal,
  parseDecimal,
  ZERO_AMOUNT,
  type DecimalAmount,
} from './decimal-amount.ts';
import { lookupSnapshotPrice, type PriceEntry } from './price-table.ts';

export type BillingMode =
  'official_docs_snapshot' | 'official_models_api' | 'subscription_included' | 'unknown';
export type CostStatus = 'actual' | 'estimated' | 'included' | 'unknown';
export type CostSource = 'official_docs_snapshot' | 'provider_models_api' | 'none';

export interface BillingRoute {
  provider: string;
  model: string;
  baseUrl: string;
  billingMode: BillingMode;
}

/** Prices per million tokens as decimal strings, as Hermes reports them. */
export interface PricesPerMillion {
  input: string | null;
  output: string | null;
  cacheRead: string | null;
  cacheWrite: string | null;
  source: CostSource;
}

export interface CostEstimate {
  /** `str(Decimal)` of the amount, e.g. `'5.2875'`; null when unknown. */
  amountUsd: string | null;
  status: CostStatus;
  source: CostSource;
  /** `~$5.29`, `included` or `n/a`. */
  label: string;
  route: BillingRoute;
  prices: PricesPerMillion | null;
  pricingVersion: string | null;
  notes: string[];
}

export interface CostRoute {
  provider: string;
  baseUrl?: string;
}

/** `pricing_version` of a subscription-included route (both generations). */
export const INCLUDED_ROUTE_PRICING_VERSION = 'included-route';
const ONE_MILLION: DecimalAmount = { coefficient: 1_000_000n, exponent: 0 };

/**
 * Where a model's usage is billed (`resolve_billing_route`, hermes-reference §9). A
 * `vendor/model` id with no provider names its provider when the vendor is anthropic, openai or
 * google; snapshot routes key on the last path segment.
 */
export function resolveBillingRoute(
  model: string,
  provider: string,
  baseUrl: string,
  preset: Preset,
): BillingRoute {
  let providerName = provider.trim().toLowerCase();
  let modelName = model.trim();
  if (providerName === '' && modelName.includes('/')) {
    const slash = modelName.indexOf('/');
    const vendor = modelName.slice(0, slash);
    if (vendor === 'anthropic' || vendor === 'openai' || vendor === 'google') {
      providerName = vendor;
      modelName = modelName.slice(slash + 1);
    }
  }
  const host = hostnameOf(baseUrl);
  const bare = modelName.split('/').pop() ?? '';
  if (providerName === 'openai-codex') {
    return { provider: 'openai-codex', model: modelName, baseUrl, billingMode: 'subscription_included' };
  }
  if (providerName === 'openrouter' || hostMatches(host, 'openrouter.ai')) {
    return { provider: 'openrouter', model: modelName, baseUrl, billingMode: 'official_models_api' };
  }
  if (providerName === 'nous' || hostMatches(host, 'inference-api.nousresearch.com')) {
    return { provider: 'nous', model: modelName, baseUrl, billingMode: 'official_models_api' };
  }
  const snapshotProvider = snapshotProviderFor(providerName, host, preset);
  if (snapshotProvider !== null) {
    return { provider: snapshotProvider, model: bare, baseUrl, billingMode: 'official_docs_snapshot' };
  }
  if (providerName === 'custom' || providerName === 'local' || host === 'localhost' || host === '127.0.0.1') {
    return { provider: providerName || 'custom', model: modelName, baseUrl, billingMode: 'unknown' };
  }
  return { provider: providerName || 'unknown', model: bare, baseUrl, billingMode: 'unknown' };
}

/** Bedrock became a snapshot route in 2026-07; DeepSeek rows exist but no route reaches them. */
function snapshotProviderFor(providerName: string, host: string, preset: Preset): string | null {
  switch (providerName) {
    case 'anthropic':
    case 'minimax':
    case 'minimax-cn':
      return providerName;
    case 'bedrock':
      return preset.usage.pricesBedrock ? 'bedrock' : null;
    case 'openai':
    case 'openai-api':
      return 'openai';
    case 'google':
    case 'gemini':
    case 'vertex':
      return 'google';
    default:
      if (
        hostMatches(host, 'generativelanguage.googleapis.com') ||
        hostMatches(host, 'aiplatform.googleapis.com')
      ) {
        return 'google';
      }
      return null;
  }
}

/**
 * Cost of one usage record (`estimate_usage_cost`, hermes-reference §9), in exact decimal
 * arithmetic so the amount string matches Python's `Decimal`. Only official-docs snapshot prices
 * are known offline; OpenRouter and custom endpoints (priced from a live `/models`) are unknown.
 */
export function estimateUsageCost(
  model: string,
  usage: CanonicalUsage,
  route: CostRoute,
  preset: Preset,
): CostEstimate {
  const billingRoute = resolveBillingRoute(model, route.provider, route.baseUrl ?? '', preset);
  if (billingRoute.billingMode === 'subscription_included') {
    // Usage on a subscription route (ChatGPT Codex OAuth) is never invoiced: Hermes returns
    // Decimal("0") before any price lookup, with the zero-priced `included-route` entry and no
    // notes. (The explanatory "subscription-included" note came after 2026-07.)
    const zero = { input: '0', output: '0', cacheRead: '0', cacheWrite: '0', source: 'none' as const };
    return {
      amountUsd: '0',
      status: 'included',
      source: 'none',
      label: 'included',
      route: billingRoute,
      prices: zero,
      pricingVersion: INCLUDED_ROUTE_PRICING_VERSION,
      notes: [],
    };
  }
  const entry =
    billingRoute.billingMode === 'official_docs_snapshot' ? snapshotEntry(billingRoute, preset) : null;
  if (entry === null) return unknownCost(billingRoute, null, 'none', []);

  const buckets: ReadonlyArray<readonly [tokens: number, price: string | null, note: string | null]> = [
    [usage.inputTokens, entry.input, null],
    [usage.outputTokens, entry.output, null],
    [usage.cacheReadTokens, entry.cacheRead, 'cache-read pricing unavailable for route'],
    [usage.cacheWriteTokens, entry.cacheWrite, 'cache-write pricing unavailable for route'],
  ];
  const prices: PricesPerMillion = {
    input: entry.input,
    output: entry.output,
    cacheRead: entry.cacheRead,
    cacheWrite: entry.cacheWrite,
    source: 'official_docs_snapshot',
  };
  let amount = ZERO_AMOUNT;
  for (const [tokens, price, note] of buckets) {
    const perMillion = price === null ? null : parseDecimal(price);
    if (perMillion === null) {
      if (tokens) return unknownCost(billingRoute, prices, 'official_docs_snapshot', note ? [note] : []);
      continue;
    }
    amount = addDecimal(
      amount,
      divideDecimal(multiplyDecimal(decimalFromInteger(tokens), perMillion), ONE_MILLION),
    );
  }
  const requestFee = entry.request === null ? null : parseDecimal(entry.request);
  if (requestFee !== null && usage.requestCount) {
    amount = addDecimal(amount, multiplyDecimal(decimalFromInteger(usage.requestCount), requestFee));
  }
  return {
    amountUsd: decimalToString(amount),
    status: 'estimated',
    source: 'official_docs_snapshot',
    label: costLabel(amount),
    route: billingRoute,
    prices,
    pricingVersion: entry.pricingVersion,
    notes: [],
  };
}

/** The estimate as a JS number of dollars (0 when unknown), for sums and charts. */
export function costUsdNumber(estimate: CostEstimate): number {
  if (estimate.amountUsd === null) return 0;
  const parsed = parseDecimal(estimate.amountUsd);
  return parsed === null ? 0 : decimalToNumber(parsed);
}

/** Anthropic ids may be written with dots (`claude-opus-4.6`); 2026-07 retries them dashed. */
function snapshotEntry(route: BillingRoute, preset: Preset): PriceEntry | null {
  const model = route.model.toLowerCase();
  const exact = lookupSnapshotPrice(route.provider, model, preset);
  if (exact !== null || !preset.usage.retriesNormalizedModelIds) return exact;
  if (route.provider === 'anthropic') {
    const normalized = model.replace(/^anthropic\//, '').replace(/(\d+)\.(\d+)/g, '$1-$2');
    return normalized === model ? null : lookupSnapshotPrice(route.provider, normalized, preset);
  }
  if (route.provider === 'bedrock') {
    const normalized = model
      .replace(/^(global|us|eu|apac|ap|au|jp|ca|sa|me|af)\./, '')
      .replace(/(\d+)\.(\d+)/g, '$1-$2')
      .replace(/:\d+$/, '')
      .replace(/-v\d+$/, '')
      .replace(/-\d{8}$/, '');
    return normalized === model ? null : lookupSnapshotPrice(route.provider, normalized, preset);
  }
  return null;
}

const costLabel = (amount: DecimalAmount): string => `~$${formatDecimalFixed(amount, 2)}`;

function unknownCost(
  route: BillingRoute,
  prices: PricesPerMillion | null,
  source: CostSource,
  notes: string[],
): CostEstimate {
  return {
    amountUsd: null,
    status: 'unknown',
    source,
    label: 'n/a',
    route,
    prices,
    pricingVersion: null,
    notes,
  };
}
