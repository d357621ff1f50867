import { describe, expect, it } from 'vitest';
import { describePinnedMessages } from '#core/lab/describe-pinned-messages.ts';

describe('describePinnedMessages', () => {
  it('says how many pins are kept verbatim and which ones the strategy keeps instead of its own fate', () => {
    expect(
      describePinnedMessages([
        { index: 3, rescued: null },
        { index: 1_204, rescued: 'summarized' },
        { index: 1_300, rescued: 'dropped' },
        { index: 1_400, rescued: 'shortened' },
      ]),
    ).toEqual([
      '4 pinned messages kept verbatim.',
      'Pinned message #1,204 kept verbatim: this strategy would have summarised it.',
      'Pinned message #1,300 kept verbatim: this strategy would have dropped it.',
      'Pinned message #1,400 kept whole: this strategy would have shortened it.',
    ]);
  });

  it('uses the singular for one pin and says nothing without pins', () => {
    expect(describePinnedMessages([{ index: 0, rescued: null }])).toEqual([
      '1 pinned message kept verbatim.',
    ]);
    expect(describePinnedMessages([])).toEqual([]);
  });
});
