import { MINIMUM_CACHEABLE_PREFIX_TOKENS } from '../caching/simulate-prompt-cache.ts';
import type { Message } from '../transcript/message.ts';
import { promptTokens, type CanonicalUsage } from '../usage/canonical-usage.ts';
import type { CompactionCacheFigures } from './compaction-cache-figures.ts';

export interface CacheFiguresFromUsageInput {
  /** Usage of the last response before the compaction, as the provider reported it. */
  lastUsage: CanonicalUsage;
  /** The messages that request sent. */
  before: readonly Message[];
  /** The messages after the compaction. */
  after: readonly Message[];
  /** Tokens of one message, counted the same way for both lists. */
  countTokens: (message: Message) => number;
  /** Shortest prefix the provider caches (1,024 tokens for Claude Sonnet/Opus). */
  minimumCacheableTokens?: number;
}

/**
 * The cache figures of a compaction in a live chat, from the last response's real usage:
 *
 * - before: the provider's prompt tokens; everything it read from or wrote to the cache is a
 *   prefix the next request would read (0 when caching was off);
 * - after: the provider's figure minus what the compaction removed, counted on the messages
 *   (counting only the difference keeps the provider's own overhead — tool schemas, message
 *   framing — in both figures);
 * - still cached after: the overhead (tool schemas and framing come first in the prefix) and the
 *   leading messages the compaction left untouched, if that prefix reaches the provider's
 *   minimum and was cached before;
 * - rewritten: the rest of the compacted context, which the next request caches again (the
 *   `system_and_3` layout marks its last message, so everything up to it is written).
 *
 * @example cacheFiguresFromUsage({ lastUsage, before: history, after: compacted, countTokens })
 */
export function cacheFiguresFromUsage(input: CacheFiguresFromUsageInput): CompactionCacheFigures {
  const { lastUsage, before, after, countTokens } = input;
  const minimum = input.minimumCacheableTokens ?? MINIMUM_CACHEABLE_PREFIX_TOKENS;
  const countedBefore = sumTokens(before, countTokens);
  const countedAfter = sumTokens(after, countTokens);
  const tokensBefore = promptTokens(lastUsage);
  const tokensAfter = Math.max(0, tokensBefore - countedBefore + countedAfter);
  const cachedTokensBefore = Math.min(tokensBefore, lastUsage.cacheReadTokens + lastUsage.cacheWriteTokens);
  if (cachedTokensBefore === 0) {
    return {
      tokensBefore,
      tokensAfter,
      cachedTokensBefore,
      cachedTokensAfter: 0,
      rewriteTokens: 0,
      source: 'usage',
    };
  }
  const overhead = Math.max(0, tokensBefore - countedBefore);
  const unchanged = overhead + unchangedPrefixTokens(before, after, countTokens);
  const readable = Math.min(unchanged, cachedTokensBefore, tokensAfter);
  const cachedTokensAfter = readable >= minimum ? readable : 0;
  return {
    tokensBefore,
    tokensAfter,
    cachedTokensBefore,
    cachedTokensAfter,
    rewriteTokens: tokensAfter - cachedTokensAfter,
    source: 'usage',
  };
}

function sumTokens(messages: readonly Message[], countTokens: (message: Message) => number): number {
  let total = 0;
  for (const message of messages) total += countTokens(message);
  return total;
}

/** Tokens of the leading messages both lists share unchanged. */
function unchangedPrefixTokens(
  before: readonly Message[],
  after: readonly Message[],
  countTokens: (message: Message) => number,
): number {
  let tokens = 0;
  for (let index = 0; index < Math.min(before.length, after.length); index++) {
    if (JSON.stringify(before[index]) !== JSON.stringify(after[index])) break;
    tokens += countTokens(before[index]!);
  }
  return tokens;
}
