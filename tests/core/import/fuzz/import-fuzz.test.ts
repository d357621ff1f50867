import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportInternalJson } from '#core/export/export-internal-json.ts';
import { exportMarkdown } from '#core/export/export-markdown.ts';
import type { ImportError } from '#core/import/import-error.ts';
import type { ImportResult } from '#core/import/import-result.ts';
import { importTranscript, importTranscriptChunks } from '#core/import/import-transcript.ts';
import { isWithinDepth, MAX_KEPT_VALUE_DEPTH } from '#core/import/is-within-depth.ts';
import { transcriptFormatLabel } from '#core/import/transcript-format-label.ts';
import type { Result } from '#core/shared/result.ts';
import { TRANSCRIPT_FORMATS } from '#core/import/formats/transcript-format-registry.ts';
import { createSeededRandom, type SeededRandom } from './seeded-random.ts';
import { EXPENSIVE_MUTATIONS, MUTATIONS } from './mutate-transcript-text.ts';

/** Enough for every mutation to hit every format many times in the default run. */
const DEFAULT_CASES = 3000;
const CASES = Number(process.env.FUZZ_CASES) || DEFAULT_CASES;
const BASE_SEED = 0x5eed_0000;
/** Share of cases allowed a megabyte mutation (a huge line). */
const EXPENSIVE_SHARE = 0.03;
/** Larger corpus files contribute their first lines only, so one case stays a few milliseconds. */
const CORPUS_SAMPLE_MAX_CHARS = 25_000;
/** Cases per test: the loop is synchronous, so batches keep each test inside its timeout. */
const CASES_PER_TEST = 1000;
const TEST_TIMEOUT_MS = 180_000;

/**
 * Seeds that once failed, kept as regression tests. These kept 10,000-level values verbatim
 * (extra message keys, unknown parts) before the importer capped the depth of kept values.
 */
const REGRESSION_SEEDS: readonly number[] = [1592590445, 1592592179, 1592592524];

const fixturesDir = resolve(import.meta.dirname, '../../../fixtures/import');
const corpusDir = resolve(import.meta.dirname, '../../../../../shared/corpus/transcripts');

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

function loadInputs(): string[] {
  const fixtures = listFiles(fixturesDir).filter((path) => /\/input\.[a-z]+$/.test(path));
  const corpus = listFiles(corpusDir).filter(
    (path) => /\.jsonl?$/.test(path) && !path.endsWith('MANIFEST.json'),
  );
  const samples = corpus.flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    if (text.length <= CORPUS_SAMPLE_MAX_CHARS) return [text];
    if (!path.endsWith('.jsonl')) return [];
    const lines: string[] = [];
    let size = 0;
    for (const line of text.split('\n')) {
      if (lines.length > 0 && size + line.length > CORPUS_SAMPLE_MAX_CHARS) break;
      lines.push(line);
      size += line.length + 1;
    }
    return [lines.join('\n')];
  });
  return [...fixtures.map((path) => readFileSync(path, 'utf8')), ...samples];
}

const inputs = loadInputs();
const errorPrefixes = [...TRANSCRIPT_FORMATS, 'unknown' as const].map(
  (format) => `${transcriptFormatLabel(format)}: `,
);

function pickMutation(random: SeededRandom) {
  const mutation = random.pick(MUTATIONS);
  if (EXPENSIVE_MUTATIONS.has(mutation.name) && !random.chance(EXPENSIVE_SHARE)) {
    return random.pick(MUTATIONS.filter((candidate) => !EXPENSIVE_MUTATIONS.has(candidate.name)));
  }
  return mutation;
}

function randomChunks(text: string, random: SeededRandom): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length;) {
    const size = 1 + random.below(random.chance(0.5) ? 64 : 8192);
    chunks.push(text.slice(start, start + size));
    start += size;
  }
  return chunks;
}

