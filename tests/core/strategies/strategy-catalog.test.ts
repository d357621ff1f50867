import { describe, expect, it } from 'vitest';
import { STRATEGY_PROFILES, findStrategyProfile } from '#core/strategies/strategy-catalog.ts';
import { STRATEGIES, strategyFor } from '#core/strategies/strategy-registry.ts';
import type { StrategyProfile } from '#core/strategies/strategy.ts';

const PROFILE_KEYS: readonly (keyof StrategyProfile)[] = [
  'name',
  'label',
  'summary',
  'description',
  'preset',
  'usesHermesSettings',
  'options',
  'regionLabels',
];

describe('the strategy catalog (the page) and the registry (the worker, the loop, the CLIs)', () => {
  it('list the same strategies in the same order', () => {
    expect(STRATEGY_PROFILES.map((profile) => profile.name)).toEqual(
      STRATEGIES.map((strategy) => strategy.name),
    );
  });

  it('describe each strategy with the very profile values its code runs with', () => {
    for (const strategy of STRATEGIES) {
      const profile = findStrategyProfile(strategy.name)!;
      for (const key of PROFILE_KEYS) expect(strategy[key], `${strategy.name}.${key}`).toBe(profile[key]);
      expect(strategyFor(profile)).toBe(strategy);
    }
  });

  it('carry no code in a profile', () => {
    for (const profile of STRATEGY_PROFILES) {
      expect(Object.values(profile).some((value) => typeof value === 'function')).toBe(false);
    }
  });

  it('refuse a profile no strategy is registered for', () => {
    const stray = { ...STRATEGY_PROFILES[0]!, name: 'no-such-strategy' };
    expect(() => strategyFor(stray)).toThrow('No strategy is registered for the profile "no-such-strategy".');
  });
});
