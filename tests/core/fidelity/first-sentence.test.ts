import { describe, expect, it } from 'vitest';
import { firstSentence, MAX_ASK_CHARACTERS } from '#core/fidelity/first-sentence.ts';

describe('firstSentence', () => {
  it('cuts at the first sentence end, without its punctuation', () => {
    expect(firstSentence('Please fix the failing login test. It broke yesterday.')).toBe(
      'Please fix the failing login test',
    );
  });

  it('cuts at the end of the first line', () => {
    expect(firstSentence('Rule L060 could give a specific error message\nAt the moment it flags both')).toBe(
      'Rule L060 could give a specific error message',
    );
  });

  it('does not cut at a dot inside a word', () => {
    expect(firstSentence('create hello.py, md and js')).toBe('create hello.py, md and js');
  });

  it('runs a short greeting on into the next sentence', () => {
    expect(firstSentence('Hello Claude! Can you help me understand decorators? Thanks.')).toBe(
      'Hello Claude! Can you help me understand decorators',
    );
    expect(firstSentence('Hi! fix it')).toBe('Hi! fix it');
  });

  it('skips blank lines, lone tags and Markdown markers', () => {
    expect(firstSentence('\n<pr_description>\n## Consider the following PR description:\nbody')).toBe(
      'Consider the following PR description',
    );
  });

  it('caps a long first sentence at a word', () => {
    const ask = firstSentence(`please ${'refactor the module '.repeat(20)}`);
    expect(ask.length).toBeLessThanOrEqual(MAX_ASK_CHARACTERS);
    expect(ask.endsWith('module') || ask.endsWith('the') || ask.endsWith('refactor')).toBe(true);
  });
});
