import { describe, expect, it } from 'vitest';
import { describeTailCut, describeTailCutStep } from '#core/lab/describe-tail-cut.ts';

describe('describeTailCutStep', () => {
  it('explains the budget walk with its figures', () => {
    expect(
      describeTailCutStep({
        kind: 'budget-walk',
        acceptedMessages: 437,
        acceptedTokens: 29992,
        budget: 20000,
        softCeiling: 30000,
        cut: 9563,
        reachedHead: false,
      }),
    ).toBe(
      'Budget walk: walking back from the newest message, the tail took 437 messages (29,992 tokens, counted after ' +
        'pruning) before the next would pass the soft ceiling of 1.5 × 20,000 = 30,000 tokens, so the cut fell at #9,563.',
    );
  });

  it('says when the walk took everything, and calls the forward move a collapse, not a floor', () => {
    expect(
      describeTailCutStep({
        kind: 'budget-walk',
        acceptedMessages: 45,
        acceptedTokens: 34269,
        budget: 80000,
        softCeiling: 120000,
        cut: 4,
        reachedHead: true,
      }),
    ).toBe(
      'Budget walk: walking back from the newest message, all 45 messages after the head (34,269 tokens, counted ' +
        'after pruning) fit under the soft ceiling of 1.5 × 80,000 = 120,000 tokens.',
    );
    const collapse = describeTailCutStep({ kind: 'floor', minTail: 3, from: 4, to: 46 });
    expect(collapse).toMatch(/^Collapsed to the minimum: /);
    expect(collapse).toContain(
      'shrinks to its minimum of 3 messages (min_tail) and the cut moves forward from #4 to #46',
    );
    expect(collapse).not.toContain('keeps at least');
  });

  it('names every kind of move with where the cut went', () => {
    const lines = describeTailCut([
      { kind: 'rewalk', acceptedMessages: 5, acceptedTokens: 900, budget: 1000, cut: 12 },
      { kind: 'floor', minTail: 8, from: 20, to: 12 },
      { kind: 'align-backward', from: 12, to: 10 },
      { kind: 'last-user', userIndex: 7, from: 10, to: 7 },
      { kind: 'causal-coupling', userIndex: 4, pairEnd: 7, from: 4, to: 7 },
      { kind: 'last-assistant', assistantIndex: 5, from: 7, to: 5 },
      { kind: 'progress-floor', from: 3, to: 5 },
      { kind: 'align-forward', from: 5, to: 6 },
    ]);
    expect(lines).toEqual([
      'Everything after the head fitted under the soft ceiling, so the walk was redone at the raw budget of 1,000: 5 messages / 900 tokens after pruning, cut at #12 (Hermes #40803).',
      'Floor: the tail keeps at least 8 messages (min_tail), so the cut moved back from #20 to #12.',
      'Aligned back over a tool group: a cut at #12 would have separated tool calls from their results, so it moved back to #10 and the whole group stays together.',
      'Moved to keep the last user message (#7) in the tail: #10 → #7.',
      'The last user message (#4) sits right at the head end, so it is summarised together with its reply (up to #7) instead: #4 → #7 (Hermes #22523).',
      'Moved back to keep the latest visible assistant reply (#5) in the tail: #7 → #5.',
      'The tail must start after the head: #3 → #5.',
      'Slid forward past tool results so no tool group is split: #5 → #6.',
    ]);
  });

  it('says "message" for one', () => {
    expect(describeTailCutStep({ kind: 'floor', minTail: 1, from: 4, to: 3 })).toContain(
      'at least 1 message (min_tail)',
    );
  });
});
