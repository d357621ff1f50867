import { DEFAULT_COMPRESSION_CONFIG } from '../../core/config/compression-config.ts';
import { compareStrategies } from '../../core/comparison/compare-strategies.ts';
import type { CompareError, Comparison } from '../../core/comparison/comparison.ts';
import type { ImportResult } from '../../core/import/import-result.ts';
import type { AssessmentRoute } from '../../core/lab/assess-compaction.ts';
import { createMessageCaches } from '../../core/lab/message-caches.ts';
import type { Result } from '../../core/shared/result.ts';
import { roughMessageCounting } from '../../core/simulation/message-counting.ts';
import { HOST_PRESET } from '../../core/strategies/strategy-kit.ts';
import type { CompareOptions } from './parse-compare-options.ts';

/** Where the comparison is priced: the chosen model, with Hermes' default 5-minute prompt caching. */
export function compareRoute(options: Pick<CompareOptions, 'model' | 'provider'>): AssessmentRoute {
  return {
    model: options.model,
    provider: options.provider,
    baseUrl: '',
    apiMode: options.provider === 'anthropic' ? 'anthropic_messages' : 'chat_completions',
    cacheTtl: '5m',
    promptCaching: true,
  };
}

/**
 * Compares the chosen strategies on an imported transcript, each at its defaults, in the host's
 * rough counting (the CLI has no tokenizer loaded; the app uses exact counts when it has them).
 */
export function runCompare(
  imported: ImportResult,
  options: CompareOptions,
): Promise<Result<Comparison, CompareError>> {
  const { messages, metadata } = imported.transcript;
  const tools = metadata.tools ?? [];
  const caches = createMessageCaches();
  const hostSizes = caches.sizeCache(HOST_PRESET);
  return compareStrategies({
    messages,
    tools,
    config: {
      ...DEFAULT_COMPRESSION_CONFIG,
      contextLength: options.contextLength ?? DEFAULT_COMPRESSION_CONFIG.contextLength,
    },
    entries: options.strategies.map((strategy) => ({ strategy })),
    counting: roughMessageCounting(messages, tools, HOST_PRESET, hostSizes),
    exact: null,
    route: compareRoute(options),
    caches,
    simulate: options.simulate,
  });
}
