/**
 * What every strategy's prepared value carries besides its own data: the planner's per-message
 * rough sizes under the strategy's preset. `compactConversation` finds them there, so a
 * compaction after a plan measures no message twice without its callers passing anything more.
 */
import type { Preset } from '../presets/preset.ts';
import type { RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import type { PrepareContext } from './strategy.ts';

export interface SizedPrepared {
  readonly sizeCache: RoughSizeCache;
}

/** The size cache a prepared value carries, if it carries one. */
export function preparedSizeCache(prepared: unknown): RoughSizeCache | undefined {
  if (prepared === null || typeof prepared !== 'object' || !('sizeCache' in prepared)) return undefined;
  const cache = (prepared as { sizeCache: unknown }).sizeCache;
  return cache instanceof WeakMap ? (cache as RoughSizeCache) : undefined;
}

/** A strategy's prepared data with the planner's size cache for `preset` (a new one when planned alone). */
export const withSharedSizes = <T extends object>(
  prepared: T,
  preset: Preset,
  shared?: PrepareContext,
): T & SizedPrepared => ({ ...prepared, sizeCache: shared?.sizeCache(preset) ?? new WeakMap() });
