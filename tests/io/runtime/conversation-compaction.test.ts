import { describe, expect, it } from 'vitest';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import type { MockProvider, MockScriptStep } from '#tests/mock-provider/mock-provider-server.ts';
import { openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { ALL_PRESETS } from '#core/presets/preset.ts';
import { compactionApplied } from '#core/loop/conversation-event.ts';
import {
  chatStepFetch,
  createRuntimeFixture,
  noAbort,
  requestText,
  summaryRequests,
} from './runtime-fixture.ts';
import { messageText } from '#core/transcript/message.ts';

const provider = useMockProvider();
/**
 * A question long enough that summarising a few of them shrinks the context: a manual
 * compaction that would grow it is refused.
 */
const longQuestion = (turn: number): string =>
  `Turn ${turn}: question about the billing module. ${'It reconciles invoices against ledger rows. '.repeat(30)}`;
const WINDOW_TOKENS = 32_000;

const userText = (turn: number): string =>
  `Turn ${turn}: please review module ${turn} of the billing service and list what to change. ` +
  'The module parses invoices, applies discounts and writes ledger rows. '.repeat(16);
const replyText = (turn: number): string =>
  `Review of module ${turn}: ` +
  'The parser should validate currency codes before applying discounts. '.repeat(32);
const summaryText = (count: number): string =>
  `## Active Task\nContinue the billing review. SUMMARY-${count}\n\n## Completed Actions\n` +
  'Reviewed several modules and listed the changes for each. '.repeat(10);

interface ScriptedFetch {
  fetch: typeof fetch;
  /** Set by the test before each turn. */
  turn: number;
  /** For each chat request: the turn it belonged to and whether it carried that turn's user message. */
  chatRequests: Array<{ turn: number; hasLatestUser: boolean }>;
  summaries: number;
}

/**
 * Answers each request by its shape, queuing the mock's step just before the request leaves:
 * summary calls (no tools) get a summary; every third turn first calls `search_sessions`; a
 * request after a tool result gets the final answer.
 */
function scriptedFetch(mock: () => MockProvider): ScriptedFetch {
  const scripted: ScriptedFetch = {
    turn: 0,
    chatRequests: [],
    summaries: 0,
    fetch: async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/v1/messages') && typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { tools?: unknown[]; messages: Array<{ content: unknown }> };
        let step: MockScriptStep;
        if (!body.tools || body.tools.length === 0) {
          scripted.summaries += 1;
          step = { kind: 'reply', text: summaryText(scripted.summaries) };
        } else {
          const text = JSON.stringify(body.messages);
          scripted.chatRequests.push({
            turn: scripted.turn,
            hasLatestUser: text.includes(`Turn ${scripted.turn}: `),
          });
          const lastContent = JSON.stringify(body.messages.at(-1)?.content ?? '');
          if (lastContent.includes('tool_result')) step = { kind: 'reply', text: replyText(scripted.turn) };
          else if (scripted.turn % 3 === 0)
            step = {
              kind: 'reply',
              toolCalls: [{ name: 'search_sessions', arguments: { query: `module ${scripted.turn - 1}` } }],
            };
          else step = { kind: 'reply', text: replyText(scripted.turn) };
        }
        mock().script([step]);
      }
      return fetch(input, init);
    },
  };
  return scripted;
}

