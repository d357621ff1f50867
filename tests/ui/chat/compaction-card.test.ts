// @vitest-environment jsdom
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { CompactionReport } from '#state/chat-state.svelte.ts';
import CompactionCard from '#ui/chat/CompactionCard.svelte';

const skipped = (overrides: Partial<CompactionReport>): CompactionReport => ({
  reason: 'manual',
  outcome: 'skipped',
  reviewed: false,
  edited: false,
  tokensBefore: 377,
  tokensAfter: 377,
  messagesBefore: 7,
  messagesAfter: 7,
  summary: null,
  compressionCount: 0,
  warning: null,
  summarizerLabel: 'Anthropic claude-sonnet-4',
  usedFallback: false,
  summaryError: null,
  skippedReason: 'too-few-messages',
  notes: [],
  focusTopic: null,
  sessionId: 's1',
  sessionTitle: null,
  parentSessionId: 's1',
  assessment: null,
  ...overrides,
});

describe('CompactionCard', () => {
  it('says why a compaction changed nothing in the strategy’s words, not its reason code', () => {
    render(CompactionCard, {
      report: skipped({
        notes: ['Too few messages to compact: compress() returns the transcript unchanged.'],
      }),
    });
    expect(screen.getByTestId('chat-compaction').textContent).toContain(
      'Compaction (/compress) changed nothing.',
    );
    expect(screen.getByTestId('chat-compaction-why').textContent).toBe(
      'Too few messages to compact: compress() returns the transcript unchanged.',
    );
  });

  it('falls back on the summary error, then on the reason code', () => {
    const { unmount } = render(CompactionCard, {
      report: skipped({ outcome: 'aborted', summaryError: 'HTTP 529 overloaded', skippedReason: null }),
    });
    expect(screen.getByTestId('chat-compaction-why').textContent).toBe('HTTP 529 overloaded');
    unmount();
    render(CompactionCard, { report: skipped({}) });
    expect(screen.getByTestId('chat-compaction-why').textContent).toBe('Skipped (too-few-messages).');
  });
});
