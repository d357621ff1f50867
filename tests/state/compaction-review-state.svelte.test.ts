import { describe, expect, it, vi } from 'vitest';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import type { Fact } from '#core/fidelity/fact.ts';
import type { LabCompression } from '#core/lab/lab-compression.ts';
import { ok } from '#core/shared/result.ts';
import { CompactionReviewState, type ReviewOutcome } from '#state/compaction-review-state.svelte.ts';

/** A compaction with one summary; its lost facts are the ones whose text is not in the body. */
function compaction(body: string, lost: readonly Fact[]): LabCompression {
  return {
    strategy: 'hermes-2026-07',
    strategyLabel: 'Hermes 2026-07',
    messages: [{ role: 'user', content: body }],
    state: INITIAL_COMPRESSOR_STATE,
    skipped: null,
    notes: [],
    fates: new Uint8Array([0, 2, 2]),
    pinned: [],
    pruned: [],
    summaries: [
      { body, outputIndex: 0, span: { start: 1, end: 3, kind: 'middle' }, prompt: null, fallback: false },
    ],
    reattached: [],
    tokensBefore: 300,
    tokensAfter: 100,
    requestTokensBefore: 320,
    requestTokensAfter: 120,
    summarizerCalls: 1,
    warning: null,
    hermes: null,
    diff: {
      after: [],
      summarized: { start: 1, end: 3 },
      removed: [],
      counts: { kept: 1, changed: 0, summarized: 2, inserted: 1, removed: 0 },
    },
    assessment: {
      fidelity: { score: 0, total: 2, survived: 2 - lost.length, byKind: {} as never, lost: [...lost] },
      ledger: {} as never,
      cache: {} as never,
      missingPins: [],
      summaryMeasured: true,
    },
    summarizerLabel: 'Anthropic claude-sonnet-4',
    offline: false,
    elapsedMs: 1,
  };
}

const FACTS: Fact[] = [
  { kind: 'path', text: 'src/lexer.ts', display: 'src/lexer.ts', messageIndex: 1, count: 1 },
  { kind: 'error', text: 'keyerror: token', display: 'KeyError: token', messageIndex: 2, count: 1 },
];
const lostIn = (body: string): Fact[] => FACTS.filter((fact) => !body.toLowerCase().includes(fact.text));

function review(overrides: { debounceMs?: number } = {}) {
  const previews: string[][] = [];
  const decisions: ReviewOutcome[] = [];
  const state = new CompactionReviewState({
    title: '/compress',
    mode: 'in-place',
    original: compaction('Goal: fix the parser.', lostIn('Goal: fix the parser.')),
    note: null,
    preview: async (bodies) => {
      previews.push([...bodies]);
      return ok(compaction(bodies[0]!, lostIn(bodies[0]!)));
    },
    // One token per word: enough to tell the count follows the text.
    countTokens: async (text) => text.split(/\s+/).filter(Boolean).length,
    encoding: 'o200k_base',
    decide: async (outcome) => {
      decisions.push(outcome);
      return null;
    },
    debounceMs: overrides.debounceMs ?? 5,
  });
  return { state, previews, decisions };
}

describe('CompactionReviewState', () => {
  it('starts on the summariser’s text with its lost facts and an exact count', async () => {
    const { state } = review();
    expect(state.bodies).toEqual(['Goal: fix the parser.']);
    expect(state.lostFacts.map((fact) => fact.display)).toEqual(['src/lexer.ts', 'KeyError: token']);
    expect(state.edited).toBe(false);
    await vi.waitFor(() => expect(state.tokenCounts).toEqual([4]));
  });

  it('adds a lost fact to the summary in one click, and the recomputed preview no longer loses it', async () => {
    const { state, previews } = review();
    state.addFact(FACTS[0]!);
    expect(state.bodies).toEqual(['Goal: fix the parser.\n- src/lexer.ts']);
    expect(state.edited).toBe(true);
    await vi.waitFor(() => expect(state.lostFacts.map((fact) => fact.display)).toEqual(['KeyError: token']));
    expect(previews).toEqual([['Goal: fix the parser.\n- src/lexer.ts']]);
    await vi.waitFor(() => expect(state.tokenCounts).toEqual([6]));
  });

  it('recomputes once for a burst of edits, with the latest text', async () => {
    const { state, previews } = review({ debounceMs: 20 });
    state.edit(0, 'a');
    state.edit(0, 'ab');
    state.edit(0, 'abc KeyError: token');
    expect(state.previewing).toBe(true);
    await vi.waitFor(() => expect(state.previewing).toBe(false));
    expect(previews).toEqual([['abc KeyError: token']]);
    expect(state.lostFacts.map((fact) => fact.kind)).toEqual(['path']);
  });

  it('commits the bodies as edited, and discards without them', async () => {
    const committed = review();
    committed.state.edit(0, 'Edited summary.');
    await committed.state.commit();
    expect(committed.decisions).toEqual([{ kind: 'commit', bodies: ['Edited summary.'] }]);
    expect(committed.state.status).toBe('committed');
    committed.state.edit(0, 'too late');
    expect(committed.state.bodies).toEqual(['Edited summary.']);

    const discarded = review();
    await discarded.state.discard();
    expect(discarded.decisions).toEqual([{ kind: 'discard' }]);
    expect(discarded.state.open).toBe(false);
  });

  it('keeps the review open with the reason when the commit fails', async () => {
    const state = new CompactionReviewState({
      title: 'replay 1',
      mode: 'rotate',
      original: compaction('x', []),
      note: null,
      preview: async () => ok(compaction('x', [])),
      countTokens: async () => 1,
      encoding: 'o200k_base',
      decide: async () => 'Could not save: the session was already continued elsewhere',
    });
    await state.commit();
    expect(state.status).toBe('open');
    expect(state.commitError).toMatch(/already continued elsewhere/);
  });

  it('goes back to the summariser’s text', async () => {
    const { state } = review();
    state.edit(0, 'something else');
    state.reset();
    expect(state.bodies).toEqual(['Goal: fix the parser.']);
    expect(state.edited).toBe(false);
  });
});
