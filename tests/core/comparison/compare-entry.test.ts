import { describe, expect, it } from 'vitest';
import { describeOverrides, entryConfig, entryLabel } from '#core/comparison/compare-entry.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { findStrategy } from '#core/strategies/strategy-registry.ts';

describe('compare entries', () => {
  const base = { ...DEFAULT_COMPRESSION_CONFIG, strategyOptions: { 'codex.userMessageTokens': 5000 } };

  it('lays overrides over the base settings, strategy options merged', () => {
    const config = entryConfig(base, {
      strategy: 'codex-cli',
      config: { thresholdPercent: 0.75 },
      strategyOptions: { 'codex.triggerPercent': 80 },
    });
    expect(config.thresholdPercent).toBe(0.75);
    expect(config.contextLength).toBe(base.contextLength);
    expect(config.strategyOptions).toEqual({ 'codex.userMessageTokens': 5000, 'codex.triggerPercent': 80 });
  });

  it('names an entry by its strategy and overrides unless it has a label', () => {
    const hermes = findStrategy('hermes-2026-04')!;
    const codex = findStrategy('codex-cli')!;
    expect(entryLabel(hermes, { strategy: hermes.name })).toBe('Hermes (2026-04)');
    expect(entryLabel(hermes, { strategy: hermes.name, config: { thresholdPercent: 0.75 } })).toBe(
      'Hermes (2026-04) (threshold 75%)',
    );
    expect(
      describeOverrides(codex, { strategy: codex.name, strategyOptions: { 'codex.triggerPercent': 80 } }),
    ).toEqual(['Auto-compact at 80%']);
    expect(entryLabel(codex, { strategy: codex.name, label: '  Codex early  ' })).toBe('Codex early');
  });
});
