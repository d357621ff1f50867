import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { countMessageTokens } from '#core/tokens/count-message-tokens.ts';
import type { TokenCounter } from '#core/tokens/token-counter.ts';
import type { Message } from '#core/transcript/message.ts';
import { TokenDocuments } from '#worker/token-documents.ts';

let counter: TokenCounter;
let calls = 0;

beforeAll(() => {
  const encoder = new Tiktoken(o200k);
  counter = {
    count: (text) => {
      calls += 1;
      return encoder.encode(text, 'all', []).length;
    },
  };
});

const conversation: Message[] = [
  { role: 'system', content: 'You are a careful coding agent.' },
  { role: 'user', content: 'List the files, please.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '{"command": "ls"}' } },
    ],
  },
  {
    role: 'tool',
    tool_call_id: 'call_1',
    name: 'terminal',
    content: '{"output": "main.py\\ntests", "exit_code": 0}',
  },
  { role: 'assistant', content: 'There are two entries: main.py and tests/. 東京 🚀' },
];

describe('TokenDocuments.countExact', () => {
  it('matches counting every message directly', () => {
    const documents = new TokenDocuments();
    documents.open('d', conversation);
    const counts = documents.countExact('d', 'o200k_base', counter);
    const direct = conversation.map((message) => countMessageTokens(message, counter));
    expect(counts.perMessage).toEqual(direct);
    expect(counts.total).toBe(direct.reduce((sum, value) => sum + value, 0));
  });

  it('tokenises only the appended message on a recount', () => {
    const documents = new TokenDocuments();
    documents.open('d', conversation);
    documents.countExact('d', 'o200k_base', counter);
    documents.append('d', [{ role: 'user', content: 'Now run the tests.' }]);
    calls = 0;
    const counts = documents.countExact('d', 'o200k_base', counter);
    expect(counts.tokenized).toBe(1);
    expect(calls).toBe(1);
    expect(counts.perMessage).toHaveLength(conversation.length + 1);
  });

  it('reuses counts of identical messages across documents', () => {
    const documents = new TokenDocuments();
    documents.open('a', conversation);
    documents.countExact('a', 'o200k_base', counter);
    documents.open('b', conversation);
    expect(documents.countExact('b', 'o200k_base', counter).tokenized).toBe(0);
  });

  it('recounts messages replaced from an index and keeps the total consistent', () => {
    const documents = new TokenDocuments();
    documents.open('d', conversation);
    documents.countExact('d', 'o200k_base', counter);
    documents.replaceFrom('d', 2, [
      { role: 'assistant', content: 'A brand new reply that was never counted before.' },
    ]);
    const counts = documents.countExact('d', 'o200k_base', counter);
    expect(counts.perMessage).toHaveLength(3);
    expect(counts.tokenized).toBe(1);
    expect(counts.total).toBe(counts.perMessage.reduce((sum, value) => sum + value, 0));
  });

  it('reports progress while counting', () => {
    const documents = new TokenDocuments();
    const many = Array.from({ length: 25 }, (_, index) => ({ role: 'user', content: `message ${index}` }));
    documents.open('d', many);
    const reports: number[] = [];
    documents.countExact('d', 'o200k_base', counter, (done) => reports.push(done), 10);
    expect(reports).toEqual([10, 20]);
  });
});

describe('TokenDocuments.countExactStep on one long message', () => {
  /** About 200 KB of ordinary text in one tool result: many parts, each cut where the count holds. */
  const longOutput: Message = {
    role: 'tool',
    tool_call_id: 'call_1',
    name: 'terminal',
    content: Array.from(
      { length: 4000 },
      (_, line) => `line ${line}: checked src/module_${line % 97}.ts — ok (${line * 7} ms), café 東京`,
    ).join('\n'),
  };

  it('pauses inside the message and resumes there, reaching the count of the whole message', () => {
    const documents = new TokenDocuments();
    documents.open('d', [...conversation, longOutput]);
    let steps = 0;
    let counted: number;
    for (;;) {
      steps += 1;
      // Pause at every chance: after each message, and after each part of a long one.
      const step = documents.countExactStep('d', 'o200k_base', counter, () => true);
      counted = step.done;
      if (step.done >= step.total || steps > 1000) break;
    }
    expect(counted).toBe(conversation.length + 1);
    const text = typeof longOutput.content === 'string' ? longOutput.content : '';
    expect(steps).toBeGreaterThan(conversation.length + text.length / 32_768);
    const counts = documents.completeCounts('d', 'o200k_base')!;
    expect(counts.perMessage.at(-1)).toBe(countMessageTokens(longOutput, counter));
  });

  it('starts a paused message over when it was replaced before the count resumed', () => {
    const documents = new TokenDocuments();
    documents.open('d', [longOutput]);
    documents.countExactStep('d', 'o200k_base', counter, () => true);
    const replacement: Message = { role: 'user', content: 'short now' };
    documents.replaceFrom('d', 0, [replacement]);
    documents.countExactStep('d', 'o200k_base', counter, () => false);
    expect(documents.completeCounts('d', 'o200k_base')!.perMessage).toEqual([
      countMessageTokens(replacement, counter),
    ]);
  });
});
