import { describe, expect, it } from 'vitest';
import { getNextTitleInLineage } from '#core/sessions/get-next-title-in-lineage.ts';
import { newSessionId } from '#core/sessions/new-session-id.ts';
import { END_REASONS } from '#core/sessions/session-record.ts';

describe('getNextTitleInLineage', () => {
  it('keeps the base title when it is free', () => {
    expect(getNextTitleInLineage('Fix tests', [])).toBe('Fix tests');
  });

  it('numbers the second session #2', () => {
    expect(getNextTitleInLineage('Fix tests', ['Fix tests'])).toBe('Fix tests #2');
  });

  it('continues after the highest number, from a numbered title too', () => {
    expect(getNextTitleInLineage('Fix tests #2', ['Fix tests', 'Fix tests #2', 'Fix tests #7'])).toBe(
      'Fix tests #8',
    );
  });

  it('treats regex characters in titles literally', () => {
    expect(getNextTitleInLineage('a+b (1)', ['a+b (1) #3', 'aab (1) #9'])).toBe('a+b (1) #4');
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
