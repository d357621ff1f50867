import { describe, expect, it } from 'vitest';
import { isTooFewToCompress, protectHeadSize } from '#core/compression/protect-head-size.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const withSystem: Message[] = [
  { role: 'system', content: 's' },
  { role: 'user', content: 'u' },
];
const fresh = { protectFirstN: 3, compressionCount: 0, hasPreviousSummary: false };

describe('protectHeadSize', () => {
  it('counts the system message inside protect_first_n in 2026-04', () => {
    expect(protectHeadSize(withSystem, fresh, HERMES_2026_04)).toBe(3);
  });

  it('adds the system message on top of protect_first_n in 2026-07', () => {
    expect(protectHeadSize(withSystem, fresh, HERMES_2026_07)).toBe(4);
    expect(protectHeadSize(withSystem.slice(1), fresh, HERMES_2026_07)).toBe(3);
  });

  it('decays protect_first_n to 0 after the first compaction only in 2026-07', () => {
    const compacted = { ...fresh, compressionCount: 1 };
    expect(protectHeadSize(withSystem, compacted, HERMES_2026_07)).toBe(1);
    expect(protectHeadSize(withSystem, { ...fresh, hasPreviousSummary: true }, HERMES_2026_07)).toBe(1);
    expect(protectHeadSize(withSystem, compacted, HERMES_2026_04)).toBe(3);
  });
});

describe('isTooFewToCompress', () => {
  it('requires more than head + 3 + 1 messages', () => {
    expect(isTooFewToCompress(8, 4)).toBe(true);
    expect(isTooFewToCompress(9, 4)).toBe(false);
  });
});
