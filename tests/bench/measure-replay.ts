import { DEFAULT_STRATEGY } from '#core/strategies/strategy-registry.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';
import type { ReplayOptions } from '#cli/replay/parse-replay-options.ts';
import { runReplay } from '#cli/replay/run-replay.ts';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome, BenchRow } from './bench-result.ts';
import { describeRuns, formatMs, median, timeRuns } from './bench-stats.ts';
import { benchTranscript } from './bench-transcripts.ts';

const replayOptions = (file: string): ReplayOptions => ({
  file,
  strategy: DEFAULT_STRATEGY,
  strategyOptions: {},
  model: null,
  listStrategies: false,
  contextLength: null,
  threshold: null,
  targetRatio: null,
  protectLastN: null,
  protectFirstN: null,
  focus: null,
  estimator: 'rough',
  format: null,
  json: true,
  importOnly: false,
  // The figure is import + plan + compress: compress even when the trigger would not fire.
  force: true,
});

/**
 * What `npm run replay -- FILE --json` does after reading the file: import the OpenAI chat JSON,
 * plan, and compress with the offline summariser (the app's no-key path). No target.
 */
export async function measureReplay(context: BenchContext): Promise<BenchOutcome> {
  const rows: BenchRow[] = [];
  for (const size of context.options.sizes) {
    context.log(`replay with the offline summariser, ${size} messages`);
    const json = toOpenAiChatJson(benchTranscript(size));
    const importSamples: number[] = [];
    const compressSamples: number[] = [];
    const { stats, last } = await timeRuns(
      context.options.runsFor('heavy', size),
      async (run) => {
        const importStarted = performance.now();
        const imported = importTranscript(json);
        const importMs = performance.now() - importStarted;
        if (!imported.ok)
          throw new Error(`the generated transcript did not import: ${imported.error.message}`);
        const outcome = await runReplay(
          imported.value,
          replayOptions(`generated-${size}.json`),
          importMs,
          () => 0,
        );
        if (run >= 0) {
          importSamples.push(importMs);
          compressSamples.push(outcome.report.timings.compressMs);
        }
        return outcome.report;
      },
      size <= 2_000 ? 1 : 0,
    );
    rows.push({
      name: `replay: import + plan + compress, offline summariser, ${DEFAULT_STRATEGY.name} (Node)`,
      size,
      value: stats.medianMs,
      unit: 'ms',
      target: null,
      met: null,
      note: `${describeRuns(stats)}; import ${formatMs(median(importSamples))}, compress ${formatMs(median(compressSamples))}; ${(json.length / 2 ** 20).toFixed(1)} MiB JSON → ${last.messagesAfter} messages`,
    });
  }
  return { rows, skips: [] };
}
