import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';
import { detectTranscriptFormat } from '#core/import/detect-transcript-format.ts';
import type { TranscriptFormat } from '#core/transcript/transcript.ts';

/** The shared corpus of real transcripts from other tools (see its README for the counting rules). */
const corpusDir = resolve(import.meta.dirname, '../../../../shared/corpus/transcripts');

interface ManifestEntry {
  path: string;
  format: string;
  expected: {
    messages_min: number;
    messages_full: number;
    tool_calls: number;
    tool_results: number;
    has_compaction_record: boolean;
    malformed: boolean;
    tool_calls_range?: [number, number];
    tool_results_range?: [number, number];
    tool_use_without_id?: number;
    tool_result_without_id?: number;
  };
}

const FORMAT_BY_CORPUS_FOLDER: Record<string, TranscriptFormat> = {
  'claude-code': 'claude-code',
  codex: 'codex-rollout',
  sharegpt: 'sharegpt',
  'openai-chat': 'openai-chat',
  anthropic: 'anthropic-messages',
  'hermes-export': 'hermes-snapshot',
};

const manifest = JSON.parse(readFileSync(resolve(corpusDir, 'MANIFEST.json'), 'utf8')) as ManifestEntry[];

describe('importTranscript on the shared corpus', () => {
  it('covers all 36 corpus files', () => {
    expect(manifest).toHaveLength(36);
  });

  for (const entry of manifest) {
    describe(entry.path, () => {
      const text = readFileSync(resolve(corpusDir, entry.path), 'utf8');
      const result = importTranscript(text);
      const { expected } = entry;

      it('imports, detected as its format', () => {
        expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
        expect(detectTranscriptFormat(text)?.format).toBe(FORMAT_BY_CORPUS_FOLDER[entry.format]);
        expect(result.ok && result.value.format).toBe(FORMAT_BY_CORPUS_FOLDER[entry.format]);
      });

      it('keeps a message count between messages_min and messages_full', () => {
        const count = result.ok ? result.value.transcript.messages.length : -1;
        expect(count).toBeGreaterThanOrEqual(expected.messages_min);
        expect(count).toBeLessThanOrEqual(expected.messages_full);
      });

      it('answers every tool result with an earlier call and counts no more ids than the file has', () => {
        const messages = result.ok ? result.value.transcript.messages : [];
        const calls = new Set<string>();
        const results = new Set<string>();
        for (const message of messages) {
          if (message.role === 'tool') {
            expect(calls.has(String(message.tool_call_id)), `result ${String(message.tool_call_id)}`).toBe(
              true,
            );
            results.add(String(message.tool_call_id));
          }
          for (const call of message.tool_calls ?? []) calls.add(call.id);
        }
        const maxCalls = Math.max(
          expected.tool_calls_range?.[1] ?? 0,
          expected.tool_calls + (expected.tool_use_without_id ?? 0),
        );
        expect(calls.size).toBeLessThanOrEqual(maxCalls);
        const maxResults = Math.max(
          expected.tool_results_range?.[1] ?? 0,
          expected.tool_results + (expected.tool_result_without_id ?? 0),
        );
        expect(results.size).toBeLessThanOrEqual(maxResults);
      });

      it.runIf(expected.has_compaction_record)('keeps its compaction records as compaction points', () => {
        expect(result.ok && result.value.transcript.metadata.compactionPoints.length).toBeGreaterThan(0);
      });

      it.runIf(expected.malformed)('reports the malformed lines as warnings with line numbers', () => {
        const skipped = result.ok
          ? result.value.warnings.filter((warning) => warning.kind === 'skipped-line')
          : [];
        expect(skipped.length).toBeGreaterThan(0);
        expect(skipped.every((warning) => typeof warning.line === 'number')).toBe(true);
      });
    });
  }
});
