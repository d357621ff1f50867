/**
 * Review before commit, undo and redo in the live loop (issue 15), against the mock provider:
 * the reviewer sees the summary with its fidelity and ledger, an edited summary is committed
 * through the same compaction and is what the next request carries, a discarded one changes
 * nothing, and undo/redo move the conversation between the two histories.
 */
import { describe, expect, it } from 'vitest';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import type { CompactionMode } from '#core/sessions/compaction-mode.ts';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';
import type { CompactionDraft, ReviewDecision } from '#io/runtime/compaction-review.ts';
import { openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import {
  chatRequests,
  createRuntimeFixture,
  noAbort,
  requestText,
  summaryRequests,
} from './runtime-fixture.ts';

const provider = useMockProvider();

const question = (turn: number): string =>
  `Turn ${turn}: the parser in src/parser/lexer_${turn}.ts fails with KeyError: token_${turn}. ` +
  'It reads invoices and writes ledger rows. '.repeat(30);

/** A reviewer the test drives: it records each draft and waits for the test's decision. */
function controlledReviewer() {
  const drafts: CompactionDraft[] = [];
  const waiting: Array<(decision: ReviewDecision) => void> = [];
  let onDraft: (() => void) | null = null;
  return {
    drafts,
    reviewer: (draft: CompactionDraft): Promise<ReviewDecision> => {
      drafts.push(draft);
      const decided = new Promise<ReviewDecision>((resolve) => waiting.push(resolve));
      const notify = onDraft;
      onDraft = null;
      notify?.();
      return decided;
    },
    /** Resolves once a draft is waiting. */
    nextDraft: (): Promise<CompactionDraft> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (waiting.length > 0) resolve(drafts[drafts.length - 1]!);
          else onDraft = check;
        };
        check();
      }),
    decide: (decision: ReviewDecision): void => waiting.shift()!(decision),
  };
}

async function conversationWithReviewer(label: string, mode: CompactionMode, turns = 12) {
  const review = controlledReviewer();
  const fixture = createRuntimeFixture({
    label,
    mock: provider.mock(),
    preset: mode === 'in-place' ? HERMES_2026_07 : HERMES_2026_04,
    overrides: { reviewer: review.reviewer },
  });
  fixture.settings = { ...fixture.settings, compactionMode: mode };
  for (let turn = 1; turn <= turns; turn++)
    expect((await fixture.runtime.sendUserMessage(question(turn), noAbort())).outcome).toBe('completed');
  fixture.events.length = 0;
  return { fixture, review, rootId: fixture.runtime.sessionId! };
}

