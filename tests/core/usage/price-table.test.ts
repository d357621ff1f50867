import { describe, expect, it } from 'vitest';
import {
  lookupListPrice,
  lookupSnapshotPrice,
  oneHourCacheWritePerMillion,
} from '#core/usage/price-table.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('lookupSnapshotPrice', () => {
  it('returns the exact Hermes snapshot row for the preset', () => {
    expect(lookupSnapshotPrice('anthropic', 'claude-sonnet-4-20250514', HERMES_2026_04)).toMatchObject({
      input: '3.00',
      cacheWrite: '3.75',
      pricingVersion: 'anthropic-prompt-caching-2026-03-16',
    });
  });

  it('knows the 4.5/4.6 generation only in 2026-07', () => {
    expect(lookupSnapshotPrice('anthropic', 'claude-opus-4-6', HERMES_2026_04)).toBeNull();
    expect(lookupSnapshotPrice('anthropic', 'claude-opus-4-6', HERMES_2026_07)?.input).toBe('5.00');
  });
});

describe('oneHourCacheWritePerMillion', () => {
  it('is twice the input price', () => {
    expect(
      oneHourCacheWritePerMillion(lookupSnapshotPrice('anthropic', 'claude-haiku-4-5', HERMES_2026_07)!),
    ).toBe(2);
  });
});

describe('lookupListPrice', () => {
  it('finds a model in any spelling', () => {
    expect(lookupListPrice('anthropic/claude-sonnet-4.5')?.output).toBe('15.00');
    expect(lookupListPrice('claude-haiku-4-5-20251001')?.input).toBe('1.00');
    expect(lookupListPrice('gpt-5-mini')?.input).toBe('0.25');
  });

  it('returns null for an unknown model', () => {
    expect(lookupListPrice('my-local-model')).toBeNull();
  });
});
