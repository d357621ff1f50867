// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import type { Fact } from '#core/fidelity/fact.ts';
import type { LabCompression } from '#core/lab/lab-compression.ts';
import { ok } from '#core/shared/result.ts';
import {
  CompactionReviewState,
  type CompactionReviewSource,
  type ReviewOutcome,
} from '#state/compaction-review-state.svelte.ts';
import CompactionReviewPanel from '#ui/fidelity/CompactionReviewPanel.svelte';

const LOST: Fact = { kind: 'path', text: 'src/lexer.ts', display: 'src/lexer.ts', messageIndex: 3, count: 1 };
const zero = { total: 0, survived: 0, score: 1 };

function compaction(body: string): LabCompression {
  return {
    strategy: 'hermes-2026-07',
    strategyLabel: 'Hermes 2026-07',
    messages: [{ role: 'user', content: body }],
    state: INITIAL_COMPRESSOR_STATE,
    skipped: null,
    notes: [],
    fates: new Uint8Array([0, 2, 2, 2]),
    pinned: [],
    pruned: [],
    summaries: [
      { body, outputIndex: 0, span: { start: 1, end: 4, kind: 'middle' }, prompt: null, fallback: false },
    ],
    reattached: [],
    tokensBefore: 400,
    tokensAfter: 90,
    requestTokensBefore: 420,
    requestTokensAfter: 110,
    summarizerCalls: 1,
    warning: null,
    hermes: null,
    diff: {
      after: [],
      summarized: { start: 1, end: 4 },
      removed: [],
      counts: { kept: 1, changed: 0, summarized: 3, inserted: 1, removed: 0 },
    },
    assessment: {
      fidelity: {
        score: body.includes('src/lexer.ts') ? 1 : 0,
        total: 1,
        survived: body.includes('src/lexer.ts') ? 1 : 0,
        byKind: {
          path: { total: 1, survived: 0, score: 0 },
          error: zero,
          identifier: zero,
          command: zero,
          url: zero,
          ask: zero,
          decision: zero,
        },
        lost: body.includes('src/lexer.ts') ? [] : [LOST],
      },
      ledger: {
        summaryInputTokens: 300,
        summaryOutputTokens: 40,
        summaryUsd: 0.0015,
        cacheRewriteTokens: 90,
        cacheRewriteUsd: 0.0003,
        savedTokensPerTurn: 310,
        savedUsdPerTurn: 0.0001,
        firstTurnSavedUsd: 0.0001,
        costUsd: 0.0018,
        breakEvenTurn: 18,
        priced: true,
        notes: [],
      },
      cache: {
        tokensBefore: 420,
        tokensAfter: 110,
        cachedTokensBefore: 400,
        cachedTokensAfter: 20,
        rewriteTokens: 90,
        source: 'usage',
      },
      missingPins: [],
      summaryMeasured: true,
    },
    summarizerLabel: 'Anthropic claude-sonnet-4',
    offline: false,
    elapsedMs: 1,
  };
}

/** A review of `compaction(body)` whose decisions are recorded; `overrides` set the rest. */
function reviewOf(
  body: string,
  overrides: Partial<CompactionReviewSource> = {},
): { review: CompactionReviewState; decisions: ReviewOutcome[] } {
  const decisions: ReviewOutcome[] = [];
  const review = new CompactionReviewState({
    title: '/compress',
    mode: 'rotate',
    original: compaction(body),
    note: null,
    preview: async (bodies) => ok(compaction(bodies[0]!)),
    countTokens: async () => 1,
    encoding: 'o200k_base',
    decide: async (outcome) => {
      decisions.push(outcome);
      return null;
    },
    ...overrides,
  });
  return { review, decisions };
}

describe('CompactionReviewPanel', () => {
  it('edits the summary, puts a lost fact back with one click, and commits what is shown', async () => {
    const { review, decisions } = reviewOf('Goal: fix the parser.', {
      mode: 'in-place',
      countTokens: async (text) => text.length,
      debounceMs: 1,
    });
    render(CompactionReviewPanel, { review });
    const editor = screen.getByTestId<HTMLTextAreaElement>('summary-editor');
    expect(editor.value).toBe('Goal: fix the parser.');
    await vi.waitFor(() => expect(screen.getByTestId('summary-token-count').dataset.tokens).toBe('21'));
    expect(screen.getByTestId('compaction-ledger').dataset.breakEven).toBe('18');
    expect(screen.getAllByTestId('lost-fact').map((item) => item.textContent)).toEqual([
      expect.stringContaining('src/lexer.ts'),
    ]);

    await fireEvent.click(screen.getByTestId('lost-fact-add'));
    expect(editor.value).toBe('Goal: fix the parser.\n- src/lexer.ts');
    await vi.waitFor(() => expect(screen.queryAllByTestId('lost-fact')).toHaveLength(0));
    expect(screen.getByTestId('compaction-review').dataset.edited).toBe('true');

    await fireEvent.click(screen.getByTestId('compaction-commit'));
    expect(decisions).toEqual([{ kind: 'commit', bodies: ['Goal: fix the parser.\n- src/lexer.ts'] }]);
  });

  it('says when the compaction cannot wait, and discards', async () => {
    const { review, decisions } = reviewOf('x', {
      title: 'compaction after an overflow',
      note: 'The provider refused the request: it does not fit the context window.',
      encoding: 'cl100k_base',
    });
    render(CompactionReviewPanel, { review });
    expect(screen.getByTestId('compaction-review-note').textContent).toMatch(
      /does not fit the context window/,
    );
    await fireEvent.click(screen.getByTestId('compaction-discard'));
    expect(decisions).toEqual([{ kind: 'discard' }]);
  });

  it('brings itself into view when it opens, without taking the focus', () => {
    const scrolled: Element[] = [];
    const original = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollIntoView');
    // jsdom lays nothing out and has no scrollIntoView: record the calls.
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      const { review } = reviewOf('x', { title: 'replay 1' });
      const input = document.createElement('input');
      document.body.append(input);
      input.focus();
      render(CompactionReviewPanel, { review });
      expect(scrolled).toEqual([screen.getByTestId('compaction-review')]);
      expect(document.activeElement).toBe(input);
      input.remove();
    } finally {
      if (original) Object.defineProperty(Element.prototype, 'scrollIntoView', original);
      else delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });
});
