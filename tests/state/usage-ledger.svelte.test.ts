// @vitest-environment jsdom
// Runes effects run only in the client build of Svelte, which the jsdom environment selects.
/**
 * The usage panel's compaction ledger against a real chat (the runtime, fake-indexeddb, the mock
 * provider): one row per compaction of the conversation and its chain, whose billed summariser
 * dollars add up to the compaction cost the panel's totals show from the usage records.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import type { CompactionDraft, ReviewDecision } from '#io/runtime/compaction-review.ts';
import { inProcessStoredSessions } from '#tests/helpers/in-process-stored-sessions.ts';
import { SessionsState } from '#state/sessions-state.svelte.ts';
import { UsageState } from '#state/usage-state.svelte.ts';
import { createRuntimeFixture, noAbort } from '#tests/io/runtime/runtime-fixture.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';

const provider = useMockProvider();
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const question = (turn: number): string =>
  `Turn ${turn}: reconcile invoice batch ${turn} against the ledger. ${'Each row needs a currency check. '.repeat(40)}`;

describe('UsageState ledger', () => {
  for (const mode of ['rotate', 'in-place'] as const)
    it(`has one row per compaction, and its billed summary dollars add up to the compaction cost (${mode})`, async () => {
      // Discard the first /compress, commit every later one.
      const decisions: Array<ReviewDecision['kind']> = ['discard', 'commit', 'commit'];
      const fixture = createRuntimeFixture({
        label: `usage-ledger-${mode}`,
        mock: provider.mock(),
        preset: HERMES_2026_04,
        overrides: {
          reviewer: async (draft: CompactionDraft) =>
            decisions.shift() === 'discard'
              ? { kind: 'discard' }
              : { kind: 'commit', bodies: draft.result.summaries.map((summary) => summary.body) },
        },
      });
      fixture.settings = { ...fixture.settings, compactionMode: mode };
      let turn = 0;
      for (const _round of [1, 2, 3]) {
        for (let index = 0; index < 6; index++)
          expect((await fixture.runtime.sendUserMessage(question(++turn), noAbort())).outcome).toBe(
            'completed',
          );
        expect((await fixture.runtime.sendUserMessage('/compress', noAbort())).outcome).toBe('completed');
      }
      const outcomes = fixture.eventsOf('compaction-end').map((event) => event.outcome);
      expect(outcomes).toEqual([
        'discarded',
        ...Array<string>(2).fill(mode === 'in-place' ? 'in-place' : 'rotated'),
      ]);

      const { repository } = fixture;
      const sessions = new SessionsState({
        repository,
        preset: () => HERMES_2026_04,
        stored: inProcessStoredSessions(repository),
        openInWorkspace: async () => true,
      });
      const usage = new UsageState({ repository, sessions, preset: () => HERMES_2026_04 });
      const stop = $effect.root(() => {
        $effect(() => {
          void usage.view;
        });
      });
      cleanups.push(stop);
      await vi.waitFor(() => expect(usage.view?.ledger.rows).toHaveLength(3));
      const view = usage.view!;
      expect(view.ledger.rows.map((row) => [row.epochNumber, row.status, row.billed])).toEqual([
        [null, 'not-applied', true],
        [1, 'applied', true],
        [2, 'applied', true],
      ]);
      const totals = view.totals.total;
      expect(totals.compactionCalls).toBe(3);
      expect(totals.compactionCostUsd).toBeGreaterThan(0);
      // The epochs' ledgers were priced from the provider's usage when they happened; the totals
      // price the stored usage records now. Both must tell the same bill.
      expect(view.ledger.billedSummaryUsd).toBeCloseTo(totals.compactionCostUsd, 10);
      expect(view.ledger.complete).toBe(true);
      for (const row of view.ledger.rows.filter((entry) => entry.epochNumber !== null)) {
        expect(row.summaryUsd).toBeGreaterThan(0);
        expect(row.cacheRewriteTokens).not.toBeNull();
        expect(row.savedTokensPerTurn).toBeGreaterThan(0);
      }
    });
});
