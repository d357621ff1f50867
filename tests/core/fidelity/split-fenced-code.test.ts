import { describe, expect, it } from 'vitest';
import { splitFencedCode } from '#core/fidelity/split-fenced-code.ts';

describe('splitFencedCode', () => {
  it('separates fenced blocks from the prose around them', () => {
    expect(splitFencedCode('Run:\n```sh\nnpm test\n```\ndone')).toEqual({
      prose: 'Run:\n\n\ndone',
      code: ['npm test\n'],
    });
  });

  it('runs an unclosed fence to the end', () => {
    expect(splitFencedCode('a\n```py\ndef f(): pass').code).toEqual(['def f(): pass']);
  });

  it('returns text without fences as prose', () => {
    expect(splitFencedCode('plain')).toEqual({ prose: 'plain', code: [] });
  });
});
