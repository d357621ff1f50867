import type { Preset } from '../presets/preset.ts';

/**
 * Hermes' official-docs price snapshots (`_OFFICIAL_DOCS_PRICING`, hermes-reference §9), USD per
 * million tokens, kept as the decimal strings Hermes writes (`'3.00'`) because the cost vectors
 * print them back verbatim. `cacheWrite` is the 5-minute write price (1.25× input on Anthropic);
 * a 1-hour write costs 2× input (peers.md §0 item 5), see `oneHourCacheWritePerMillion`.
 */
export interface PriceEntry {
  input: string | null;
  output: string | null;
  cacheRead: string | null;
  cacheWrite: string | null;
  /** Per-request fee (models-API routes only; no snapshot row has one). */
  request: string | null;
  pricingVersion: string;
  sourceUrl: string | null;
}

type Row = readonly [input: string, output: string, cacheRead?: string, cacheWrite?: string];

interface Snapshot {
  provider: string;
  version: string;
  url: string | null;
  rows: ReadonlyArray<readonly [models: readonly string[], rates: Row]>;
}

const ANTHROPIC_CACHE_URL = 'https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching';
const ANTHROPIC_PRICING_URL = 'https://platform.claude.com/docs/en/about-claude/pricing';
const OPENAI_URL = 'https://openai.com/api/pricing/';
const DEEPSEEK_URL = 'https://api-docs.deepseek.com/quick_start/pricing';
const GOOGLE_URL = 'https://ai.google.dev/pricing';
const BEDROCK_URL = 'https://aws.amazon.com/bedrock/pricing/';

const OPUS_4: Row = ['15.00', '75.00', '1.50', '18.75'];
const OPUS_4_5: Row = ['5.00', '25.00', '0.50', '6.25'];
const SONNET: Row = ['3.00', '15.00', '0.30', '3.75'];
const HAIKU_3_5: Row = ['0.80', '4.00', '0.08', '1.00'];
const HAIKU_3: Row = ['0.25', '1.25', '0.03', '0.30'];

const OPENAI_ROWS: Snapshot['rows'] = [
  [['gpt-4o'], ['2.50', '10.00', '1.25']],
  [['gpt-4o-mini'], ['0.15', '0.60', '0.075']],
  [['gpt-4.1'], ['2.00', '8.00', '0.50']],
  [['gpt-4.1-mini'], ['0.40', '1.60', '0.10']],
  [['gpt-4.1-nano'], ['0.10', '0.40', '0.025']],
  [['o3'], ['10.00', '40.00', '2.50']],
  [['o3-mini'], ['1.10', '4.40', '0.55']],
];

const BEDROCK_ROWS: Snapshot['rows'] = [
  [['amazon.nova-pro'], ['0.80', '3.20']],
  [['amazon.nova-lite'], ['0.06', '0.24']],
  [['amazon.nova-micro'], ['0.035', '0.14']],
];

/** 2026-04 (`3cb43df`): the first snapshot, dated 2026-03-16. */
const SNAPSHOTS_2026_04: readonly Snapshot[] = [
  {
    provider: 'anthropic',
    version: 'anthropic-prompt-caching-2026-03-16',
    url: ANTHROPIC_CACHE_URL,
    rows: [
      [['claude-opus-4-20250514', 'claude-3-opus-20240229'], OPUS_4],
      [['claude-sonnet-4-20250514', 'claude-3-5-sonnet-20241022'], SONNET],
      [['claude-3-5-haiku-20241022'], HAIKU_3_5],
      [['claude-3-haiku-20240307'], HAIKU_3],
    ],
  },
  { provider: 'openai', version: 'openai-pricing-2026-03-16', url: OPENAI_URL, rows: OPENAI_ROWS },
  {
    provider: 'deepseek',
    version: 'deepseek-pricing-2026-03-16',
    url: DEEPSEEK_URL,
    rows: [
      [['deepseek-chat'], ['0.14', '0.28']],
      [['deepseek-reasoner'], ['0.55', '2.19']],
    ],
  },
  {
    provider: 'google',
    version: 'google-pricing-2026-03-16',
    url: GOOGLE_URL,
    rows: [
      [['gemini-2.5-pro'], ['1.25', '10.00']],
      [['gemini-2.5-flash'], ['0.15', '0.60']],
      [['gemini-2.0-flash'], ['0.10', '0.40']],
    ],
  },
  {
    provider: 'bedrock',
    version: 'bedrock-pricing-2026-03-16',
    url: BEDROCK_URL,
    rows: [
      [['anthropic.claude-opus-4-6'], ['15.00', '75.00']],
      [['anthropic.claude-sonnet-4-6'], ['3.00', '15.00']],
      ...BEDROCK_ROWS,
    ],
  },
];

