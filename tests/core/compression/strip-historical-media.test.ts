import { describe, expect, it } from 'vitest';
import { stripHistoricalMedia } from '#core/compression/strip-historical-media.ts';
import type { Message } from '#core/transcript/message.ts';

const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } };
const withImage = (role: string, text: string): Message => ({
  role,
  content: [{ type: 'text', text }, image],
  api_content: 'x',
});

describe('stripHistoricalMedia', () => {
  it('replaces images before the newest image-bearing user turn and drops the api_content sidecar', () => {
    const { messages, strippedIndices } = stripHistoricalMedia([
      withImage('user', 'first'),
      withImage('assistant', 'reply'),
      withImage('user', 'latest'),
    ]);
    expect(strippedIndices).toEqual([0, 1]);
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'first' },
        { type: 'text', text: '[Attached image — stripped after compression]' },
      ],
    });
    expect(messages[2]).toEqual(withImage('user', 'latest'));
  });

  it('changes nothing when the only image-bearing user turn is the first message', () => {
    const input = [withImage('user', 'only'), { role: 'assistant', content: 'ok' }];
    expect(stripHistoricalMedia(input).strippedIndices).toEqual([]);
  });
});
