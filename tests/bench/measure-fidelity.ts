import { extractFacts } from '#core/fidelity/extract-facts.ts';
import type { Fact } from '#core/fidelity/fact.ts';
import { measureFidelity, type FidelityReport } from '#core/fidelity/measure-fidelity.ts';
import type { Message } from '#core/transcript/message.ts';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome, BenchRow } from './bench-result.ts';
import { describeRuns, timeRuns } from './bench-stats.ts';
import { benchTranscript } from './bench-transcripts.ts';

const TARGET_SIZE = 10_000;
const TARGET_MS = 200;
/**
 * Messages kept after the summary: about what Hermes' tail budget (20% of a 150K-token threshold)
 * holds of the generated session, whose messages average some 700 tokens.
 */
const TAIL_MESSAGES = 40;
const STUB_SUMMARY =
  '## Active Task\nThe user asked for changes to the API; the agent edited app/main.py and ran the tests.';

/** The compaction measured: the system prompt kept, everything up to the tail summarised. */
function benchCompaction(messages: readonly Message[]): { middle: number[]; after: Message[] } {
  const tailStart = Math.max(1, messages.length - TAIL_MESSAGES);
  const middle = Array.from({ length: tailStart - 1 }, (_, index) => index + 1);
  const after = [messages[0]!, { role: 'user', content: STUB_SUMMARY }, ...messages.slice(tailStart)];
  return { middle, after };
}

const describeReport = (facts: readonly Fact[], report: FidelityReport): string =>
  `${facts.length.toLocaleString('en-US')} facts, score ${report.score.toFixed(3)}`;

/**
 * Fact extraction and survival (SPEC §7, round 2: 10,000 messages under 200 ms): the facts of
 * everything a compaction summarises, then their survival in the system prompt, a stub summary
 * and the kept tail. A second figure, without a target, is survival when nothing is compacted:
 * the whole transcript is the visible text, the worst case for the survival scan.
 */
export async function measureFidelityFigures(context: BenchContext): Promise<BenchOutcome> {
  const rows: BenchRow[] = [];
  for (const size of context.options.sizes) {
    const messages = benchTranscript(size).messages;
    const { middle, after } = benchCompaction(messages);
    context.log(`fact extraction + survival, ${size} messages`);
    const compacted = await timeRuns(
      context.options.runsFor('light', size),
      () => {
        const facts = extractFacts(messages, middle);
        return { facts, report: measureFidelity(facts, { messages: after }) };
      },
      size <= TARGET_SIZE ? 1 : 0,
    );
    rows.push({
      name: 'fact extraction + survival, middle summarised (Node)',
      size,
      value: compacted.stats.medianMs,
      unit: 'ms',
      target: size === TARGET_SIZE ? `< ${TARGET_MS} ms` : null,
      met: size === TARGET_SIZE ? compacted.stats.medianMs < TARGET_MS : null,
      note: `${describeRuns(compacted.stats)}; ${describeReport(compacted.last.facts, compacted.last.report)}`,
    });

    const { facts } = compacted.last;
    context.log(`survival with nothing compacted, ${size} messages`);
    const kept = await timeRuns(
      context.options.runsFor('light', size),
      () => measureFidelity(facts, { messages }),
      size <= TARGET_SIZE ? 1 : 0,
    );
    rows.push({
      name: 'fact survival, nothing compacted: whole transcript visible (Node)',
      size,
      value: kept.stats.medianMs,
      unit: 'ms',
      target: null,
      met: null,
      note: `${describeRuns(kept.stats)}; ${describeReport(facts, kept.last)}`,
    });
  }
  return { rows, skips: [] };
}
