import { describe, expect, it } from 'vitest';
import { describeEnd } from '#ui/sessions/describe-end.ts';

describe('describeEnd', () => {
  it('names live, compacted, undone and Hermes-ended sessions', () => {
    expect(describeEnd({ endedAt: null, endReason: null, metadata: null })).toBe('live');
    expect(describeEnd({ endedAt: 5, endReason: 'compression', metadata: null })).toBe('compacted');
    expect(
      describeEnd({
        endedAt: 5,
        endReason: 'branched',
        metadata: { _branched_from: 'p', _compaction_undone: 3 },
      }),
    ).toBe('compaction undone (redo restores it)');
    expect(describeEnd({ endedAt: 5, endReason: 'branched', metadata: { _branched_from: 'p' } })).toBe(
      'branched',
    );
    expect(describeEnd({ endedAt: 5, endReason: 'user_exit', metadata: null })).toBe('user exit');
  });
});
