import { describe, expect, it } from 'vitest';
import { extractTaggedBlocks } from '#core/import/extract-tagged-blocks.ts';

describe('extractTaggedBlocks', () => {
  it('pulls every closed block out and keeps the rest', () => {
    expect(extractTaggedBlocks('<think>a</think>text<think>b</think> end', 'think')).toEqual({
      blocks: ['a', 'b'],
      rest: 'text end',
    });
  });

  it('leaves an unclosed block in the text', () => {
    expect(extractTaggedBlocks('x <tool_call>{"name"', 'tool_call')).toEqual({
      blocks: [],
      rest: 'x <tool_call>{"name"',
    });
  });
});
