import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMAT_SPECS } from '#core/import/formats/transcript-format-registry.ts';
import { createJsonlImporter } from '#core/import/create-jsonl-importer.ts';
import { importTranscript } from '#core/import/import-transcript.ts';

const claudeLines = [
  {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: 's',
    message: { role: 'user', content: 'Résumé 中文 🎉' },
  },
  {
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
  },
  { type: 'user', uuid: 'u2', parentUuid: 'a1', message: { role: 'user', content: 'thanks' } },
].map((record) => JSON.stringify(record));
const claudeText = `${claudeLines.join('\n')}\n`;

describe('createJsonlImporter', () => {
  it('gives the same result however the text is cut into chunks', () => {
    const whole = importTranscript(claudeText);
    for (const size of [1, 2, 3, 7, 64]) {
      const importer = createJsonlImporter();
      for (let start = 0; start < claudeText.length; start += size)
        importer.push(claudeText.slice(start, start + size));
      expect(importer.finish()).toEqual(whole);
    }
  });

  it('reads CRLF line ends, even when a chunk ends between CR and LF', () => {
    const crlf = claudeText.replace(/\n/g, '\r\n');
    const importer = createJsonlImporter();
    const cut = crlf.indexOf('\r') + 1;
    importer.push(crlf.slice(0, cut));
    importer.push(crlf.slice(cut));
    const result = importer.finish();
    expect(result.ok && result.value.transcript.messages.map((message) => message.content)).toEqual([
      'Résumé 中文 🎉',
      'ok',
      'thanks',
    ]);
  });

  it('reports progress in bytes, lines and messages as chunks arrive', () => {
    const importer = createJsonlImporter();
    importer.push(`${claudeLines[0]}\n${claudeLines[1]}\n`);
    expect(importer.progress).toMatchObject({ lines: 2, messages: 2 });
    importer.push(`${claudeLines[2]}\n`);
    expect(importer.progress.lines).toBe(3);
    expect(importer.progress.bytes).toBe(Buffer.byteLength(claudeText, 'utf8'));
  });

  it('reads a pretty-printed JSON document pushed in pieces', () => {
    const text = JSON.stringify(
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
      null,
      2,
    );
    const importer = createJsonlImporter();
    for (let start = 0; start < text.length; start += 5) importer.push(text.slice(start, start + 5));
    const result = importer.finish();
    expect(result.ok && result.value.format).toBe('openai-chat');
    expect(result.ok && result.value.stats.messages).toBe(2);
  });

  it('uses the format it is given instead of detecting one', () => {
    const importer = createJsonlImporter({ format: 'sharegpt' });
    importer.push(claudeText);
    const result = importer.finish();
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toBe(
      'ShareGPT JSONL: line 1 has no "conversations" array, and no messages could be read (expected one {"conversations":[{"from","value"}]} object per line)',
    );
  });

  it('names the line and what was expected when no line can be read', () => {
    const importer = createJsonlImporter({ format: 'claude-code' });
    importer.push('not json\nstill not json\n');
    const result = importer.finish();
    expect(!result.ok && result.error).toMatchObject({ type: 'ImportError', format: 'claude-code', line: 1 });
    expect(!result.ok && result.error.message).toMatch(
      /^Claude Code JSONL: line 1 is not JSON \("not json"\), and no messages could be read \(expected /,
    );
  });

  it('reports an empty file as an error', () => {
    const importer = createJsonlImporter();
    importer.push('\n  \n');
    const result = importer.finish();
    const message = !result.ok ? result.error.message : '';
    expect(message).toMatch(
      /^Transcript import: the file is empty \(expected a transcript in one of these formats: /,
    );
    // The expectation lists every format a person can import (not our own lossless export).
    for (const spec of TRANSCRIPT_FORMAT_SPECS) expect(message.includes(spec.label)).toBe(!spec.lossless);
  });

  it('skips a bad line with a warning and keeps the rest', () => {
    const text = [claudeLines[0], '{broken', claudeLines[1]].join('\n');
    const result = importTranscript(text);
    expect(result.ok && result.value.stats).toMatchObject({ messages: 2, skippedLines: 1 });
    expect(result.ok && result.value.warnings[0]).toEqual({
      kind: 'skipped-line',
      line: 2,
      reason: 'is not JSON ("{broken")',
    });
  });
});
