import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportInternalJson } from '#core/export/export-internal-json.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

const corpusDir = resolve(import.meta.dirname, '../../../../shared/corpus/transcripts');

function corpusFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return corpusFiles(path);
    return /\.jsonl?$/.test(entry) && entry !== 'MANIFEST.json' ? [path] : [];
  });
}

describe('exportInternalJson', () => {
  it('writes a tagged, versioned document with one message per line', () => {
    const transcript: Transcript = {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
      metadata: { format: 'openai-chat', compactionPoints: [] },
    };
    expect(exportInternalJson(transcript)).toBe(
      '{"format":"context-lab-transcript","version":1,\n' +
        '"metadata":{"format":"openai-chat","compactionPoints":[]},\n' +
        '"messages":[\n{"role":"user","content":"hi"},\n{"role":"assistant","content":"hello"}\n]}\n',
    );
  });

  it('round-trips every corpus transcript exactly through importTranscript', () => {
    const files = corpusFiles(corpusDir);
    expect(files).toHaveLength(36);
    for (const path of files) {
      const imported = importTranscript(readFileSync(path, 'utf8'));
      if (!imported.ok) throw new Error(`${path}: ${imported.error.message}`);
      const again = importTranscript(exportInternalJson(imported.value.transcript));
      expect(again.ok && again.value.format, path).toBe('internal');
      expect(again.ok && again.value.transcript, path).toEqual(imported.value.transcript);
      expect(again.ok && again.value.warnings.filter((warning) => warning.kind !== 'note'), path).toEqual([]);
    }
  });

  it('keeps in-process keys and unusual content exactly, reporting but not repairing an orphan result', () => {
    const transcript: Transcript = {
      messages: [
        { role: 'tool', tool_call_id: 'gone', content: 'orphan' },
        {
          role: 'assistant',
          content: { _multimodal: true, text_summary: 'chart' },
          _compressed_summary: true,
        },
      ],
      metadata: {
        format: 'internal',
        compactionPoints: [{ messageIndex: 2, kind: 'hermes-summary' }],
        systemPrompt: 'not first',
      },
    };
    const again = importTranscript(exportInternalJson(transcript));
    expect(again.ok && again.value.transcript).toEqual(transcript);
    expect(again.ok && again.value.warnings.map((warning) => warning.kind)).toEqual(['note']);
  });
});
