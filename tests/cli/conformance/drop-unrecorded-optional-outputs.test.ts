import { describe, expect, it } from 'vitest';
import { dropUnrecordedOptionalOutputs } from '#cli/conformance/drop-unrecorded-optional-outputs.ts';

describe('dropUnrecordedOptionalOutputs', () => {
  const actual = {
    per_message: [
      { python_str_len: 36, python_str: "{'role': 'user'}" },
      { python_str_len: 90, python_str: "{'role': 'user', 'content': [...]}" },
    ],
    tokens: 32,
  };

  it('leaves out an optional key only where the expected item does not record it', () => {
    const expected = {
      per_message: [{ python_str_len: 36, python_str: "{'role': 'user'}" }, { python_str_len: 90 }],
      tokens: 32,
    };
    expect(dropUnrecordedOptionalOutputs(actual, expected, ['per_message[].python_str'])).toEqual({
      per_message: [{ python_str_len: 36, python_str: "{'role': 'user'}" }, { python_str_len: 90 }],
      tokens: 32,
    });
  });

  it('keeps every key that is not declared optional, so a missing one still fails the comparison', () => {
    const expected = { per_message: [{ python_str_len: 36 }, { python_str_len: 90 }] };
    const result = dropUnrecordedOptionalOutputs(actual, expected, ['per_message[].python_str']) as {
      tokens?: number;
    };
    expect(result.tokens).toBe(32);
  });

  it('walks every value of an object with *', () => {
    const sessions = { A: { tip: 'C', next_title: 'x #2' }, B: { tip: 'C', next_title: 'x #2' } };
    expect(
      dropUnrecordedOptionalOutputs(sessions, { A: { tip: 'C' }, B: { tip: 'C', next_title: 'x' } }, [
        '*.next_title',
      ]),
    ).toEqual({
      A: { tip: 'C' },
      B: { tip: 'C', next_title: 'x #2' },
    });
  });

  it('does not modify its input and ignores shapes that do not match the path', () => {
    const before = structuredClone(actual);
    dropUnrecordedOptionalOutputs(actual, { per_message: [{}, {}] }, ['per_message[].python_str']);
    expect(actual).toEqual(before);
    expect(dropUnrecordedOptionalOutputs('text', { a: 1 }, ['a'])).toBe('text');
    expect(dropUnrecordedOptionalOutputs([1, 2], [1, 2], ['per_message[].python_str'])).toEqual([1, 2]);
  });
});
