import type { ApiMode } from '../caching/cache-policy.ts';
import type { Preset } from '../presets/preset.ts';
import { EMPTY_USAGE, type CanonicalUsage } from './canonical-usage.ts';

export interface UsageRoute {
  provider: string;
  apiMode: ApiMode | (string & {});
}

/**
 * Provider usage JSON → canonical buckets (`normalize_usage`, hermes-reference §9).
 *
 * - Anthropic wire (or provider `anthropic`): input is already uncached; nothing is subtracted.
 * - Codex Responses: `input_tokens` includes the cached part, which is subtracted.
 * - Chat Completions: `prompt_tokens` includes the cached part; cache reads fall back to the
 *   top-level Anthropic-style field and (2026-07) DeepSeek's `prompt_cache_hit_tokens`.
 * Every value is read like Python's `int(v or 0)`: numeric strings count, anything else is 0.
 */
export function normalizeUsage(usage: unknown, route: UsageRoute, preset: Preset): CanonicalUsage {
  if (!isTruthyUsage(usage)) return { ...EMPTY_USAGE };
  const provider = route.provider.trim().toLowerCase();
  const apiMode = route.apiMode;

  let inputTokens: number;
  let outputTokens: number;
  let cacheReadTokens: number;
  let cacheWriteTokens: number;
  if (apiMode === 'anthropic_messages' || provider === 'anthropic') {
    inputTokens = field(usage, 'input_tokens');
    outputTokens = field(usage, 'output_tokens');
    cacheReadTokens = field(usage, 'cache_read_input_tokens');
    cacheWriteTokens = field(usage, 'cache_creation_input_tokens');
  } else if (apiMode === 'codex_responses') {
    const total = field(usage, 'input_tokens');
    outputTokens = field(usage, 'output_tokens');
    cacheReadTokens = field(usage, 'input_tokens_details', 'cached_tokens');
    cacheWriteTokens = field(usage, 'input_tokens_details', 'cache_creation_tokens');
    inputTokens = Math.max(0, total - cacheReadTokens - cacheWriteTokens);
  } else {
    const total = field(usage, 'prompt_tokens');
    outputTokens = field(usage, 'completion_tokens');
    cacheReadTokens =
      field(usage, 'prompt_tokens_details', 'cached_tokens') || field(usage, 'cache_read_input_tokens');
    if (preset.usage.readsPromptCacheHitTokens) cacheReadTokens ||= field(usage, 'prompt_cache_hit_tokens');
    cacheWriteTokens =
      field(usage, 'prompt_tokens_details', 'cache_write_tokens') ||
      field(usage, 'cache_creation_input_tokens');
    inputTokens = Math.max(0, total - cacheReadTokens - cacheWriteTokens);
  }

  let reasoningTokens = field(usage, 'output_tokens_details', 'reasoning_tokens');
  if (preset.usage.readsChatReasoningTokens) {
    reasoningTokens ||= field(usage, 'completion_tokens_details', 'reasoning_tokens');
  }
  return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens, requestCount: 1 };
}

/** Python truthiness of the usage object: null, {}, [], 0 and '' mean "no usage". */
function isTruthyUsage(usage: unknown): boolean {
  if (usage === null || usage === undefined || usage === false || usage === 0 || usage === '') return false;
  if (Array.isArray(usage)) return usage.length > 0;
  if (typeof usage === 'object') return Object.keys(usage).length > 0;
  return true;
}

function field(source: unknown, ...path: string[]): number {
  let current: unknown = source;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return 0;
    current = (current as Record<string, unknown>)[key];
  }
  return pythonInt(current);
}

/** `int(v or 0)` with a failed conversion treated as 0. */
export function pythonInt(value: unknown): number {
  if (value === true) return 1;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value === 'string') {
    const match = /^\s*([+-]?\d+(?:_\d+)*)\s*$/.exec(value);
    return match ? Number(match[1]!.replaceAll('_', '')) : 0;
  }
  return 0;
}
