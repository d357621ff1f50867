import { compress, type CompressionResult } from '#core/compression/compress.ts';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import type { Summarizer } from '#core/compression/summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { ALL_PRESETS, type Preset } from '#core/presets/preset.ts';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome, BenchRow } from './bench-result.ts';
import { describeRuns, logLogSlope, timeRuns } from './bench-stats.ts';
import { benchTranscript } from './bench-transcripts.ts';

const TARGET_SIZE = 10_000;
const TARGET_MS = 100;
/** "Growth close to linear": time against size on a log-log scale, 1.0 being linear. */
const MAX_GROWTH_SLOPE = 1.2;
/** Sizes below this are dominated by fixed costs and left out of the growth fit. */
const GROWTH_MIN_SIZE = 2_000;

/** A summariser that answers at once, so the figure is compress()'s own work. */
const STUB_SUMMARIZER: Summarizer = {
  label: 'benchmark stub',
  offline: true,
  summarize: async () => 'The user asked for changes to the API; the agent edited and tested the code.',
};

export function runCompress(
  messages: Parameters<typeof compress>[0],
  preset: Preset,
  summarizer: Summarizer,
): Promise<CompressionResult> {
  return compress(
    messages,
    {
      config: DEFAULT_COMPRESSION_CONFIG,
      preset,
      state: createCompressorState(),
      force: true,
      today: null,
    },
    { summarizer, now: () => 0 },
  );
}

/**
 * A full compress() with the stub summariser: prune, boundaries, serialising the middle into
 * the summary prompt, assembly, tool-pair repair (SPEC §7: < 100 ms at 10,000 messages).
 */
export async function measureCompress(context: BenchContext): Promise<BenchOutcome> {
  const rows: BenchRow[] = [];
  for (const preset of ALL_PRESETS) {
    // Growth is fitted on CPU time: on a loaded machine wall time mixes in waiting for a core.
    const points: { size: number; ms: number; wallMs: number }[] = [];
    for (const size of context.options.sizes) {
      context.log(`compress() ${preset.name}, ${size} messages`);
      const messages = benchTranscript(size).messages;
      const { stats, last } = await timeRuns(
        context.options.runsFor('light', size),
        () => runCompress(messages, preset, STUB_SUMMARIZER),
        size <= TARGET_SIZE ? 1 : 0,
      );
      points.push({ size, ms: stats.medianCpuMs, wallMs: stats.medianMs });
      const outcome = last.skipped
        ? `skipped: ${last.skipped}`
        : `${size} → ${last.messages.length} messages, prompt ${(last.prompt?.length ?? 0).toLocaleString('en-US')} chars`;
      rows.push({
        name: `compress(), stub summariser, ${preset.name} (Node)`,
        size,
        value: stats.medianMs,
        unit: 'ms',
        target: size === TARGET_SIZE ? `< ${TARGET_MS} ms` : null,
        met: size === TARGET_SIZE ? stats.medianMs < TARGET_MS : null,
        note: `${describeRuns(stats)}; ${outcome}`,
      });
    }
    const fitted = points.filter((point) => point.size >= GROWTH_MIN_SIZE);
    if (fitted.length >= 2) {
      const slope = logLogSlope(fitted);
      const wallSlope = logLogSlope(fitted.map((point) => ({ size: point.size, ms: point.wallMs })));
      const perMessage = fitted.map((point) => `${((point.ms / point.size) * 1000).toFixed(1)} µs`);
      rows.push({
        name: `compress() growth with size (CPU time), ${preset.name}`,
        size: null,
        value: Math.round(slope * 100) / 100,
        unit: 'log-log slope',
        target: `≤ ${MAX_GROWTH_SLOPE} (1 = linear)`,
        met: slope <= MAX_GROWTH_SLOPE,
        note: `sizes ${fitted.map((point) => point.size).join(', ')}; CPU per message ${perMessage.join(', ')}; wall-time slope ${wallSlope.toFixed(2)}`,
      });
    }
  }
  return { rows, skips: [] };
}
