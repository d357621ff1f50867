import { describe, expect, it } from 'vitest';
import { getNextTitleInLineage } from '#core/sessions/get-next-title-in-lineage.ts';
import { newSessionId } from '#core/sessions/new-session-id.ts';
import { END_REASONS } from '#core/sessions/session-record.ts';

describe('getNextTitleInLineage', () => {
  it('keeps the base title when no session with that base exists yet', () => {
    expect(getNextTitleInLineage('Fix tests', [])).toBe('Fix tests');
    expect(getNextTitleInLineage('Fix tests', ['Deploy', 'Fix', 'Fix testsuite', null])).toBe('Fix tests');
  });

  it('numbers the second session #2 once the base exists', () => {
    expect(getNextTitleInLineage('Fix tests', ['Fix tests'])).toBe('Fix tests #2');
  });

  it('continues after the highest number and never fills gaps (#2 and #7 exist)', () => {
    expect(getNextTitleInLineage('Fix tests', ['Fix tests', 'Fix tests #2', 'Fix tests #7'])).toBe(
      'Fix tests #8',
    );
    expect(getNextTitleInLineage('Fix tests', ['Fix tests #7', 'Fix tests #2'])).toBe('Fix tests #8');
  });

  it('strips the number of an already numbered title to find the base', () => {
    expect(getNextTitleInLineage('Fix tests #2', ['Fix tests', 'Fix tests #2', 'Fix tests #7'])).toBe(
      'Fix tests #8',
    );
    // Only stored titles count: the number in the given title is not one of them.
    expect(getNextTitleInLineage('Fix tests #5', ['Fix tests'])).toBe('Fix tests #2');
    expect(getNextTitleInLineage('Fix tests #5', [])).toBe('Fix tests');
  });

  it('leaves an unrelated title alone', () => {
    expect(getNextTitleInLineage('Write docs', ['Fix tests', 'Fix tests #2'])).toBe('Write docs');
  });

  it('counts a title in the way that has no number as #1', () => {
    expect(getNextTitleInLineage('Fix tests', ['Fix tests #draft'])).toBe('Fix tests #2');
    expect(getNextTitleInLineage('Fix tests', ['Fix tests #'])).toBe('Fix tests #2');
  });

  it('takes the trailing number of a title numbered twice', () => {
    expect(getNextTitleInLineage('Fix tests', ['Fix tests #2 #5'])).toBe('Fix tests #6');
    expect(getNextTitleInLineage('Fix tests #2 #5', [])).toBe('Fix tests #2');
  });

  it('matches the lineage pattern as SQLite LIKE does: ASCII letters ignore case, others do not', () => {
    expect(getNextTitleInLineage('fix tests', ['Fix Tests #4'])).toBe('fix tests #5');
    // The base itself is compared exactly.
    expect(getNextTitleInLineage('fix tests', ['Fix Tests'])).toBe('fix tests');
    expect(getNextTitleInLineage('Überblick', ['überblick #3'])).toBe('Überblick');
  });

  it('treats LIKE wildcards and regex characters in titles literally', () => {
    expect(getNextTitleInLineage('50% done', ['50% done #3', '50x done #9'])).toBe('50% done #4');
    expect(getNextTitleInLineage('a_b', ['axb #5'])).toBe('a_b');
    expect(getNextTitleInLineage('a+b (1)', ['a+b (1) #3', 'aab (1) #9'])).toBe('a+b (1) #4');
  });

  it('reads numbers as Python int() does: any decimal digits, no size limit', () => {
    expect(getNextTitleInLineage('Fix', ['Fix #99999999999999999999'])).toBe('Fix #100000000000000000000');
    // Arabic-Indic three, and a title numbered with it.
    expect(getNextTitleInLineage('Fix', ['Fix #\u0663'])).toBe('Fix #4');
    expect(getNextTitleInLineage('Fix #\u0662', [])).toBe('Fix');
  });

  it('follows Python line rules: a number after a newline in the middle is no suffix', () => {
    expect(getNextTitleInLineage('a\nb #2', [])).toBe('a\nb #2');
    expect(getNextTitleInLineage('Fix #2\n', ['Fix'])).toBe('Fix #2');
  });
});

describe('newSessionId', () => {
  it('formats UTC time and six hex digits', () => {
    expect(newSessionId(Date.UTC(2026, 3, 24, 9, 5, 7), 'A1B2C3D4')).toBe('20260424_090507_a1b2c3');
  });

  it('pads a short random suffix', () => {
    expect(newSessionId(0, 'f')).toBe('19700101_000000_f00000');
  });
});

describe('END_REASONS', () => {
  it('spells compression the way the chain logic expects', () => {
    expect(END_REASONS.compression).toBe('compression');
  });
});
