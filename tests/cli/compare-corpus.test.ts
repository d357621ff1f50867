import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparisonReport } from '#core/comparison/comparison-report.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import { sniffTextEncoding } from '#core/import/sniff-text-encoding.ts';
import { STRATEGY_NAMES } from '#core/strategies/strategy-registry.ts';
import { parseCompareOptions } from '#cli/compare/parse-compare-options.ts';
import { runCompare } from '#cli/compare/run-compare.ts';

/** The shared corpus of real transcripts from other tools. */
const corpusDir = resolve(import.meta.dirname, '../../../shared/corpus/transcripts');
const manifest = JSON.parse(readFileSync(resolve(corpusDir, 'MANIFEST.json'), 'utf8')) as { path: string }[];

/**
 * What `npm run compare -- FILE --json` computes after reading the file, for every corpus file,
 * in the default 200K window and in a 4,096-token one where most triggers fire at every turn.
 * (`compare.test.ts` runs the command itself; spawning it 72 times would only add start-up time.)
 */
describe('compare on the shared corpus', () => {
  it('covers all 36 corpus files', () => {
    expect(manifest).toHaveLength(36);
  });

  for (const contextLength of [200_000, 4096]) {
    it.each(manifest.map((entry) => entry.path))(
      `compares every strategy on %s (${contextLength})`,
      async (path) => {
        const bytes = readFileSync(resolve(corpusDir, path));
        const imported = importTranscript(new TextDecoder(sniffTextEncoding(bytes)).decode(bytes));
        if (!imported.ok) throw new Error(imported.error.message);
        const options = parseCompareOptions([path, '--context-length', String(contextLength), '--json']);
        if (!options.ok) throw new Error(options.error);
        const compared = await runCompare(imported.value, options.value);
        if (!compared.ok) throw new Error(compared.error.message);
        const report = comparisonReport(compared.value, path);
        const messageCount = imported.value.transcript.messages.length;
        expect(report.strategies.map((entry) => entry.name)).toEqual(STRATEGY_NAMES);
        for (const entry of report.strategies) {
          expect(entry.fidelity.score).toBeGreaterThanOrEqual(0);
          expect(entry.fidelity.score).toBeLessThanOrEqual(1);
          for (const fact of entry.fidelity.lost) expect(fact.messageIndex).toBeLessThan(messageCount);
          // A compaction never grows the context (compactConversation refuses that).
          if (entry.skipped === null) expect(entry.tokensAfter).toBeLessThan(entry.tokensBefore);
          else expect(entry.tokensAfter).toBe(entry.tokensBefore);
          const simulation = entry.simulation!;
          expect(simulation.compactions).toBe(simulation.points.length);
          expect(simulation.inputTokensBilled).toBeGreaterThanOrEqual(simulation.peakTokens);
          expect(
            simulation.inputTokens.uncached +
              simulation.inputTokens.cacheRead +
              simulation.inputTokens.cacheWrite,
          ).toBe(simulation.inputTokensBilled);
        }
        expect(JSON.parse(JSON.stringify(report))).toEqual(report);
      },
    );
  }
});
