import { countMessageTokens } from '#core/tokens/count-message-tokens.ts';
import type { TokenEncoding } from '#core/tokens/estimator.ts';
import type { TokenCounter } from '#core/tokens/token-counter.ts';
import type { Message } from '#core/transcript/message.ts';
import { createGptTokenizerCounter } from '#worker/gpt-tokenizer-counter.ts';
import { createReferenceTiktokenCounter } from '#worker/tiktoken-counter.ts';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome, BenchRow, BenchSkip } from './bench-result.ts';
import { describeRuns, formatMs, timeRuns } from './bench-stats.ts';
import { benchTranscript } from './bench-transcripts.ts';

const ENCODING: TokenEncoding = 'o200k_base';

interface Encoder {
  label: string;
  runWeight: 'heavy' | 'reference';
  create: (encoding: TokenEncoding) => Promise<TokenCounter>;
}

const ENCODERS: readonly Encoder[] = [
  { label: 'gpt-tokenizer (the app)', runWeight: 'heavy', create: createGptTokenizerCounter },
  { label: 'js-tiktoken (reference)', runWeight: 'reference', create: createReferenceTiktokenCounter },
];

const countAll = (messages: readonly Message[], counter: TokenCounter): number => {
  let total = 0;
  for (const message of messages) total += countMessageTokens(message, counter);
  return total;
};

/**
 * Exact o200k counts of every message in Node, no caches: the tokenizer's own throughput. The
 * 1M tokens/s target is the browser worker's; Node figures have none.
 */
export async function measureExactCountNode(context: BenchContext): Promise<BenchOutcome> {
  const rows: BenchRow[] = [];
  const skips: BenchSkip[] = [];
  const totalsBySize = new Map<number, number>();
  for (const encoder of ENCODERS) {
    const loadStarted = performance.now();
    const counter = await encoder.create(ENCODING);
    const loadMs = performance.now() - loadStarted;
    for (const size of context.options.sizes) {
      const runs = context.options.runsFor(encoder.runWeight, size);
      const name = `exact count ${ENCODING}, ${encoder.label} (Node)`;
      if (runs === 0) {
        skips.push({
          name,
          size,
          unit: 'tokens/s',
          target: null,
          reason: 'reference too slow at this size (~0.1-0.3M tokens/s)',
        });
        continue;
      }
      context.log(`exact count in Node, ${encoder.label}, ${size} messages`);
      const messages = benchTranscript(size).messages;
      const { stats, last: tokens } = await timeRuns(
        runs,
        () => countAll(messages, counter),
        size <= 200 ? 1 : 0,
      );
      const known = totalsBySize.get(size);
      if (known !== undefined && known !== tokens) {
        throw new Error(
          `${encoder.label} counted ${tokens} tokens at ${size} messages, the other encoder ${known}`,
        );
      }
      totalsBySize.set(size, tokens);
      rows.push({
        name,
        size,
        value: tokens / (stats.medianMs / 1000),
        unit: 'tokens/s',
        target: null,
        met: null,
        note: `${describeRuns(stats)}; ${(tokens / 1e6).toFixed(2)}M tokens in ${formatMs(stats.medianMs)}${known !== undefined ? ', counts identical' : ''}; encoder load ${formatMs(loadMs)}`,
      });
    }
  }
  return { rows, skips };
}