/** 2026-07 (`9eb7b1a6`): Anthropic re-snapshotted in 2026-05 with the 4.5/4.6 generation. */
const SNAPSHOTS_2026_07: readonly Snapshot[] = [
  {
    provider: 'anthropic',
    version: 'anthropic-pricing-2026-05',
    url: ANTHROPIC_PRICING_URL,
    rows: [
      [['claude-opus-4-7', 'claude-opus-4-6', 'claude-opus-4-6-20250414', 'claude-opus-4-5'], OPUS_4_5],
      [
        [
          'claude-sonnet-4-6',
          'claude-sonnet-4-6-20250414',
          'claude-sonnet-4-5',
          'claude-sonnet-4-20250514',
          'claude-3-5-sonnet-20241022',
        ],
        SONNET,
      ],
      [['claude-haiku-4-5'], ['1.00', '5.00', '0.10', '1.25']],
      [['claude-opus-4-20250514', 'claude-3-opus-20240229'], OPUS_4],
      [['claude-3-5-haiku-20241022'], HAIKU_3_5],
      [['claude-3-haiku-20240307'], HAIKU_3],
    ],
  },
  { provider: 'openai', version: 'openai-pricing-2026-03-16', url: OPENAI_URL, rows: OPENAI_ROWS },
  {
    provider: 'deepseek',
    version: 'deepseek-pricing-2026-03-16',
    url: DEEPSEEK_URL,
    rows: [
      [['deepseek-chat'], ['0.14', '0.28']],
      [['deepseek-reasoner'], ['0.55', '2.19']],
    ],
  },
  {
    provider: 'google',
    version: 'google-pricing-2026-07-07',
    url: GOOGLE_URL,
    rows: [
      [['gemini-2.5-pro'], ['1.25', '10.00', '0.125']],
      [['gemini-2.5-flash'], ['0.15', '0.60', '0.015']],
      [['gemini-2.0-flash'], ['0.10', '0.40', '0.01']],
      [['gemini-3-pro-preview'], ['2.00', '12.00', '0.20']],
      [['gemini-3-flash-preview'], ['0.50', '3.00', '0.05']],
    ],
  },
  {
    provider: 'bedrock',
    version: 'bedrock-pricing-2026-04',
    url: BEDROCK_URL,
    rows: [
      [['anthropic.claude-opus-4-6'], OPUS_4_5],
      [['anthropic.claude-sonnet-4-6', 'anthropic.claude-sonnet-4-5'], SONNET],
      [['anthropic.claude-haiku-4-5'], HAIKU_3_5],
      ...BEDROCK_ROWS,
    ],
  },
  {
    provider: 'minimax',
    version: 'minimax-pricing-2026-04',
    url: null,
    rows: [[['minimax-m2.7'], ['0.30', '1.20']]],
  },
];

