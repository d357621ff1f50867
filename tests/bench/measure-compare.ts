import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import type { AssessmentRoute } from '#core/lab/assess-compaction.ts';
import type { Preset } from '#core/presets/preset.ts';
import { messageTokenLookup, roughMessageCounting } from '#core/simulation/message-counting.ts';
import { simulateSession } from '#core/simulation/simulate-session.ts';
import { createMessageCaches } from '#core/lab/message-caches.ts';
import { HOST_PRESET } from '#core/strategies/strategy-kit.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import type { RoughSizeCache } from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { BenchContext } from './bench-context.ts';
import { openAiJsonFile, PROJECT_ROOT } from './bench-files.ts';
import type { BenchOutcome, BenchRow } from './bench-result.ts';
import { describeRuns, timeRuns } from './bench-stats.ts';
import { benchTranscript } from './bench-transcripts.ts';

const TARGET_SIZE = 10_000;
const TARGET_MS = 10_000;
/** Above this the simulation of every strategy takes tens of seconds a run: not part of the bench. */
const LARGEST_SIZE = 10_000;
const ROUTE: AssessmentRoute = {
  model: 'claude-sonnet-4-6',
  provider: 'anthropic',
  baseUrl: '',
  apiMode: 'anthropic_messages',
  cacheTtl: '5m',
  promptCaching: true,
};

/**
 * ROUND2 §2: the session simulation of every registered strategy on one transcript (200K window,
 * offline summariser, each compaction assessed), < 10 s at 10,000 messages; and, at that size,
 * `npm run compare -- FILE --json` end to end (import, counting, per strategy the compaction at
 * the current point and the simulation), in a process of its own.
 */
export async function measureCompare(context: BenchContext): Promise<BenchOutcome> {
  const rows: BenchRow[] = [];
  const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 200_000 };
  for (const size of context.options.sizes.filter((candidate) => candidate <= LARGEST_SIZE)) {
    context.log(`session simulation, ${STRATEGIES.length} strategies, ${size} messages`);
    const { messages, metadata } = benchTranscript(size);
    const tools = metadata.tools ?? [];
    const hostSizes: RoughSizeCache = new WeakMap();
    const counting = roughMessageCounting(messages, tools, HOST_PRESET, hostSizes);
    const tokensOf = messageTokenLookup(messages, counting);
    const compactions: Record<string, number> = {};
    const { stats } = await timeRuns(
      context.options.runsFor('heavy', size),
      async () => {
        // Fresh caches per run, as for a newly opened document (the host's sizes are the
        // counting's), shared by the strategies' simulations as a comparison shares them.
        const caches = createMessageCaches(new Map<Preset, RoughSizeCache>([[HOST_PRESET, hostSizes]]));
        for (const strategy of STRATEGIES) {
          const result = await simulateSession({
            strategy,
            messages,
            tools,
            config,
            counting,
            route: ROUTE,
            tokensOf,
            caches,
          });
          if (!result.ok) throw new Error(result.error.message);
          compactions[strategy.name] = result.value.compactions.length;
        }
      },
      size <= 2_000 ? 1 : 0,
    );
    rows.push({
      name: `session simulation, all ${STRATEGIES.length} strategies, offline summariser, 200K window (Node)`,
      size,
      value: stats.medianMs,
      unit: 'ms',
      target: size === TARGET_SIZE ? `< ${TARGET_MS / 1000} s` : null,
      met: size === TARGET_SIZE ? stats.medianMs < TARGET_MS : null,
      note: `${describeRuns(stats)}; compactions ${Object.entries(compactions)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ')}`,
    });
  }

  if (context.options.sizes.includes(TARGET_SIZE)) {
    context.log(`npm run compare -- FILE --json, ${TARGET_SIZE} messages`);
    const file = openAiJsonFile(TARGET_SIZE);
    const tsx = resolve(PROJECT_ROOT, 'node_modules/.bin/tsx');
    let outputBytes = 0;
    const { stats } = await timeRuns(context.options.runsFor('heavy', TARGET_SIZE), () => {
      const output = execFileSync(tsx, [resolve(PROJECT_ROOT, 'src/cli/compare.ts'), file.path, '--json'], {
        cwd: PROJECT_ROOT,
        maxBuffer: 256 * 1024 * 1024,
      });
      outputBytes = output.length;
    });
    rows.push({
      name: 'npm run compare -- FILE --json, every strategy, end to end (Node, own process)',
      size: TARGET_SIZE,
      value: stats.medianMs,
      unit: 'ms',
      target: `< ${TARGET_MS / 1000} s`,
      met: stats.medianMs < TARGET_MS,
      // The CPU time of a child process is not this process's: the wall clock is the figure.
      note: `${describeRuns(stats, false)}; ${(file.bytes / 2 ** 20).toFixed(1)} MiB JSON in, ${(outputBytes / 1024).toFixed(0)} KiB of JSON out`,
    });
  }
  return { rows, skips: [] };
}