describe('ConversationRuntime: compaction in the loop', () => {
  it.each(ALL_PRESETS.map((preset) => [preset.name, preset] as const))(
    'compacts a 60-turn conversation with tool calls on a 32K window, keeping every turn reachable (%s)',
    async (_name, preset) => {
      provider.mock().configure({ contextWindow: WINDOW_TOKENS });
      const script = scriptedFetch(provider.mock);
      const fixture = createRuntimeFixture({
        label: `sixty-turns-${preset.name}`,
        preset,
        mock: provider.mock(),
        contextLength: WINDOW_TOKENS,
        maxOutputTokens: 2048,
        fetch: script.fetch,
      });
      for (let turn = 1; turn <= 60; turn++) {
        script.turn = turn;
        const result = await fixture.runtime.sendUserMessage(userText(turn), noAbort());
        expect(result, `turn ${turn}`).toEqual({ outcome: 'completed', message: null });
      }

      // 2026-07 compacts in place (one session, old rows archived), 2026-04 rotates.
      const applied = preset.sessions.compaction === 'in-place' ? 'in-place' : 'rotated';
      const compactions = fixture.eventsOf('compaction-end').filter((event) => event.outcome === applied);
      expect(compactions.length).toBeGreaterThanOrEqual(2);
      expect(fixture.eventsOf('compaction-end').filter((event) => compactionApplied(event))).toEqual(
        compactions,
      );
      // Every summary came from the model (none fell back to the marker); see `maxTokensFor`.
      expect(compactions.filter((compaction) => compaction.usedFallback)).toEqual([]);
      for (const compaction of compactions) {
        expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
        // The ledger is priced from what the mock reported: the summary call's usage and the
        // cache figures of the last answer before the compaction.
        const assessment = compaction.assessment!;
        expect(assessment.summaryMeasured).toBe(true);
        expect(assessment.ledger.summaryInputTokens).toBeGreaterThan(0);
        expect(assessment.ledger.summaryOutputTokens).toBeGreaterThan(0);
        expect(assessment.cache.source).toBe('usage');
        expect(assessment.fidelity.total).toBeGreaterThan(0);
      }
      expect(compactions.map((compaction) => compaction.compressionCount)).toEqual(
        compactions.map((_, index) => index + 1),
      );
      expect(compactions.at(-1)!.warning).toContain(`Session compressed ${compactions.length} times`);
      console.log(
        `${preset.name} compactions (tokens before → after):`,
        compactions.map((event) => `${event.reason} ${event.tokensBefore} → ${event.tokensAfter}`).join('; '),
      );

      // Every request of every turn carried that turn's user message, compacted or not.
      expect(script.chatRequests.length).toBeGreaterThan(60);
      expect(script.chatRequests.filter((request) => !request.hasLatestUser)).toEqual([]);

      // Every turn, tool rounds included, is still reachable through the lineage.
      const tip = fixture.runtime.sessionId!;
      const lineage = await fixture.repository.loadLineageMessages(tip);
      expect(lineage.length).toBe(applied === 'rotated' ? compactions.length + 1 : 1);
      expect((await fixture.repository.listConversationCompactions(tip)).length).toBe(compactions.length);
      const everything = lineage
        .flatMap((segment) => segment.messages)
        .map((message) => JSON.stringify(message));
      for (let turn = 1; turn <= 60; turn++) {
        expect(
          everything.some((text) => text.includes(`Turn ${turn}: `)),
          `user turn ${turn}`,
        ).toBe(true);
        expect(
          everything.some((text) => text.includes(`Review of module ${turn}: `)),
          `reply ${turn}`,
        ).toBe(true);
      }
      // A continuation repeats the tail it kept, so count distinct tool calls.
      const toolResults = new Map(
        lineage
          .flatMap((segment) => segment.messages)
          .filter((message) => message.role === 'tool')
          .map((message) => [message.tool_call_id, messageText(message)]),
      );
      expect(toolResults.size).toBe(20);
      expect([...toolResults.values()].every((content) => /match/.test(content))).toBe(true);
      // The second summary updated the first one (iterative summary).
      const summaries = summaryRequests(provider.mock());
      expect(summaries.length).toBe(compactions.length);
      expect(requestText(summaries[1]!.body)).toContain('SUMMARY-1');
      // The session rows form one chain, root to tip, with numbered titles.
      const titles = lineage.map((segment) => segment.session.title);
      if (applied === 'rotated') expect(titles[1]).toMatch(/ #2$/);
      else expect(lineage[0]!.session.compressionCount).toBe(compactions.length);
      expect(lineage.slice(0, -1).every((segment) => segment.session.endReason === 'compression')).toBe(true);
    },
  );

  it('compresses and retries when the provider reports an overflow, adopting the window from the error', async () => {
    provider.mock().configure({ contextWindow: WINDOW_TOKENS });
    const fixture = createRuntimeFixture({ label: 'overflow', mock: provider.mock(), maxOutputTokens: 512 });
    // About 7,000 mock tokens each: four fit in 32K, the fifth does not.
    const big = (turn: number): string =>
      `Turn ${turn}: ` + 'Here is a long log line for the record. '.repeat(700);
    for (let turn = 1; turn <= 4; turn++) {
      expect((await fixture.runtime.sendUserMessage(big(turn), noAbort())).outcome).toBe('completed');
    }
    // The fifth pushes the request past the mock's 32K window, which the runtime does not know about.
    const result = await fixture.runtime.sendUserMessage(big(5), noAbort());
    expect(result).toEqual({ outcome: 'completed', message: null });
    const [recovery] = fixture.eventsOf('recovery');
    expect(recovery).toMatchObject({
      action: 'compress-and-retry',
      contextLength: WINDOW_TOKENS,
      attempt: 1,
    });
    const compaction = fixture.eventsOf('compaction-end').find((event) => event.reason === 'overflow');
    expect(compaction?.outcome).toBe('rotated');
    expect(fixture.runtime.contextLengthFor(fixture.settings)).toBe(WINDOW_TOKENS);
    // The retried request fit and carried the new message.
    expect(requestText(provider.mock().requests.at(-1)!.body)).toContain('Turn 5: ');
    expect(fixture.sleeps).toContain(2000);
  });

  it('gives up after three compactions in one turn with a message that suggests a new session', async () => {
    const steps = chatStepFetch(provider.mock);
    const fixture = createRuntimeFixture({
      label: 'overflow-exhausted',
      mock: provider.mock(),
      maxOutputTokens: 256,
      fetch: steps.fetch,
    });
    for (let turn = 1; turn <= 12; turn++)
      await fixture.runtime.sendUserMessage(`Turn ${turn}: hello`, noAbort());
    const overflow: MockScriptStep = {
      kind: 'context-overflow',
      contextWindow: 200_000,
      inputTokens: 250_000,
    };
    steps.queue(overflow, overflow, overflow, overflow);
    const result = await fixture.runtime.sendUserMessage('Turn 7: one more', noAbort());
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(/Context length exceeded|Cannot compress further/);
    expect(result.message).toMatch(/new session/i);
    expect(fixture.eventsOf('recovery').length).toBeLessThanOrEqual(3);
    // Nothing was lost: the last user message is stored in the session the conversation continues in.
    const messages = await fixture.repository.loadMessages(fixture.runtime.sessionId!);
    expect(JSON.stringify(messages)).toContain('Turn 7: one more');
  });

  it('runs /compress with a focus topic and resumes at the tip after a reload', async () => {
    const fixture = createRuntimeFixture({ label: 'manual', mock: provider.mock() });
    expect((await fixture.runtime.sendUserMessage('/compress', noAbort())).message).toMatch(/conversation/);
    for (let turn = 1; turn <= 6; turn++)
      await fixture.runtime.sendUserMessage(longQuestion(turn), noAbort());
    const rootId = fixture.runtime.sessionId!;
    const result = await fixture.runtime.sendUserMessage('/compress database schema', noAbort());
    expect(result.outcome).toBe('completed');
    const [compaction] = fixture.eventsOf('compaction-end');
    expect(compaction).toMatchObject({ reason: 'manual', outcome: 'rotated', focusTopic: 'database schema' });
    expect(requestText(summaryRequests(provider.mock())[0]!.body)).toContain(
      'FOCUS TOPIC: \\"database schema\\"',
    );
    expect(fixture.runtime.sessionId).not.toBe(rootId);

    // A new tab (or a reload) opening the root lands on the tip.
    const reopened = createRuntimeFixture({
      label: 'manual-reload',
      mock: provider.mock(),
      repository: fixture.repository,
    });
    await reopened.runtime.resume(rootId);
    expect(reopened.runtime.sessionId).toBe(fixture.runtime.sessionId);
    expect(reopened.runtime.messages).toEqual(fixture.runtime.messages);
    expect(reopened.runtime.compressorState.compressionCount).toBe(1);
    expect((await reopened.runtime.sendUserMessage('after the reload', noAbort())).outcome).toBe('completed');
  });

  it('never compacts one session twice from two tabs', async () => {
    const { repository } = openFixtureRepository('two-tabs');
    const locks = new InMemoryLockManager();
    const first = createRuntimeFixture({ label: 'tab-1', mock: provider.mock(), repository, locks });
    for (let turn = 1; turn <= 6; turn++) await first.runtime.sendUserMessage(longQuestion(turn), noAbort());
    const rootId = first.runtime.sessionId!;
    const second = createRuntimeFixture({ label: 'tab-2', mock: provider.mock(), repository, locks });
    await second.runtime.resume(rootId);

    const results = await Promise.all([
      first.runtime.sendUserMessage('/compress', noAbort()),
      second.runtime.sendUserMessage('/compress', noAbort()),
    ]);
    expect(results.map((result) => result.outcome)).toEqual(['completed', 'completed']);
    const children = (await repository.listSessions()).filter(
      (session) => session.parentSessionId === rootId,
    );
    expect(children).toHaveLength(1);
    expect(summaryRequests(provider.mock())).toHaveLength(1);
    const outcomes = [...first.eventsOf('compaction-end'), ...second.eventsOf('compaction-end')].map(
      (event) => event.outcome,
    );
    expect(outcomes.sort()).toEqual(['busy', 'rotated']);

    // The tab that lost the race moves on to the continuation with its next message.
    const loser = first.runtime.sessionId === rootId ? first : second;
    expect((await loser.runtime.sendUserMessage('Turn 7: still there?', noAbort())).outcome).toBe(
      'completed',
    );
    expect(loser.runtime.sessionId).toBe(children[0]!.id);
    expect(JSON.stringify(await repository.loadMessages(children[0]!.id))).toContain('Turn 7: still there?');
  });

  it('stores a large tool result, shows the preview in context, and reads it back on request', async () => {
    const script: MockScriptStep[] = [
      { kind: 'reply', toolCalls: [{ name: 'search_sessions', arguments: { query: 'invoice', limit: 20 } }] },
    ];
    const fixture = createRuntimeFixture({
      label: 'persisted',
      mock: provider.mock(),
      toolBudget: { defaultResultSize: 300, turnBudget: 200_000, previewSize: 120 },
    });
    for (let turn = 1; turn <= 4; turn++)
      await fixture.runtime.sendUserMessage(
        `Turn ${turn}: the invoice parser fails on currency ${turn}`,
        noAbort(),
      );
    provider.mock().script(script);
    await fixture.runtime.sendUserMessage('Find the invoice discussions', noAbort());
    const [result] = fixture.eventsOf('tool-result');
    expect(result!.persisted).toBe(true);
    expect(result!.content).toContain('<persisted-output>');
    const path = /Full output saved to: (\S+)/.exec(result!.content)![1]!;

    provider.mock().script([
      {
        kind: 'reply',
        toolCalls: [{ name: 'read_persisted_output', arguments: { file: path, offset: 0, limit: 5000 } }],
      },
    ]);
    await fixture.runtime.sendUserMessage('Read the stored output', noAbort());
    const readBack = fixture.eventsOf('tool-result')[1]!;
    expect(readBack.persisted).toBe(false);
    expect(readBack.content).toMatch(/matches for "invoice"/);
    expect(readBack.content).toContain('currency 3');
  });
});
