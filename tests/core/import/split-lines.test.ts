import { describe, expect, it } from 'vitest';
import { createLineSplitter } from '#core/import/split-lines.ts';

function split(chunks: string[]): [string, number][] {
  const lines: [string, number][] = [];
  const splitter = createLineSplitter((text, lineNumber) => lines.push([text, lineNumber]));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('createLineSplitter', () => {
  it('numbers lines and joins a line cut across chunks', () => {
    expect(split(['ab', 'c\nd', 'e\n', 'f'])).toEqual([
      ['abc', 1],
      ['de', 2],
      ['f', 3],
    ]);
  });

  it('strips the CR of CRLF, including when CR and LF arrive in different chunks', () => {
    expect(split(['one\r', '\ntwo\r\n'])).toEqual([
      ['one', 1],
      ['two', 2],
    ]);
  });

  it('keeps empty lines so line numbers stay true', () => {
    expect(split(['a\n\nb\n'])).toEqual([
      ['a', 1],
      ['', 2],
      ['b', 3],
    ]);
  });
});
