import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTranscriptFormat } from '#core/import/detect-transcript-format.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import { importTranscriptChunks } from '#core/import/import-transcript.ts';
import { exportInternalJson } from '#core/export/export-internal-json.ts';
import { TRANSCRIPT_FORMATS } from '#core/import/formats/transcript-format-registry.ts';
import { digestImport } from './import-digest.ts';

const fixturesDir = resolve(import.meta.dirname, '../../fixtures/import');
const updateSnapshots = process.env.UPDATE_SNAPSHOTS === 'true';

interface FixtureCase {
  format: string;
  name: string;
  inputPath: string;
  expectedPath: string;
}

function fixtureCases(): FixtureCase[] {
  return readdirSync(fixturesDir).flatMap((format) =>
    readdirSync(join(fixturesDir, format)).flatMap((name) => {
      const dir = join(fixturesDir, format, name);
      const input = readdirSync(dir)
        .filter((file) => file.startsWith('input.'))
        .map((file) => join(dir, file))[0];
      return input ? [{ format, name, inputPath: input, expectedPath: join(dir, 'expected.json') }] : [];
    }),
  );
}

/** Splits text into uneven chunks that cut lines, CRLF pairs and multi-byte characters anywhere. */
function unevenChunks(text: string): string[] {
  const chunks: string[] = [];
  for (let start = 0, size = 1; start < text.length; start += size, size = (size * 7 + 3) % 97 || 1) {
    chunks.push(text.slice(start, start + size));
  }
  return chunks;
}

describe('importTranscript fixtures', () => {
  const cases = fixtureCases();

  it('has at least three cases for every format, one of them broken', () => {
    const byFormat = new Map<string, string[]>();
    for (const entry of cases)
      byFormat.set(entry.format, [...(byFormat.get(entry.format) ?? []), entry.name]);
    expect([...byFormat.keys()].sort()).toEqual([...TRANSCRIPT_FORMATS].sort());
    for (const [format, names] of byFormat) {
      expect(names.length, format).toBeGreaterThanOrEqual(3);
      expect(
        names.some((name) => name.startsWith('broken')),
        format,
      ).toBe(true);
    }
  });

  for (const entry of cases) {
    describe(`${entry.format}/${entry.name}`, () => {
      const input = readFileSync(entry.inputPath, 'utf8');

      it('imports to the expected result', () => {
        const actual = digestImport(importTranscript(input));
        if (updateSnapshots || !existsSync(entry.expectedPath)) {
          writeFileSync(entry.expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
        }
        expect(actual).toEqual(JSON.parse(readFileSync(entry.expectedPath, 'utf8')));
      });

      it('is detected as its format and read the same from uneven chunks and with CRLF line ends', () => {
        const whole = importTranscript(input);
        if (!entry.name.startsWith('broken')) {
          expect(detectTranscriptFormat(input)?.format).toBe(entry.format);
          expect(whole.ok && whole.value.format).toBe(entry.format);
        }
        expect(digestImport(importTranscriptChunks(unevenChunks(input)))).toEqual(digestImport(whole));
        if (entry.inputPath.endsWith('.jsonl')) {
          const crlf = importTranscript(input.replace(/\n/g, '\r\n'));
          expect(crlf.ok && crlf.value.transcript).toEqual(whole.ok && whole.value.transcript);
        }
      });

      const first = importTranscript(input);
      it.runIf(first.ok)('round-trips through the internal JSON export', () => {
        const transcript = first.ok ? first.value.transcript : undefined;
        const again = importTranscript(exportInternalJson(transcript!), { format: 'internal' });
        expect(again.ok && again.value.transcript).toEqual(transcript);
      });
    });
  }
});
