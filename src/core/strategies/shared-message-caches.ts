/**
 * What every strategy's prepared value carries besides its own data: the planner's
 * per-message caches under the strategy's preset — rough sizes, and each message as the
 * summariser reads it — and the planned list's sizes summed. `compactConversation` finds them
 * there, so a compaction after a plan measures no message twice (and serialises none twice
 * across compactions) without its callers passing anything more.
 */
import type { SummaryTextCache } from '../compression/serialize-for-summary.ts';
import type { Preset } from '../presets/preset.ts';
import type { RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import type { RoughMessagesTotal } from '../tokens/estimate-request-tokens-rough.ts';
import type { PrepareContext } from './strategy.ts';

export interface SharedMessageCaches {
  readonly sizeCache: RoughSizeCache;
  readonly summaryTextCache: SummaryTextCache;
  /** The prepared list's rough sizes summed under a preset, where the caller measures that list. */
  readonly listSizes?: (preset: Preset) => RoughMessagesTotal;
}

const weakMapField = (value: object, key: string): WeakMap<WeakKey, unknown> | undefined => {
  const field = (value as Record<string, unknown>)[key];
  return field instanceof WeakMap ? (field as WeakMap<WeakKey, unknown>) : undefined;
};

/** The caches a prepared value carries, each if it carries it. */
export function preparedCaches(prepared: unknown): Partial<SharedMessageCaches> {
  if (prepared === null || typeof prepared !== 'object') return {};
  const sizeCache = weakMapField(prepared, 'sizeCache') as RoughSizeCache | undefined;
  const summaryTextCache = weakMapField(prepared, 'summaryTextCache') as SummaryTextCache | undefined;
  const listSizes = (prepared as { listSizes?: unknown }).listSizes;
  return {
    ...(sizeCache ? { sizeCache } : {}),
    ...(summaryTextCache ? { summaryTextCache } : {}),
    ...(typeof listSizes === 'function' ? { listSizes: listSizes as SharedMessageCaches['listSizes'] } : {}),
  };
}

/** A strategy's prepared data with the planner's caches for `preset` (new ones when planned alone). */
export const withSharedCaches = <T extends object>(
  prepared: T,
  preset: Preset,
  shared?: PrepareContext,
): T & SharedMessageCaches => ({
  ...prepared,
  sizeCache: shared?.sizeCache(preset) ?? new WeakMap(),
  summaryTextCache: shared?.summaryTextCache(preset) ?? new WeakMap(),
  ...(shared?.listSizes ? { listSizes: shared.listSizes } : {}),
});
