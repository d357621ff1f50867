// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { SessionRow } from '#state/conversation-entry.ts';
import type { LineageSegmentView } from '#state/sessions-state.svelte.ts';
import LineageView from '#ui/sessions/LineageView.svelte';

const row = (id: string, overrides: Partial<SessionRow> = {}): SessionRow => ({
  id,
  title: null,
  source: 'chat',
  model: 'claude-sonnet-4',
  parentSessionId: null,
  startedAt: Date.UTC(2026, 10, 22, 9, 0),
  endedAt: null,
  endReason: null,
  systemPrompt: null,
  compressionCount: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  apiCallCount: 0,
  estimatedCostUsd: 0,
  messageCount: 0,
  metadata: null,
  compressorState: null,
  provider: null,
  baseUrl: null,
  lastMessageAt: null,
  ...overrides,
});

const compacted = { endedAt: Date.UTC(2026, 10, 22, 9, 40), endReason: 'compression' };

const segments: LineageSegmentView[] = [
  {
    session: row('root', { title: 'Fix login', ...compacted }),
    number: 1,
    description: { messageCount: 45, roughTokens: 95_000, summaryIndex: null, summaryPreview: null },
  },
  {
    session: row('middle', {
      title: 'Fix login #2',
      parentSessionId: 'root',
      compressionCount: 1,
      ...compacted,
    }),
    number: 2,
    description: {
      messageCount: 12,
      roughTokens: 19_000,
      summaryIndex: 1,
      summaryPreview: '## Active Task Fix login',
    },
  },
  {
    session: row('tip', { title: 'Fix login #3', parentSessionId: 'middle', compressionCount: 2 }),
    number: 3,
    description: {
      messageCount: 8,
      roughTokens: 9_500,
      summaryIndex: 1,
      summaryPreview: '## Active Task Verify',
    },
  },
];

describe('LineageView', () => {
  it('shows the chain root → tip with a compaction point between each pair of segments', () => {
    const { getAllByTestId } = render(LineageView, { props: { segments, onOpen: () => {} } });
    const shown = getAllByTestId('lineage-segment');
    expect(shown.map((segment) => segment.dataset.sessionId)).toEqual(['root', 'middle', 'tip']);
    expect(shown[0]!.textContent).toContain('root');
    expect(shown[2]!.textContent).toContain('tip');
    expect(shown[2]!.textContent).toContain('live');
    const points = getAllByTestId('lineage-compaction');
    expect(points).toHaveLength(2);
    expect(points[0]!.textContent).toMatch(/45 messages, ~95K tokens\s*→ #2 starts with 12, ~19K\s*−80%/);
  });

  it('previews the summary each continuation opens with, and marks the session on screen', () => {
    const { getAllByTestId } = render(LineageView, {
      props: { segments, onOpen: () => {}, openSessionId: 'middle' },
    });
    expect(getAllByTestId('segment-summary').map((summary) => summary.textContent?.trim())).toEqual([
      '## Active Task Fix login',
      '## Active Task Verify',
    ]);
    expect(getAllByTestId('lineage-segment')[1]!.textContent).toContain('on screen');
  });

  it('opens any segment, and offers deleting one only when asked to', async () => {
    const onOpen = vi.fn();
    const onDeleteSegment = vi.fn();
    const { getAllByTestId, queryAllByTestId, rerender } = render(LineageView, {
      props: { segments, onOpen },
    });
    expect(queryAllByTestId('segment-delete')).toEqual([]);
    await fireEvent.click(getAllByTestId('segment-open')[1]!);
    expect(onOpen).toHaveBeenCalledWith('middle');
    await rerender({ segments, onOpen, onDeleteSegment });
    await fireEvent.click(getAllByTestId('segment-delete')[0]!);
    expect(onDeleteSegment).toHaveBeenCalledWith('root');
  });
});
