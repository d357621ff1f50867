/**
 * Importer fuzzing with fast-check: real fixture and corpus files, one to three mutations, read
 * by detection, as a forced format or in chunks. Every case must import or fail with an error
 * that names the format; nothing may throw. A failure prints the shrunk case (file name,
 * mutations as plain data, reading) with the `seed` and `path` that replay it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportInternalJson } from '#core/export/export-internal-json.ts';
import { exportMarkdown } from '#core/export/export-markdown.ts';
import type { ImportError } from '#core/import/import-error.ts';
import type { ImportResult } from '#core/import/import-result.ts';
import { importTranscript, importTranscriptChunks } from '#core/import/import-transcript.ts';
import { isWithinDepth, MAX_KEPT_VALUE_DEPTH } from '#core/import/is-within-depth.ts';
import { transcriptFormatLabel } from '#core/import/transcript-format-label.ts';
import type { Result } from '#core/shared/result.ts';
import type { TranscriptFormat } from '#core/transcript/transcript.ts';
import { TRANSCRIPT_FORMATS } from '#core/import/formats/transcript-format-registry.ts';
import { assertNever } from '#core/shared/assert-never.ts';
import { readPropertyRegressionText } from '#tests/helpers/read-property-regression.ts';
import {
  applyMutation,
  arbitraryMutation,
  deepNesting,
  DEEP_NESTING_LEVELS,
  type Mutation,
} from './mutate-transcript-text.ts';

/** Enough for every mutation to hit every format many times in the default run. */
const DEFAULT_CASES = 3000;
const CASES = Number(process.env.FUZZ_CASES) || DEFAULT_CASES;
/** Larger corpus files contribute their first lines only, so one case stays a few milliseconds. */
const CORPUS_SAMPLE_MAX_CHARS = 25_000;
/** Runs per test: the cases are synchronous, so batches keep each test inside its timeout. */
const CASES_PER_TEST = 1000;
const TEST_TIMEOUT_MS = 180_000;
/** Chunked reading never splits a text into more chunks than this (a megabyte line in 1-character chunks would). */
const MAX_CHUNKS = 5000;

const fixturesDir = resolve(import.meta.dirname, '../../../fixtures/import');
const corpusDir = resolve(import.meta.dirname, '../../../../../shared/corpus/transcripts');

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

/** The texts to mutate by name (`fixtures/…` or `corpus/…`), so a counterexample names its file. */
function loadInputs(): Map<string, string> {
  const inputs = new Map<string, string>();
  for (const path of listFiles(fixturesDir).filter((file) => /\/input\.[a-z]+$/.test(file)))
    inputs.set(`fixtures/${relative(fixturesDir, path)}`, readFileSync(path, 'utf8'));
  const corpus = listFiles(corpusDir).filter(
    (path) => /\.jsonl?$/.test(path) && !path.endsWith('MANIFEST.json'),
  );
  for (const path of corpus) {
    const text = readFileSync(path, 'utf8');
    const name = `corpus/${relative(corpusDir, path)}`;
    if (text.length <= CORPUS_SAMPLE_MAX_CHARS) inputs.set(name, text);
    else if (path.endsWith('.jsonl')) {
      const lines: string[] = [];
      let size = 0;
      for (const line of text.split('\n')) {
        if (lines.length > 0 && size + line.length > CORPUS_SAMPLE_MAX_CHARS) break;
        lines.push(line);
        size += line.length + 1;
      }
      inputs.set(name, lines.join('\n'));
    }
  }
  return inputs;
}

const inputs = loadInputs();
const errorPrefixes = [...TRANSCRIPT_FORMATS, 'unknown' as const].map(
  (format) => `${transcriptFormatLabel(format)}: `,
);

/** How the mutated text is read. */
type Reading =
  | { readonly mode: 'detect' }
  | { readonly mode: 'as'; readonly format: TranscriptFormat }
  /** In chunks of these sizes, cycled to the end of the text. */
  | { readonly mode: 'chunks'; readonly sizes: readonly number[] };