/** What is wrong with a result, or undefined. */
function findProblem(result: Result<ImportResult, ImportError>): string | undefined {
  if (!result.ok) {
    const { error } = result;
    if (error.cause === 'internal') return `internal error: ${error.message}`;
    if (!error.message || !errorPrefixes.some((prefix) => error.message.startsWith(prefix))) {
      return `error message names no format: ${error.message}`;
    }
    return undefined;
  }
  const { transcript, stats, warnings, format } = result.value;
  const { messages, metadata } = transcript;
  if (stats.messages !== messages.length) return 'stats.messages differs from the message count';
  const callIds = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (typeof message !== 'object' || message === null || typeof message.role !== 'string')
      return `message ${index} has no role`;
    for (const call of message.tool_calls ?? []) {
      if (typeof call.id !== 'string' || typeof call.function?.arguments !== 'string')
        return `message ${index} has a malformed call`;
      if (format !== 'internal' && callIds.has(call.id)) return `call id ${call.id} is used twice`;
      callIds.add(call.id);
    }
    if (format !== 'internal' && message.role === 'tool' && !callIds.has(String(message.tool_call_id))) {
      return `tool result ${index} answers no earlier call`;
    }
  }
  const indices = [...metadata.compactionPoints, ...(metadata.segments ?? [])].map(
    (point) => point.messageIndex,
  );
  if (indices.some((index) => !Number.isInteger(index) || index < 0 || index > messages.length)) {
    return 'a compaction point or segment points outside the messages';
  }
  if (warnings.some((warning) => !warning.reason)) return 'a warning has no reason';
  if (warnings.filter((warning) => warning.kind === 'skipped-line').length > stats.skippedLines) {
    return 'more skipped-line warnings than skipped lines';
  }
  // transcript → messages → message adds three levels to what a message may hold.
  if (!isWithinDepth(transcript, MAX_KEPT_VALUE_DEPTH + 3))
    return 'a kept value nests deeper than the importer allows';
  const again = importTranscript(exportInternalJson(transcript), { format: 'internal' });
  if (!again.ok || again.value.transcript.messages.length !== messages.length)
    return 'internal export does not round-trip';
  exportMarkdown(transcript);
  return undefined;
}

function runCase(seed: number): string | undefined {
  const random = createSeededRandom(seed);
  let text = random.pick(inputs);
  const applied: string[] = [];
  for (let count = 1 + random.below(3); count > 0; count -= 1) {
    const mutation = pickMutation(random);
    text = mutation.apply(text, random);
    applied.push(mutation.name);
  }
  const mode = random.below(3);
  const format = random.pick(TRANSCRIPT_FORMATS);
  try {
    const result =
      mode === 0
        ? importTranscript(text)
        : mode === 1
          ? importTranscript(text, { format })
          : importTranscriptChunks(randomChunks(text, random));
    const problem = findProblem(result);
    return (
      problem &&
      `${problem} [mutations: ${applied.join(', ')}; mode ${mode}${mode === 1 ? ` (${format})` : ''}]`
    );
  } catch (error) {
    return `threw ${error instanceof Error ? error.stack : String(error)} [mutations: ${applied.join(', ')}]`;
  }
}

describe('importTranscript fuzzing', () => {
  it('has inputs of every format to mutate', () => {
    expect(inputs.length).toBeGreaterThan(30);
    const formatsWithInputs = new Set(
      listFiles(fixturesDir)
        .filter((path) => /\/input\.[a-z]+$/.test(path))
        .map((path) => path.slice(fixturesDir.length + 1).split('/')[0]),
    );
    for (const format of TRANSCRIPT_FORMATS) expect(formatsWithInputs.has(format), format).toBe(true);
  });

  for (let first = 0; first < CASES; first += CASES_PER_TEST) {
    const last = Math.min(first + CASES_PER_TEST, CASES);
    it(
      `survives mutated inputs ${first}–${last - 1} of ${CASES}`,
      () => {
        const failures: string[] = [];
        for (let index = first; index < last; index += 1) {
          const seed = BASE_SEED + index;
          const problem = runCase(seed);
          if (problem) failures.push(`seed ${seed}: ${problem}`);
        }
        if (failures.length > 0)
          console.log(`Failing fuzz seeds (pin them in REGRESSION_SEEDS):\n${failures.join('\n')}`);
        expect(failures).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  }

  for (const seed of REGRESSION_SEEDS) {
    it(`(regression) seed ${seed}`, () => {
      expect(runCase(seed)).toBeUndefined();
    });
  }
});
