import { describe, expect, it } from 'vitest';
import {
  formatLcmSummary,
  lcmSummaryDepth,
  parseLcmSummary,
  type LcmSummaryWrapper,
} from '#core/strategies/lcm-summary-wrapper.ts';

const LEAF: LcmSummaryWrapper = {
  id: 'c2-leaf-3',
  kind: 'leaf',
  depth: 0,
  firstMessage: 120,
  lastMessage: 171,
  descendants: 0,
  earliestAt: '2026-10-01T09:00:00Z',
  latestAt: null,
  body: "## Requests\n- 'Fix the login test'\n\nExpand for details about: nothing, this line is part of the body",
  expandFor: 'the exact text of messages #120–#171.',
};

describe('lcm summary wrapper', () => {
  it('writes the attributes, the body and the footer', () => {
    const text = formatLcmSummary(LEAF);
    expect(text.split('\n')[0]).toBe(
      '<summary id="c2-leaf-3" kind="leaf" depth="0" messages="#120–#171" earliest_at="2026-10-01T09:00:00Z">',
    );
    expect(
      text.endsWith('\n\nExpand for details about: the exact text of messages #120–#171.\n</summary>'),
    ).toBe(true);
    expect(formatLcmSummary({ ...LEAF, kind: 'condensed', depth: 1, descendants: 8 })).toContain(
      'depth="1" messages="#120–#171" descendants="8"',
    );
  });

  it('reads its own summaries back, body intact even when it holds a footer-like line', () => {
    const message = { role: 'user', content: formatLcmSummary(LEAF) };
    expect(parseLcmSummary(message)).toEqual({ id: 'c2-leaf-3', kind: 'leaf', depth: 0, body: LEAF.body });
    expect(lcmSummaryDepth(message)).toBe(0);
    expect(
      lcmSummaryDepth({ role: 'user', content: formatLcmSummary({ ...LEAF, kind: 'condensed', depth: 1 }) }),
    ).toBe(1);
  });

  it('takes nothing else for a summary', () => {
    const text = formatLcmSummary(LEAF);
    expect(parseLcmSummary({ role: 'assistant', content: text })).toBeNull();
    expect(parseLcmSummary({ role: 'user', content: text.slice(0, -3) })).toBeNull();
    expect(parseLcmSummary({ role: 'user', content: '<summary>free text</summary>' })).toBeNull();
    expect(lcmSummaryDepth({ role: 'user', content: 'Please summarise this file' })).toBe(-1);
  });
});