describe('review before commit', () => {
  for (const mode of ['in-place', 'rotate'] as const)
    it(`commits an edited summary through the same compaction, and the next request carries it (${mode})`, async () => {
      const { fixture, review, rootId } = await conversationWithReviewer(`review-edit-${mode}`, mode);
      const original = fixture.runtime.messages;
      const pending = fixture.runtime.sendUserMessage('/compress', noAbort());
      const draft = await review.nextDraft();
      expect(draft).toMatchObject({
        reason: 'manual',
        mode,
        sessionId: rootId,
        mustCompact: false,
        note: null,
      });
      expect(draft.transcript).toEqual(original);
      expect(draft.result.summaries).toHaveLength(1);
      expect(draft.result.assessment?.summaryMeasured).toBe(true);
      expect(draft.result.assessment?.ledger.summaryInputTokens).toBeGreaterThan(0);
      // Nothing is stored while the review is open.
      expect(await fixture.repository.loadMessages(rootId)).toEqual(original);
      expect(await fixture.repository.listConversationCompactions(rootId)).toEqual([]);

      const edited = `${draft.result.summaries[0]!.body}\nREVIEWED-BY-A-HUMAN: keep the lexer fix.`;
      const preview = await draft.preview([edited]);
      expect(preview.ok && preview.value.summaries[0]!.body).toBe(edited);
      review.decide({ kind: 'commit', bodies: [edited] });
      expect(await pending).toEqual({ outcome: 'completed', message: null });

      const [end] = fixture.eventsOf('compaction-end');
      expect(end).toMatchObject({
        outcome: mode === 'in-place' ? 'in-place' : 'rotated',
        reviewed: true,
        edited: true,
        summary: edited,
      });
      const epochs = await fixture.repository.listConversationCompactions(rootId);
      expect(epochs).toHaveLength(1);
      expect(epochs[0]).toMatchObject({ mode, status: 'applied', reviewed: true, reason: 'manual' });
      expect(epochs[0]!.summaries).toEqual([expect.objectContaining({ body: edited, edited: true })]);
      // The summariser call was billed and belongs to this attempt.
      const events = await fixture.repository.listUsageEvents(
        (await fixture.repository.lineageRootToTip(fixture.runtime.sessionId!)).map((row) => row.id),
      );
      const summaryEvents = events.filter((event) => event.compaction);
      expect(summaryEvents).toHaveLength(1);
      expect(summaryEvents[0]!.compactionId).toBe(epochs[0]!.attemptId);

      const before = chatRequests(provider.mock()).length;
      expect((await fixture.runtime.sendUserMessage('After the review', noAbort())).outcome).toBe(
        'completed',
      );
      const sent = chatRequests(provider.mock()).slice(before);
      expect(sent).toHaveLength(1);
      expect(requestText(sent[0]!.body)).toContain('REVIEWED-BY-A-HUMAN');
      expect(requestText(sent[0]!.body)).not.toContain('Turn 5: the parser');
    });

  it('stores nothing when the summary is discarded, but bills the summary call', async () => {
    const { fixture, review, rootId } = await conversationWithReviewer('review-discard', 'in-place');
    const rows = await fixture.repository.loadMessages(rootId);
    const pending = fixture.runtime.sendUserMessage('/compress', noAbort());
    await review.nextDraft();
    review.decide({ kind: 'discard' });
    expect(await pending).toEqual({
      outcome: 'completed',
      message: 'The compaction was discarded; nothing changed.',
    });
    expect(fixture.eventsOf('compaction-end')).toEqual([
      expect.objectContaining({ outcome: 'discarded', reviewed: true }),
    ]);
    expect(await fixture.repository.loadMessages(rootId)).toEqual(rows);
    expect(await fixture.repository.listConversationCompactions(rootId)).toEqual([]);
    expect(
      (await fixture.repository.listUsageEvents(rootId)).filter((event) => event.compaction),
    ).toHaveLength(1);
    expect(summaryRequests(provider.mock())).toHaveLength(1);
  });

  it('lets a reviewer put a lost fact back: the preview then keeps it', async () => {
    const { fixture, review } = await conversationWithReviewer('review-add-fact', 'in-place');
    const pending = fixture.runtime.sendUserMessage('/compress', noAbort());
    const draft = await review.nextDraft();
    const lost = draft.result.assessment!.fidelity.lost;
    expect(lost.length).toBeGreaterThan(0);
    const fact = lost[0]!;
    const body = `${draft.result.summaries[0]!.body}\n- ${fact.display}`;
    const preview = await draft.preview([body]);
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    const after = preview.value.assessment!.fidelity;
    expect(after.lost.map((entry) => entry.text)).not.toContain(fact.text);
    // At least that fact survives now (its text can carry others along, a path its file name).
    expect(after.survived).toBeGreaterThan(draft.result.assessment!.fidelity.survived);
    expect(after.total).toBe(draft.result.assessment!.fidelity.total);
    // The edit does not make the call free: the ledger still pays for the summary.
    expect(preview.value.assessment!.ledger.summaryInputTokens).toBe(
      draft.result.assessment!.ledger.summaryInputTokens,
    );
    review.decide({ kind: 'discard' });
    await pending;
  });

  it('reviews automatic compactions when the setting is on; the conversation stays readable and the request waits', async () => {
    const review = controlledReviewer();
    const fixture = createRuntimeFixture({
      label: 'review-automatic',
      mock: provider.mock(),
      preset: HERMES_2026_07,
      contextLength: 32_000,
      overrides: { reviewer: review.reviewer },
    });
    fixture.settings = { ...fixture.settings, reviewCompactions: true };
    let turn = 0;
    let pending: Promise<unknown> | null = null;
    const long = (index: number): string => `${question(index)} ${'More ledger detail. '.repeat(200)}`;
    while (pending === null && turn < 40) {
      turn += 1;
      const sending = fixture.runtime.sendUserMessage(long(turn), noAbort());
      const settled = await Promise.race([
        sending.then(() => 'done'),
        review.nextDraft().then(() => 'review'),
      ]);
      if (settled === 'review') pending = sending;
    }
    expect(pending).not.toBeNull();
    const draft = review.drafts.at(-1)!;
    expect(['hygiene', 'preflight', 'pre-api']).toContain(draft.reason);
    expect(draft.mode).toBe('in-place');
    // Readable meanwhile: the stored conversation, the new question included, is what the runtime shows.
    expect(fixture.runtime.messages.at(-1)).toEqual({ role: 'user', content: long(turn) });
    const requests = chatRequests(provider.mock()).length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(chatRequests(provider.mock()).length).toBe(requests);
    review.decide({ kind: 'commit', bodies: draft.result.summaries.map((summary) => summary.body) });
    expect(await pending).toEqual({ outcome: 'completed', message: null });
    expect(chatRequests(provider.mock()).length).toBe(requests + 1);
    expect(fixture.eventsOf('compaction-end').at(-1)).toMatchObject({ outcome: 'in-place', edited: false });
  });

  it('says an overflow cannot wait, and ends the turn unsent when it is discarded', async () => {
    const review = controlledReviewer();
    const fixture = createRuntimeFixture({
      label: 'review-overflow',
      mock: provider.mock(),
      preset: HERMES_2026_07,
      overrides: { reviewer: review.reviewer },
    });
    fixture.settings = { ...fixture.settings, reviewCompactions: true };
    for (let turn = 1; turn <= 12; turn++) await fixture.runtime.sendUserMessage(question(turn), noAbort());
    provider.mock().script([{ kind: 'context-overflow', contextWindow: 30_000, inputTokens: 40_000 }]);
    const pending = fixture.runtime.sendUserMessage('One more', noAbort());
    const draft = await review.nextDraft();
    expect(draft).toMatchObject({ reason: 'overflow', mustCompact: true });
    expect(draft.note).toMatch(/cannot be sent until a compaction is committed/);
    review.decide({ kind: 'discard' });
    const result = await pending;
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(/discarded, and the request does not fit the context window/);
    expect((await fixture.repository.loadMessages(fixture.runtime.sessionId!)).at(-1)).toEqual({
      role: 'user',
      content: 'One more',
    });
  });
});

