// One cold compaction, in a process of its own (run by measure-compress.ts): generate the bench
// session, then time the first compaction this process ever runs, as the replay CLI does once.
//   node --import tsx tests/bench/compress-cold-run.ts STRATEGY SIZE after-plan|from-scratch
// `after-plan`: the planner plans first (as `npm run replay` does), only the compaction is timed.
// `from-scratch` (Hermes only): compress() with nothing measured before, all of it timed.
// Prints one JSON line: {ms, cpuMs, outcome}.
import { findStrategy } from '#core/strategies/strategy-registry.ts';
import { compactionAfterPlan, compressFromScratch, describeCompaction } from './bench-compaction.ts';
import { benchTranscript } from './bench-transcripts.ts';

const [name = '', sizeText = '', mode = 'after-plan'] = process.argv.slice(2);
const strategy = findStrategy(name);
const size = Number(sizeText);
if (!strategy || !Number.isInteger(size) || (mode !== 'after-plan' && mode !== 'from-scratch')) {
  console.error('usage: compress-cold-run.ts STRATEGY SIZE after-plan|from-scratch');
  process.exit(2);
}

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const transcript = benchTranscript(size);
if (mode === 'after-plan') {
  const compact = compactionAfterPlan(strategy, transcript);
  const startedCpu = cpuMs();
  const started = performance.now();
  const outcome = await compact();
  const ms = performance.now() - started;
  console.log(
    JSON.stringify({ ms, cpuMs: cpuMs() - startedCpu, outcome: describeCompaction(size, outcome) }),
  );
} else {
  const startedCpu = cpuMs();
  const started = performance.now();
  const result = await compressFromScratch(transcript.messages, strategy.preset);
  const ms = performance.now() - started;
  const outcome = result.skipped
    ? `skipped: ${result.skipped}`
    : `${size} → ${result.messages.length} messages`;
  console.log(JSON.stringify({ ms, cpuMs: cpuMs() - startedCpu, outcome }));
}
