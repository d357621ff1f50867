// @vitest-environment jsdom
// Runes effects run only in the client build of Svelte, which the jsdom environment selects.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CanonicalUsage } from '#core/usage/canonical-usage.ts';
import { SessionsState } from '#state/sessions-state.svelte.ts';
import { UsageState } from '#state/usage-state.svelte.ts';
import { openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { inProcessStoredSessions } from '#tests/helpers/in-process-stored-sessions.ts';
import { storeChain } from './sessions-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const usage = (overrides: Partial<CanonicalUsage>): CanonicalUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  requestCount: 1,
  ...overrides,
});

async function harness(label: string) {
  const { db, repository } = openFixtureRepository(label);
  const chain = await storeChain(repository);
  const sessions = new SessionsState({
    repository,
    stored: inProcessStoredSessions(repository),
    preset: () => HERMES_2026_04,
    openInWorkspace: async () => true,
  });
  const state = new UsageState({ repository, sessions, preset: () => HERMES_2026_04 });
  const stop = $effect.root(() => {
    $effect(() => {
      void state.view;
      void state.candidates;
    });
  });
  cleanups.push(() => {
    stop();
    db.close();
  });
  return { db, repository, chain, sessions, state };
}

describe('UsageState', () => {
  it('has nothing to show before any usage is recorded', async () => {
    const { state, sessions } = await harness('usage-empty');
    await vi.waitFor(() => expect(sessions.conversations).toHaveLength(2));
    expect(state.candidates).toEqual([]);
    expect(state.conversationId).toBeNull();
    expect(state.view).toBeNull();
    expect(state.loaded).toBe(true);
  });

  it('turns recorded usage into per-turn points, compaction markers and lineage totals, live', async () => {
    const { state, chain, repository } = await harness('usage-chain');
    const model = 'claude-sonnet-4-20250514';
    await repository.addUsage(
      chain.rootId,
      usage({ inputTokens: 1000, cacheWriteTokens: 4000, outputTokens: 100 }),
      0,
      model,
    );
    await repository.addUsage(
      chain.rootId,
      usage({ inputTokens: 200, cacheReadTokens: 4800, outputTokens: 80 }),
      0,
      model,
    );
    await repository.addUsage(chain.rootId, usage({ inputTokens: 6000, outputTokens: 500 }), 0, model, {
      compaction: true,
    });
    await repository.addUsage(
      chain.tipId,
      usage({ inputTokens: 300, cacheWriteTokens: 1700, outputTokens: 50 }),
      0,
      model,
    );
    await vi.waitFor(() => expect(state.view?.turns).toHaveLength(4));
    const view = state.view!;
    expect(state.conversationId).toBe(chain.rootId);
    expect(view.chain.map((row) => row.id)).toEqual([chain.rootId, chain.middleId, chain.tipId]);
    expect(view.series.points.map((point) => [point.turn, point.cacheHitRate, point.segmentIndex])).toEqual([
      [1, 0, 0],
      [2, 0.96, 0],
      [3, 0, 2],
    ]);
    expect(
      view.series.markers.map((marker) => [
        marker.afterTurn,
        marker.summaryCalls.length,
        marker.continuation?.segmentIndex,
      ]),
    ).toEqual([[2, 1, 2]]);
    expect(view.totals.total).toMatchObject({
      turns: 3,
      compactionCalls: 1,
      inputTokens: 7500,
      costComplete: true,
    });
    // Sonnet 4: (7500×3 + 730×15 + 4800×0.3 + 5700×3.75) / 1e6
    expect(view.totals.total.costUsd).toBeCloseTo((7500 * 3 + 730 * 15 + 4800 * 0.3 + 5700 * 3.75) / 1e6, 9);
    expect(view.totals.bySession.map((entry) => entry.totals.requestCount)).toEqual([3, 0, 1]);

    await repository.addUsage(chain.tipId, usage({ inputTokens: 100, cacheReadTokens: 1900 }), 0, model);
    await vi.waitFor(() => expect(state.view?.series.points).toHaveLength(4));
  });

  it('shows the conversation asked for', async () => {
    const { state, chain, repository } = await harness('usage-pick');
    await repository.addUsage(chain.loneId, usage({ inputTokens: 10 }), 0, 'gpt-4o');
    await repository.addUsage(chain.middleId, usage({ inputTokens: 20 }), 0, 'gpt-4o');
    await vi.waitFor(() => expect(state.candidates).toHaveLength(2));
    state.show(chain.loneId);
    await vi.waitFor(() => expect(state.view?.chain.map((row) => row.id)).toEqual([chain.loneId]));
    state.show(chain.tipId);
    await vi.waitFor(() => expect(state.conversationId).toBe(chain.rootId));
    await vi.waitFor(() => expect(state.view?.turns.map((turn) => turn.inputTokens)).toEqual([20]));
  });
});
