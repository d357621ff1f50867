import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import type { ImportProgress } from '#core/lab/import-progress.ts';
import { DECODE_PIECE_BYTES, importBlob, READ_SLICE_BYTES } from '#worker/import-service.ts';

const fixtures = resolve(import.meta.dirname, '../fixtures/import');

describe('importBlob', () => {
  it('streams a JSONL file through the importer', async () => {
    const text = readFileSync(resolve(fixtures, 'claude-code/compaction-sidechain/input.jsonl'), 'utf8');
    const progress: ImportProgress[] = [];
    const result = await importBlob(new Blob([text]), {}, (report) => progress.push(report));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.stats.messages).toBe(7);
    expect(result.value.transcript.metadata.compactionPoints).toHaveLength(2);
    const last = progress[progress.length - 1]!;
    expect(last.bytes).toBe(last.totalBytes);
    expect(last.messages).toBe(7);
  });

  it('gives the same transcript as a whole-text import for a multi-megabyte document with multi-byte text', async () => {
    const transcript = generateAgentTranscript({ messageCount: 600, seed: 5 });
    transcript.messages.push({ role: 'user', content: '東京の天気は？ 🚀 '.repeat(5000) });
    const text = toOpenAiChatJson(transcript);
    expect(text.length).toBeGreaterThan(1_000_000);
    const streamed = await importBlob(new Blob([text]), {});
    const whole = importTranscript(text);
    expect(streamed.ok && whole.ok).toBe(true);
    if (!streamed.ok || !whole.ok) return;
    expect(streamed.value.transcript.messages).toEqual(whole.value.transcript.messages);
    expect(streamed.value.stats.bytes).toBe(new TextEncoder().encode(text).length);
  });

  it('decodes characters split across decode pieces and read slices, over several slices', async () => {
    // Messages padded so a four-byte emoji starts 1, 2 and 3 bytes before each piece's end.
    const encoder = new TextEncoder();
    let text = '{"messages":[\n';
    let bytes = text.length;
    let messages = 0;
    while (bytes < 2 * READ_SLICE_BYTES + DECODE_PIECE_BYTES) {
      const head = `${messages === 0 ? '' : ',\n'}{"role":"user","content":"`;
      const pieceEnd = (Math.floor(bytes / DECODE_PIECE_BYTES) + 1) * DECODE_PIECE_BYTES;
      const padding = Math.max(0, pieceEnd - bytes - head.length - ((messages % 3) + 1));
      const part = `${head}${'a'.repeat(padding)}🚀 é 東"}`;
      text += part;
      bytes += encoder.encode(part).length;
      messages++;
    }
    text += '\n]}';
    const whole = importTranscript(text);
    const sliced = await importBlob(new Blob([text]), {});
    expect(whole.ok && sliced.ok).toBe(true);
    if (!whole.ok || !sliced.ok) return;
    expect(sliced.value.transcript.messages.length).toBe(messages);
    expect(sliced.value.transcript.messages).toEqual(whole.value.transcript.messages);
    expect(
      sliced.value.transcript.messages.every(
        (message) => typeof message.content === 'string' && message.content.endsWith('🚀 é 東'),
      ),
    ).toBe(true);
  });

  it('stops at the next slice when cancelled, and names a file that could not be read', async () => {
    const text = `${'{"type":"user","message":{"role":"user","content":"x"}}\n'.repeat(200_000)}`;
    expect(text.length).toBeGreaterThan(2 * READ_SLICE_BYTES);
    const controller = new AbortController();
    const cancelled = await importBlob(new Blob([text]), {}, () => controller.abort(), controller.signal);
    expect(cancelled).toMatchObject({ ok: false, error: { type: 'ImportCancelled' } });

    // A file that fails on its second slice (removed or changed while it was read, say).
    const failing = new Blob([text]);
    const slice = failing.slice.bind(failing);
    let slices = 0;
    failing.slice = (start?: number, end?: number): Blob => {
      const part = slice(start, end);
      if (start !== 0 && ++slices === 2) {
        part.arrayBuffer = () => Promise.reject(new Error('NotReadableError: the file changed'));
      }
      return part;
    };
    const unreadable = await importBlob(failing, {});
    expect(unreadable.ok).toBe(false);
    if (!unreadable.ok) expect(unreadable.error.message).toContain('the file could not be read');
  });

  it('returns an ImportError naming the line of a broken file, and honours a forced format', async () => {
    const broken = await importBlob(
      new Blob([readFileSync(resolve(import.meta.dirname, '../fixtures/e2e/broken-openai-chat/input.json'))]),
      {},
    );
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error.message).toContain('line 6 is not valid JSON');
    const forced = await importBlob(new Blob(['{"messages":[{"role":"user","content":"hi"}]}']), {
      format: 'claude-code',
    });
    expect(forced.ok).toBe(false);
    if (!forced.ok) expect(forced.error).toMatchObject({ type: 'ImportError', format: 'claude-code' });
  });

  it('decodes UTF-16 files, little and big endian, with or without a byte order mark', async () => {
    const text =
      '{"messages":[{"role":"user","content":"Résumé, 東京 🚀"},{"role":"assistant","content":"ok"}]}';
    const units = [...text].flatMap((char) => {
      const unit = (code: number): number[] => [code & 0xff, code >> 8];
      const code = char.codePointAt(0)!;
      if (code <= 0xffff) return [unit(code)];
      const offset = code - 0x10000;
      return [unit(0xd800 + (offset >> 10)), unit(0xdc00 + (offset & 0x3ff))];
    });
    for (const order of ['le', 'be'] as const) {
      for (const withBom of [true, false]) {
        const bytes = units.flatMap(([low, high]) => (order === 'le' ? [low!, high!] : [high!, low!]));
        const bom = withBom ? (order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
        const progress: ImportProgress[] = [];
        const blob = new Blob([new Uint8Array([...bom, ...bytes])]);
        const result = await importBlob(blob, {}, (report) => progress.push(report));
        expect(result.ok, `${order} ${withBom}`).toBe(true);
        expect(result.ok && result.value.transcript.messages[0]!.content).toBe('Résumé, 東京 🚀');
        expect(progress[progress.length - 1]!.bytes).toBe(blob.size);
      }
    }
  });
});
