import { estimateMessagesTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome } from './bench-result.ts';
import { describeRuns, timeRuns } from './bench-stats.ts';
import { benchTranscript } from './bench-transcripts.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

/** Hermes' rough estimate (len(str(message)) / 4) of the whole transcript, in Node. No target. */
export async function measureRoughEstimate(context: BenchContext): Promise<BenchOutcome> {
  const rows = [];
  for (const size of context.options.sizes) {
    const messages = benchTranscript(size).messages;
    context.log(`rough estimate, ${size} messages`);
    // No cache is passed, so every run measures every message again.
    const { stats, last } = await timeRuns(
      context.options.runsFor('light', size),
      () => estimateMessagesTokensRough(messages, HERMES_2026_07),
      size <= 10_000 ? 1 : 0,
    );
    rows.push({
      name: 'rough estimate, whole transcript (Node)',
      size,
      value: stats.medianMs,
      unit: 'ms',
      target: null,
      met: null,
      note: `${describeRuns(stats)}; ${(last / 1e6).toFixed(2)}M rough tokens`,
    });
  }
  return { rows, skips: [] };
}
