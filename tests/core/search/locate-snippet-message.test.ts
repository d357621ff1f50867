import { describe, expect, it } from 'vitest';
import { locateSnippetMessage } from '#core/search/locate-snippet-message.ts';
import type { Message } from '#core/transcript/message.ts';

const messages: Message[] = [
  { role: 'user', content: 'Fix the flaky   login\ntest please' },
  { role: 'assistant', content: 'On it.' },
  { role: 'user', content: 'Fix the flaky login test please' },
];

describe('locateSnippetMessage', () => {
  it('finds the message a snippet was cut from, whitespace collapsed and ellipses ignored', () => {
    expect(locateSnippetMessage(messages, { snippet: '…flaky login test…', contextBefore: null })).toBe(0);
  });

  it('prefers the copy whose previous message matches the hit context', () => {
    expect(locateSnippetMessage(messages, { snippet: 'flaky login', contextBefore: 'On it.' })).toBe(2);
  });

  it('is -1 when no message holds the snippet or the snippet is empty', () => {
    expect(locateSnippetMessage(messages, { snippet: 'nothing like this', contextBefore: null })).toBe(-1);
    expect(locateSnippetMessage(messages, { snippet: '…', contextBefore: null })).toBe(-1);
  });
});
