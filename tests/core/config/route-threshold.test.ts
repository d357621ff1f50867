import { describe, expect, it } from 'vitest';
import { applyRouteThresholdRules } from '#core/config/route-threshold.ts';

const on = { codexGpt55Autoraise: true };

describe('applyRouteThresholdRules', () => {
  it.each(['gpt-5.5', 'openai/gpt-5.4', 'GPT-5.6-codex', 'gpt-5.5.1', 'gpt-5.3-codex-spark'])(
    'raises %s on the Codex OAuth route to 85%%',
    (model) => {
      const result = applyRouteThresholdRules(0.5, { provider: 'openai-codex', model }, on);
      expect(result.thresholdPercent).toBe(0.85);
      expect(result.reason).toContain('50% to 85%');
    },
  );

  it('recognises the route id as well as the provider name', () => {
    expect(
      applyRouteThresholdRules(0.5, { provider: null, model: 'gpt-5.5', route: 'codex-oauth' }, on)
        .thresholdPercent,
    ).toBe(0.85);
  });

  it('leaves other providers, other models and context variants alone', () => {
    expect(applyRouteThresholdRules(0.5, { provider: 'openrouter', model: 'gpt-5.5' }, on)).toEqual({
      thresholdPercent: 0.5,
      reason: null,
    });
    expect(
      applyRouteThresholdRules(0.5, { provider: 'openai-codex', model: 'gpt-5.3' }, on).reason,
    ).toBeNull();
    expect(
      applyRouteThresholdRules(0.5, { provider: 'openai-codex', model: 'gpt-5.5-900k' }, on).reason,
    ).toBeNull();
  });

  it('only ever raises the percentage', () => {
    expect(applyRouteThresholdRules(0.9, { provider: 'openai-codex', model: 'gpt-5.5' }, on)).toEqual({
      thresholdPercent: 0.9,
      reason: null,
    });
  });

  it('does nothing when compression.codex_gpt55_autoraise is off', () => {
    const result = applyRouteThresholdRules(
      0.5,
      { provider: 'openai-codex', model: 'gpt-5.5' },
      { codexGpt55Autoraise: false },
    );
    expect(result).toEqual({ thresholdPercent: 0.5, reason: null });
  });
});
