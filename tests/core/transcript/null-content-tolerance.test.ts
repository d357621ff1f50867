import { describe, expect, it } from 'vitest';
import { exportHermesSessionJsonl } from '#core/export/export-hermes-session-jsonl.ts';
import { exportInternalJson } from '#core/export/export-internal-json.ts';
import { exportMarkdown } from '#core/export/export-markdown.ts';
import { exportShareGptJsonl } from '#core/export/export-sharegpt-jsonl.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import { messageSearchText } from '#core/search/message-search-text.ts';
import { countMessageTokens } from '#core/tokens/count-message-tokens.ts';
import { estimateMessagesTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import { messagePreview } from '#core/transcript/message-preview.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import type { Transcript } from '#core/transcript/transcript.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

/** Assistant turns that only call tools, as OpenAI chat files write them: content null, or no content key. */
const messages: Message[] = [
  { role: 'user', content: 'List the files.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'a.py' },
  {
    role: 'assistant',
    tool_calls: [{ id: 'c2', type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' } }],
  },
  { role: 'tool', tool_call_id: 'c2', content: 'b.py' },
  { role: 'assistant', content: 'a.py and src/b.py.' },
];
const transcript: Transcript = { messages, metadata: { format: 'openai-chat', compactionPoints: [] } };

describe('content that is null or absent', () => {
  it('is read as empty text by the text helpers and token counters', () => {
    expect(messageText(messages[1]!)).toBe('');
    expect(messageText(messages[3]!)).toBe('');
    expect(messagePreview(messages[3]!)).toEqual(expect.any(String));
    expect(messageSearchText(messages[1]!)).toEqual(expect.any(String));
    for (const message of messages)
      expect(countMessageTokens(message, { count: (text) => text.length })).toBeGreaterThan(0);
    // Hermes counts `None` (4 characters) for null and nothing for an absent key.
    expect(estimateMessagesTokensRough([messages[1]!], HERMES_2026_04)).toBeGreaterThan(0);
  });

  it('goes through every exporter and back through the internal format unchanged', () => {
    expect(exportMarkdown(transcript)).toContain('a.py and src/b.py.');
    expect(exportShareGptJsonl(transcript)).toContain('a.py and src/b.py.');
    const hermes = JSON.parse(exportHermesSessionJsonl([{ session: { id: 's1' }, messages }])) as {
      messages: Message[];
    };
    expect(hermes.messages[1]!.content).toBeNull();
    expect('content' in hermes.messages[3]!).toBe(false);
    const again = importTranscript(exportInternalJson(transcript), { format: 'internal' });
    expect(again.ok && again.value.transcript.messages).toEqual(messages);
    expect(again.ok && 'content' in again.value.transcript.messages[3]!).toBe(false);
  });
});
