import { describe, expect, it } from 'vitest';
import { diffCompression } from '#core/lab/compression-diff.ts';
import { FATE } from '#core/strategies/strategy.ts';
import type { Message } from '#core/transcript/message.ts';

const before: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'first ask' },
  { role: 'assistant', content: 'ok' },
  { role: 'user', content: 'middle 1' },
  { role: 'assistant', content: 'middle 2' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'a', type: 'function', function: { name: 't', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'orphan', content: 'lost' },
  { role: 'tool', tool_call_id: 'a', content: 'result' },
  { role: 'user', content: 'last ask' },
];

describe('diffCompression', () => {
  it('lines up kept, changed, inserted and removed messages', () => {
    const after: Message[] = [
      { role: 'system', content: 'sys\n\n[note]' },
      before[1]!,
      before[2]!,
      { role: 'user', content: '[CONTEXT COMPACTION] summary' },
      before[5]!,
      before[7]!,
      before[8]!,
    ];
    const diff = diffCompression(before, after, { headEnd: 3, tailStart: 5 });
    expect(diff.after).toEqual([
      { status: 'changed', sourceIndex: 0 },
      { status: 'kept', sourceIndex: 1 },
      { status: 'kept', sourceIndex: 2 },
      { status: 'inserted', sourceIndex: null },
      { status: 'kept', sourceIndex: 5 },
      { status: 'kept', sourceIndex: 7 },
      { status: 'kept', sourceIndex: 8 },
    ]);
    expect(diff.removed).toEqual([6]);
    expect(diff.summarized).toEqual({ start: 3, end: 5 });
    expect(diff.counts).toEqual({ kept: 5, changed: 1, summarized: 2, inserted: 1, removed: 1 });
  });

  it('does not mistake a summary for a later message of the same role', () => {
    // The summary (assistant) sits between a user head end and a user tail start.
    const input: Message[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
      { role: 'user', content: 'd' },
      { role: 'assistant', content: 'e' },
    ];
    const after: Message[] = [input[0]!, { role: 'assistant', content: 'summary' }, input[3]!, input[4]!];
    const diff = diffCompression(input, after, { headEnd: 1, tailStart: 3 });
    expect(diff.after.map((entry) => entry.status)).toEqual(['kept', 'inserted', 'kept', 'kept']);
    expect(diff.removed).toEqual([]);
  });

  it('treats an unchanged list (a skipped compression) as all kept', () => {
    const diff = diffCompression(before, [...before], null);
    expect(diff.counts).toEqual({ kept: before.length, changed: 0, summarized: 0, inserted: 0, removed: 0 });
  });

  it('finds a pinned message put back after the summary by what it is, not by where it stands', () => {
    // Pinned #1 was in the summarised middle; the compaction put it back after the summary,
    // which it merged into the first tail message (#4).
    const input: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'assistant', content: 'pinned decision' },
      { role: 'user', content: 'middle ask' },
      { role: 'assistant', content: 'middle answer' },
      { role: 'assistant', content: 'first tail reply' },
    ];
    const fates = Uint8Array.from([FATE.kept, FATE.kept, FATE.summarized, FATE.summarized, FATE.kept]);
    const after: Message[] = [
      input[0]!,
      { role: 'assistant', content: '[CONTEXT COMPACTION] summary\n\nfirst tail reply' },
      input[1]!,
    ];
    const diff = diffCompression(input, after, fates);
    expect(diff.after).toEqual([
      { status: 'kept', sourceIndex: 0 },
      { status: 'changed', sourceIndex: 4 },
      { status: 'kept', sourceIndex: 1 },
    ]);
    expect(diff.removed).toEqual([]);
  });
});
