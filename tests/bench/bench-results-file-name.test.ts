import { describe, expect, it } from 'vitest';
import { benchResultsFileName } from '#tests/bench/bench-results-file-name.ts';

describe('benchResultsFileName', () => {
  it('writes a full run to bench-results.json', () => {
    expect(benchResultsFileName(null)).toBe('bench-results.json');
  });

  it('names a partial run after the measurements it ran, in the order given', () => {
    expect(benchResultsFileName(new Set(['import']))).toBe('bench-results-import.json');
    expect(benchResultsFileName(new Set(['compress', 'replay']))).toBe('bench-results-compress-replay.json');
  });
});
