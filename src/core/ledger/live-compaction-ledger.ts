/**
 * The ledger of a compaction in a live chat, priced from what the provider reported: the
 * summariser call's real usage and, when the conversation had a response before the
 * compaction, the cache figures read from that response's usage. Without such a response (a
 * `/compress` before the first answer) the simulated cache figures stand.
 */
import type { CacheTtl } from '../caching/apply-cache-control.ts';
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { addUsage, EMPTY_USAGE, type CanonicalUsage } from '../usage/canonical-usage.ts';
import type { CostRoute } from '../usage/estimate-usage-cost.ts';
import { cacheFiguresFromUsage } from './cache-figures-from-usage.ts';
import type { CompactionCacheFigures } from './compaction-cache-figures.ts';
import { computeCompactionLedger, type CompactionLedger } from './compute-compaction-ledger.ts';

export interface LiveCompactionLedgerInput {
  readonly model: string;
  readonly route: CostRoute;
  readonly preset: Preset;
  /** Usage of every summariser response of this compaction (a retry is a second one). */
  readonly summaryUsages: readonly CanonicalUsage[];
  /** Usage of the last chat response before the compaction; null when there was none. */
  readonly lastUsage: CanonicalUsage | null;
  readonly before: readonly Message[];
  readonly after: readonly Message[];
  readonly countTokens: (message: Message) => number;
  /** The figures a replay would have simulated, used when there is no last usage. */
  readonly simulatedCache: CompactionCacheFigures;
  readonly cacheTtl: CacheTtl;
}

export function liveCompactionLedger(input: LiveCompactionLedgerInput): {
  ledger: CompactionLedger;
  cache: CompactionCacheFigures;
} {
  const summaryUsage =
    input.summaryUsages.length === 0 ? null : input.summaryUsages.reduce(addUsage, EMPTY_USAGE);
  const cache = input.lastUsage
    ? cacheFiguresFromUsage({
        lastUsage: input.lastUsage,
        before: input.before,
        after: input.after,
        countTokens: input.countTokens,
      })
    : input.simulatedCache;
  const ledger = computeCompactionLedger({
    model: input.model,
    route: input.route,
    preset: input.preset,
    summaryUsage,
    cache,
    cacheTtl: input.cacheTtl,
  });
  return { ledger, cache };
}
