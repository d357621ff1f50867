import { describe, expect, it } from 'vitest';
import { createImportContext } from '#core/import/import-context.ts';
import { pairToolResults } from '#core/import/pair-tool-results.ts';
import { createTranscriptDraft, pushDraftMessage } from '#core/import/transcript-draft.ts';
import type { Message } from '#core/transcript/message.ts';

const call = (id: string, name = 'Bash') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: '{}' },
});

function draftOf(messages: Message[]) {
  const draft = createTranscriptDraft('claude-code');
  messages.forEach((message, index) => pushDraftMessage(draft, message, { line: index + 1 }));
  return draft;
}

describe('pairToolResults', () => {
  it('drops a result whose call never appears and moves compaction points with the messages', () => {
    const draft = draftOf([
      { role: 'user', content: 'go' },
      { role: 'tool', tool_call_id: 'ghost', content: 'orphan' },
      { role: 'assistant', content: 'done' },
    ]);
    draft.metadata.compactionPoints.push({ messageIndex: 2, kind: 'claude-compact-boundary' });
    const context = createImportContext();
    pairToolResults(draft, context);
    expect(draft.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(draft.metadata.compactionPoints[0]!.messageIndex).toBe(1);
    expect(context.warnings).toEqual([
      {
        kind: 'skipped-part',
        line: 2,
        reason: 'has a tool result for call "ghost", which no earlier message makes; dropped',
      },
    ]);
  });

  it('renames a reused call id and binds the next result to the newest call', () => {
    const draft = draftOf([
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: 'first' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: 'second' },
    ]);
    pairToolResults(draft, createImportContext());
    expect(draft.messages[2]!.tool_calls![0]!.id).toBe('c1~2');
    expect(draft.messages[3]!.tool_call_id).toBe('c1~2');
  });

  it('drops a second result for the same call and keeps a call without result with a note', () => {
    const draft = draftOf([
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b', 'Read')] },
      { role: 'tool', tool_call_id: 'a', content: 'one' },
      { role: 'tool', tool_call_id: 'a', content: 'again' },
    ]);
    const context = createImportContext();
    pairToolResults(draft, context);
    expect(draft.messages).toHaveLength(2);
    expect(context.warnings.map((warning) => warning.reason)).toEqual([
      'repeats the result of call "a"; dropped',
      'has call "b" (Read) with no result; kept for the sanitiser to stub',
    ]);
  });

  it('only reports problems in check mode', () => {
    const draft = draftOf([{ role: 'tool', tool_call_id: 'ghost', content: 'orphan' }]);
    const context = createImportContext();
    pairToolResults(draft, context, 'check');
    expect(draft.messages).toHaveLength(1);
    expect(context.warnings[0]).toMatchObject({ kind: 'note' });
  });
});
