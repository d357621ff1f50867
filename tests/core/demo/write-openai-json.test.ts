import { describe, expect, it } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';
import { safeParseJson } from '#core/shared/safe-parse-json.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

describe('toOpenAiChatJson', () => {
  it('writes {messages, tools} that parse back to the transcript', () => {
    const transcript = buildDemoTranscript();
    const parsed = safeParseJson(toOpenAiChatJson(transcript));
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.value).toEqual({
      messages: transcript.messages,
      tools: transcript.metadata.tools,
    });
  });

  it('leaves out in-process keys starting with an underscore', () => {
    const transcript: Transcript = {
      messages: [{ role: 'user', content: 'hi', _compressed_summary: true }],
      metadata: { format: 'internal', compactionPoints: [] },
    };
    expect(toOpenAiChatJson(transcript)).toBe('{"messages":[{"role":"user","content":"hi"}],"tools":[]}');
  });
});