interface FuzzCase {
  readonly input: string;
  readonly mutations: readonly Mutation[];
  readonly reading: Reading;
}

const arbitraryReading: fc.Arbitrary<Reading> = fc.oneof(
  { withCrossShrink: true },
  fc.constant({ mode: 'detect' as const }),
  fc.record({ mode: fc.constant('as' as const), format: fc.constantFrom(...TRANSCRIPT_FORMATS) }),
  fc.record({
    mode: fc.constant('chunks' as const),
    sizes: fc.array(
      fc.oneof({ withCrossShrink: true }, fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 8192 })),
      {
        minLength: 1,
        maxLength: 8,
      },
    ),
  }),
);

const arbitraryCase: fc.Arbitrary<FuzzCase> = fc.record({
  input: fc.constantFrom(...inputs.keys()),
  mutations: fc.array(arbitraryMutation, { minLength: 1, maxLength: 3 }),
  reading: arbitraryReading,
});

function chunksOf(text: string, sizes: readonly number[]): string[] {
  const least = Math.ceil(text.length / MAX_CHUNKS);
  const chunks: string[] = [];
  for (let start = 0, turn = 0; start < text.length; turn++) {
    const size = Math.max(least, sizes[turn % sizes.length]!);
    chunks.push(text.slice(start, start + size));
    start += size;
  }
  return chunks;
}

function read(text: string, reading: Reading): Result<ImportResult, ImportError> {
  switch (reading.mode) {
    case 'detect':
      return importTranscript(text);
    case 'as':
      return importTranscript(text, { format: reading.format });
    case 'chunks':
      return importTranscriptChunks(chunksOf(text, reading.sizes));
    default:
      return assertNever(reading);
  }
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

describe('importTranscript fuzzing', () => {
  it('has inputs of every format to mutate', () => {
    expect(inputs.size).toBeGreaterThan(30);
    const formatsWithInputs = new Set([...inputs.keys()].map((name) => name.split('/')[1]));
    for (const format of TRANSCRIPT_FORMATS) expect(formatsWithInputs.has(format), format).toBe(true);
  });

  for (let first = 0; first < CASES; first += CASES_PER_TEST) {
    const runs = Math.min(CASES_PER_TEST, CASES - first);
    it(
      `survives mutated inputs ${first}–${first + runs - 1} of ${CASES}`,
      () => {
        fc.assert(
          fc.property(arbitraryCase, ({ input, mutations, reading }) => {
            const text = mutations.reduce(applyMutation, inputs.get(input)!);
            expect(findProblem(read(text, reading))).toBeUndefined();
          }),
          { numRuns: runs },
        );
      },
      TEST_TIMEOUT_MS,
    );
  }

  /**
   * Inputs that once failed, as the hand-written fuzzer made them: 10,000-level values kept
   * verbatim (an extra message key, a replaced field) before the importer capped the depth of
   * kept values. `«DEEP_OBJECT»` / `«DEEP_ARRAY»` in the files stand for those values.
   */
  it.each<[string, Reading]>([
    ['internal-deep-extra-key.txt', { mode: 'detect' }],
    ['hermes-session-deep-finish-reason.txt', { mode: 'detect' }],
    [
      'hermes-session-deep-extra-key.txt',
      { mode: 'chunks', sizes: [10, 53, 8081, 42, 44, 33, 36, 7510, 64, 77, 4640, 1062] },
    ],
  ])('(regression) %s', (file, reading) => {
    const text = readPropertyRegressionText(`import-fuzz/${file}`)
      .replaceAll('«DEEP_OBJECT»', deepNesting(true))
      .replaceAll('«DEEP_ARRAY»', deepNesting(false));
    expect(text.length).toBeGreaterThan(2 * DEEP_NESTING_LEVELS);
    const result = read(text, reading);
    expect(findProblem(result)).toBeUndefined();
  });
});
