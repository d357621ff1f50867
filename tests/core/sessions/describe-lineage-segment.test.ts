import { describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX_2026_04, SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import {
  describeLineageSegment,
  SUMMARY_PREVIEW_MAX_CHARS,
} from '#core/sessions/describe-lineage-segment.ts';
import { estimateMessagesTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

describe('describeLineageSegment', () => {
  it('counts messages and rough tokens; a root without a summary has no preview', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Fix the login bug' },
      { role: 'assistant', content: 'Looking at auth.py now.' },
    ];
    expect(describeLineageSegment(messages, HERMES_2026_04)).toEqual({
      messageCount: 2,
      roughTokens: estimateMessagesTokensRough(messages, HERMES_2026_04),
      summaryIndex: null,
      summaryPreview: null,
    });
  });

  it('finds the newest summary of any Hermes generation and previews its body without the prefix', () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: `${SUMMARY_PREFIX_2026_04}\n## Active Task\nOld task` },
      { role: 'assistant', content: `${SUMMARY_PREFIX_2026_07}\n## Active Task\n  Ship   the fix` },
      { role: 'user', content: 'go on' },
    ];
    const description = describeLineageSegment(messages, HERMES_2026_04);
    expect(description.summaryIndex).toBe(2);
    expect(description.summaryPreview).toBe('## Active Task Ship the fix');
  });

  it('cuts a long summary preview with an ellipsis', () => {
    const body = 'word '.repeat(200);
    const preview = describeLineageSegment(
      [{ role: 'user', content: `${SUMMARY_PREFIX_2026_04}\n${body}` }],
      HERMES_2026_04,
    ).summaryPreview;
    expect(preview).toHaveLength(SUMMARY_PREVIEW_MAX_CHARS);
    expect(preview?.endsWith('…')).toBe(true);
  });
});