function buildTable(snapshots: readonly Snapshot[]): ReadonlyMap<string, PriceEntry> {
  const table = new Map<string, PriceEntry>();
  for (const snapshot of snapshots) {
    for (const [models, [input, output, cacheRead, cacheWrite]] of snapshot.rows) {
      const entry: PriceEntry = {
        input,
        output,
        cacheRead: cacheRead ?? null,
        cacheWrite: cacheWrite ?? null,
        request: null,
        pricingVersion: snapshot.version,
        sourceUrl: snapshot.url,
      };
      for (const model of models) table.set(`${snapshot.provider}\u0000${model}`, entry);
    }
  }
  return table;
}

/** Hermes' price snapshot at 2026-04-24 (the `hermes-2026-04` preset's `prices`). */
export const PRICE_SNAPSHOT_2026_04: ReadonlyMap<string, PriceEntry> = buildTable(SNAPSHOTS_2026_04);
/** Hermes' price snapshot at 2026-07-22 (the `hermes-2026-07` preset's `prices`). */
export const PRICE_SNAPSHOT_2026_07: ReadonlyMap<string, PriceEntry> = buildTable(SNAPSHOTS_2026_07);

/** The snapshot row for `(provider, model)` exactly as keyed (model lowercased by the caller). */
export function lookupSnapshotPrice(provider: string, model: string, preset: Preset): PriceEntry | null {
  return lookupPriceIn(preset.prices, provider, model);
}

const lookupPriceIn = (table: ReadonlyMap<string, PriceEntry>, provider: string, model: string) =>
  table.get(`${provider}\u0000${model}`) ?? null;

/** 1-hour cache writes bill at 2× the input price (Anthropic); null when input is unpriced. */
export function oneHourCacheWritePerMillion(entry: PriceEntry): number | null {
  return entry.input === null ? null : Number(entry.input) * 2;
}

/**
 * List prices for current models Hermes' snapshot does not carry, so the app can project costs
 * for them (not used by `estimateUsageCost`, which reproduces Hermes). Per million tokens;
 * `cacheWrite` null where the provider does not bill writes separately.
 */
const EXTRA_LIST_PRICES: ReadonlyArray<readonly [model: string, rates: Row]> = [
  ['gpt-5', ['1.25', '10.00', '0.125']],
  ['gpt-5-mini', ['0.25', '2.00', '0.025']],
  ['gpt-5-nano', ['0.05', '0.40', '0.005']],
  ['gpt-5.1', ['1.25', '10.00', '0.125']],
  ['o4-mini', ['1.10', '4.40', '0.275']],
  ['o1', ['15.00', '60.00', '7.50']],
  ['claude-opus-4-1', OPUS_4],
  ['claude-3-7-sonnet', SONNET],
  ['gemini-2.5-flash-lite', ['0.10', '0.40', '0.01']],
];

const LIST_PROVIDERS = ['anthropic', 'openai', 'google', 'deepseek'] as const;

/**
 * A best-effort price for a model id in any spelling (`anthropic/claude-sonnet-4.5`,
 * `claude-sonnet-4-5-20250929`): the 2026-07 snapshot first, then the extra list, matching the
 * bare id, its dash-dotted form, and the id without a trailing date.
 */
export function lookupListPrice(modelId: string): PriceEntry | null {
  const bare = (modelId.split('/').pop() ?? '').trim().toLowerCase();
  const dashed = bare.replace(/(\d+)\.(\d+)/g, '$1-$2');
  const undated = dashed.replace(/-\d{8}$/, '');
  for (const candidate of [bare, dashed, undated]) {
    for (const provider of LIST_PROVIDERS) {
      const entry = lookupPriceIn(PRICE_SNAPSHOT_2026_07, provider, candidate);
      if (entry) return entry;
    }
    for (const [model, [input, output, cacheRead, cacheWrite]] of EXTRA_LIST_PRICES) {
      if (model === candidate) {
        return {
          input,
          output,
          cacheRead: cacheRead ?? null,
          cacheWrite: cacheWrite ?? null,
          request: null,
          pricingVersion: 'context-lab-list-prices',
          sourceUrl: null,
        };
      }
    }
  }
  return null;
}