describe('undo and redo in the live loop', () => {
  for (const mode of ['in-place', 'rotate'] as const)
    it(`undo restores the original history for the next request and redo re-applies the summary (${mode})`, async () => {
      const { fixture, review, rootId } = await conversationWithReviewer(`undo-${mode}`, mode);
      const original = fixture.runtime.messages;
      const pending = fixture.runtime.sendUserMessage('/compress', noAbort());
      const draft = await review.nextDraft();
      const edited = `${draft.result.summaries[0]!.body}\nEDITED-SUMMARY-MARK`;
      review.decide({ kind: 'commit', bodies: [edited] });
      await pending;
      await fixture.runtime.sendUserMessage('Question after the compaction', noAbort());
      const compacted = fixture.runtime.messages;

      const history = (await fixture.runtime.compactionHistory())!;
      expect(history.undo).toMatchObject({ number: 1, mode, status: 'applied' });
      expect(history.redo).toBeNull();
      expect((await fixture.runtime.undoCompaction(history.undo!.id)).outcome).toBe('completed');
      expect(fixture.runtime.sessionId).toBe(rootId);
      expect(fixture.runtime.messages).toEqual([...original, ...compacted.slice(-2)]);
      expect(fixture.runtime.compressorState.compressionCount).toBe(0);

      const before = chatRequests(provider.mock()).length;
      await fixture.runtime.sendUserMessage('Question after the undo', noAbort());
      const afterUndo = requestText(chatRequests(provider.mock())[before]!.body);
      expect(afterUndo).toContain('Turn 5: the parser');
      expect(afterUndo).not.toContain('EDITED-SUMMARY-MARK');
      expect(afterUndo).toContain('Question after the compaction');

      const redoTarget = (await fixture.runtime.compactionHistory())!.redo!;
      expect((await fixture.runtime.redoCompaction(redoTarget.id)).outcome).toBe('completed');
      expect(fixture.runtime.compressorState.compressionCount).toBe(1);
      await fixture.runtime.sendUserMessage('Question after the redo', noAbort());
      const afterRedo = requestText(chatRequests(provider.mock()).at(-1)!.body);
      expect(afterRedo).toContain('EDITED-SUMMARY-MARK');
      expect(afterRedo).not.toContain('Turn 5: the parser');
      expect(afterRedo).toContain('Question after the undo');
      // Survives a reload: a new tab resuming the conversation lands on the same history.
      const reopened = createRuntimeFixture({
        label: `undo-${mode}-reload`,
        mock: provider.mock(),
        repository: fixture.repository,
      });
      await reopened.runtime.resume(rootId);
      expect(reopened.runtime.messages).toEqual(fixture.runtime.messages);
    });

  it('never undoes twice from two tabs showing the same epoch', async () => {
    const { repository } = openFixtureRepository('undo-two-tabs');
    const locks = new InMemoryLockManager();
    const first = createRuntimeFixture({
      label: 'undo-tab-1',
      mock: provider.mock(),
      repository,
      locks,
      preset: HERMES_2026_07,
    });
    for (let turn = 1; turn <= 12; turn++) await first.runtime.sendUserMessage(question(turn), noAbort());
    await first.runtime.sendUserMessage('/compress', noAbort());
    await first.runtime.sendUserMessage('between', noAbort());
    await first.runtime.sendUserMessage('/compress', noAbort());
    const second = createRuntimeFixture({
      label: 'undo-tab-2',
      mock: provider.mock(),
      repository,
      locks,
      preset: HERMES_2026_07,
    });
    await second.runtime.resume(first.runtime.sessionId!);
    const shownInFirst = (await first.runtime.compactionHistory())!.undo!;
    const shownInSecond = (await second.runtime.compactionHistory())!.undo!;
    expect(shownInSecond.id).toBe(shownInFirst.id);
    const results = await Promise.all([
      first.runtime.undoCompaction(shownInFirst.id),
      second.runtime.undoCompaction(shownInSecond.id),
    ]);
    expect(results.map((result) => result.outcome).sort()).toEqual(['completed', 'failed']);
    const statuses = (await repository.listConversationCompactions(first.runtime.sessionId!)).map(
      (epoch) => epoch.status,
    );
    expect(statuses).toEqual(['applied', 'undone']);
    // The tab that lost moves to the restored history with its next message.
    const loser = results[0].outcome === 'completed' ? second : first;
    expect((await loser.runtime.sendUserMessage('from the other tab', noAbort())).outcome).toBe('completed');
    expect(loser.runtime.messages).toEqual(await repository.loadMessages(loser.runtime.sessionId!));
    expect(loser.runtime.messages.filter((message) => message.content === 'between')).toHaveLength(1);
  });

  it('moves a tab holding an older copy of an in-place history to the current one before it appends', async () => {
    const { repository } = openFixtureRepository('stale-tab');
    const locks = new InMemoryLockManager();
    const first = createRuntimeFixture({
      label: 'stale-1',
      mock: provider.mock(),
      repository,
      locks,
      preset: HERMES_2026_07,
    });
    for (let turn = 1; turn <= 12; turn++) await first.runtime.sendUserMessage(question(turn), noAbort());
    const second = createRuntimeFixture({
      label: 'stale-2',
      mock: provider.mock(),
      repository,
      locks,
      preset: HERMES_2026_07,
    });
    await second.runtime.resume(first.runtime.sessionId!);
    await first.runtime.sendUserMessage('/compress', noAbort());
    const before = chatRequests(provider.mock()).length;
    expect((await second.runtime.sendUserMessage('from the stale tab', noAbort())).outcome).toBe('completed');
    const sent = requestText(chatRequests(provider.mock())[before]!.body);
    expect(sent).not.toContain('Turn 5: the parser');
    expect(sent).toContain('from the stale tab');
  });
});
