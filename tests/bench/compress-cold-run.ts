// One cold compaction, in a process of its own (run by measure-compress.ts): read the bench
// session from its JSON file as the replay CLI does (`importTranscript` on the file's text), then
// time the first compaction this process ever runs, as the replay CLI does once. Reading the
// file matters: the generator builds its texts by concatenation, and the first scan of such a
// string flattens it (about 20 ms for the 22.8 MB of the 10,000-message session), a cost no
// parsed transcript (the CLI's, the worker's) ever has.
//   node --import tsx tests/bench/compress-cold-run.ts STRATEGY SIZE after-plan|from-scratch
// `after-plan`: the planner plans first (as `npm run replay` does), only the compaction is timed.
// `from-scratch` (Hermes only): compress() with nothing measured before, all of it timed.
// Prints one JSON line: {ms, cpuMs, pageFaults, outcome} (pageFaults: pages of new memory touched).
import { findStrategy } from '#core/strategies/strategy-registry.ts';
import { compactionAfterPlan, compressFromScratch, describeCompaction } from './bench-compaction.ts';
import { readFileSync } from 'node:fs';
import { importTranscript } from '#core/import/import-transcript.ts';
import { openAiJsonFile } from './bench-files.ts';

const [name = '', sizeText = '', mode = 'after-plan'] = process.argv.slice(2);
const strategy = findStrategy(name);
const size = Number(sizeText);
if (!strategy || !Number.isInteger(size) || (mode !== 'after-plan' && mode !== 'from-scratch')) {
  console.error('usage: compress-cold-run.ts STRATEGY SIZE after-plan|from-scratch');
  process.exit(2);
}

const pageFaults = (): number => process.resourceUsage().minorPageFault;
const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const imported = importTranscript(readFileSync(openAiJsonFile(size).path, 'utf8'));
if (!imported.ok) {
  console.error(`the bench session of ${size} messages did not import: ${imported.error.message}`);
  process.exit(1);
}
const transcript = imported.value.transcript;
if (mode === 'after-plan') {
  const compact = compactionAfterPlan(strategy, transcript);
  const startedFaults = pageFaults();
  const startedCpu = cpuMs();
  const started = performance.now();
  const outcome = await compact();
  const ms = performance.now() - started;
  console.log(
    JSON.stringify({
      ms,
      cpuMs: cpuMs() - startedCpu,
      pageFaults: pageFaults() - startedFaults,
      outcome: describeCompaction(size, outcome),
    }),
  );
} else {
  const startedFaults = pageFaults();
  const startedCpu = cpuMs();
  const started = performance.now();
  const result = await compressFromScratch(transcript.messages, strategy.preset);
  const ms = performance.now() - started;
  const outcome = result.skipped
    ? `skipped: ${result.skipped}`
    : `${size} → ${result.messages.length} messages`;
  console.log(
    JSON.stringify({ ms, cpuMs: cpuMs() - startedCpu, pageFaults: pageFaults() - startedFaults, outcome }),
  );
}
