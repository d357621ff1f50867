import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import {
  CLINE_DUPLICATE_READ_NOTICE,
  CLINE_STRATEGY,
  CLINE_SUMMARY_OPENING,
  CLINE_TRUNCATION_NOTICE,
  clineMaxAllowedSize,
} from '#core/strategies/cline.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { FATE, type MessageTokens } from '#core/strategies/strategy.ts';
import { HOST_PRESET, roughMessageTokens } from '#core/strategies/strategy-kit.ts';
import { estimateRequestTokensRough } from '#core/tokens/estimate-request-tokens-rough.ts';
import { estimateMessageTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import {
  assistant,
  calls,
  configWith,
  fixedTokens,
  forbiddenSummarizer,
  initialState,
  normalizedText,
  recordingSummarizer,
  result,
  system,
  toolPairProblems,
  user,
} from '#tests/helpers/strategy-fixtures.ts';

const strategy = CLINE_STRATEGY;
const deps = { summarizer: createOfflineSummarizer(), now: () => 0 };
const NOTICE = CLINE_DUPLICATE_READ_NOTICE.length;

function planOf(
  messages: Message[],
  tokens: MessageTokens,
  window = 64_000,
  options: Record<string, number> = {},
) {
  return strategy.plan({
    messages,
    tools: [],
    config: configWith(window, options),
    state: initialState,
    tokens,
    prepared: strategy.prepare(messages, []),
  });
}

const compactOf = (
  messages: Message[],
  tokens: MessageTokens,
  options: Record<string, number> = {},
  extra: { summaryOverrides?: string[] } = {},
  summarizer = deps.summarizer,
) =>
  strategy.compact(
    { messages, tools: [], config: configWith(64_000, options), state: initialState, tokens, ...extra },
    { summarizer, now: () => 0 },
  );

/** Cline's character count of a message: its text plus its tool-call arguments. */
const charsOf = (message: Message): number =>
  (typeof message.content === 'string' ? message.content.length : 0) +
  (message.tool_calls ?? []).reduce((sum, call) => sum + call.function.arguments.length, 0);

describe('cline trigger', () => {
  it('uses the fixed margins for 64K / 128K / 200K and the larger rule otherwise', () => {
    expect(clineMaxAllowedSize(64_000)).toBe(37_000);
    expect(clineMaxAllowedSize(128_000)).toBe(98_000);
    expect(clineMaxAllowedSize(200_000)).toBe(160_000);
    // max(100,000 − 40,000, 80,000) = 80,000; max(360,000, 320,000) = 360,000; max(−8,000, 25,600).
    expect(clineMaxAllowedSize(100_000)).toBe(80_000);
    expect(clineMaxAllowedSize(400_000)).toBe(360_000);
    expect(clineMaxAllowedSize(32_000)).toBe(25_600);
    expect(strategy.trigger(configWith(64_000)).thresholdTokens).toBe(37_000);
  });

  it('fires at maxAllowedSize and not one token below', () => {
    const messages = longRun();
    expect(
      planOf(
        messages,
        fixedTokens(
          messages.map(() => 1),
          37_000,
        ),
      ).reason,
    ).toBe('ready');
    expect(
      planOf(
        messages,
        fixedTokens(
          messages.map(() => 1),
          36_999,
        ),
      ).reason,
    ).toBe('below-threshold');
  });
});

/**
 * utils.ts is read twice (#4, #8); notes.md is written whole (#5) and read back (#10). The
 * first exchange is #1–#2.
 */
function rereads(): Message[] {
  return [
    system('s'),
    user('Refactor utils.ts'),
    assistant('Sure.'),
    calls([['r1', 'read_file', { path: 'utils.ts' }]]),
    result('r1', 'U'.repeat(6000)),
    calls([['w1', 'write_file', { path: 'notes.md', content: 'N'.repeat(3000) }]]),
    result('w1', '{"bytes_written": 3000}'),
    calls([['r2', 'read_file', { path: 'utils.ts' }]]),
    result('r2', 'U'.repeat(6000)),
    calls([['r3', 'Read', { file_path: 'notes.md' }]]),
    result('r3', 'N'.repeat(3000)),
    assistant('Done.'),
    user('Thanks'),
  ];
}

describe('cline duplicate file reads', () => {
  it('replaces older copies and stops there when that saves at least 30% of the characters', () => {
    const messages = rereads();
    const tokens = fixedTokens(
      messages.map((message) => Math.ceil(charsOf(message) / 4)),
      40_000,
    );
    const plan = planOf(messages, tokens);
    // Saved: (6,000 − notice) + (3,000 − notice) of the characters after the system prompt.
    const total = messages.slice(1).reduce((sum, message) => sum + charsOf(message), 0);
    expect((6000 - NOTICE + 3000 - NOTICE) / total).toBeGreaterThanOrEqual(0.3);
    expect([...plan.fates]).toEqual(
      messages.map((_, index) => (index === 4 || index === 5 ? FATE.pruned : FATE.kept)),
    );
    expect(plan.pruned.map((item) => [item.index, item.kind, item.toolName, item.originalChars])).toEqual([
      [4, 'duplicate', 'read_file', 6000],
      [5, 'duplicate', 'write_file', 3000],
    ]);
    expect(plan.summaries).toEqual([]);
    expect(plan.summaryTokens).toBe(0);
    expect(plan.headEnd).toBe(4);
    expect(plan.tailStart).toBe(6);
    // #4 loses (6,000 − notice) of its 6,000 characters: that share of its 1,500 tokens.
    expect(plan.prunedSavings.get(4)).toBe(Math.round(1500 * ((6000 - NOTICE) / 6000)));
  });

  it('writes the notice into the read result and into the write call, keeping valid JSON', async () => {
    const messages = rereads();
    const tokens = fixedTokens(
      messages.map((message) => Math.ceil(charsOf(message) / 4)),
      40_000,
    );
    const compaction = await compactOf(messages, tokens, {}, {}, forbiddenSummarizer);
    expect(compaction.messages).toHaveLength(messages.length);
    expect(compaction.messages[4]!.content).toBe(CLINE_DUPLICATE_READ_NOTICE);
    const written = JSON.parse(compaction.messages[5]!.tool_calls![0]!.function.arguments) as Record<
      string,
      unknown
    >;
    expect(written).toEqual({ path: 'notes.md', content: CLINE_DUPLICATE_READ_NOTICE });
    expect(compaction.messages[8]).toBe(messages[8]);
    expect(compaction.summarizerCalls).toBe(0);
    expect(compaction.notes.join(' ')).toContain('nothing was truncated');
  });

  it('leaves copies inside the first exchange alone', () => {
    const messages = [
      system('s'),
      user('Look at a.ts'),
      calls([['p1', 'read_file', { path: 'a.ts' }]]),
      result('p1', 'A'.repeat(5000)),
      calls([['p2', 'read_file', { path: 'a.ts' }]]),
      result('p2', 'A'.repeat(5000)),
      assistant('Same file.'),
    ];
    const plan = planOf(
      messages,
      fixedTokens(
        messages.map(() => 10),
        40_000,
      ),
    );
    // #3 belongs to the first exchange (#1–#3); #5 is the only copy after it: nothing to replace.
    expect(plan.pruned).toEqual([]);
  });

  it('finds the re-reads in a real Claude Code session, and truncates when they save under 30%', () => {
    const path = resolve(
      import.meta.dirname,
      '../../../../shared/corpus/transcripts/claude-code/claude-code-log__326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl',
    );
    const imported = importTranscript(readFileSync(path, 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const { messages } = imported.value.transcript;
    const plan = planOf(messages, roughMessageTokens(messages, []));
    // test_cache.py is read at #5, #7 and #15 (results #6, #8, #16); the first exchange is #0–#4.
    // The two older copies hold 1,152 + 1,035 of the session's ~15,500 characters: under 30%.
    expect(plan.explanation[0]).toContain('Replaces 2 older copies');
    // So it truncates: 27 messages after the first exchange, ⌊27/4⌋·2 = 12 dropped, #5–#16; the
    // cut before #17 (an assistant call) splits no tool group.
    expect(
      [...plan.fates].map((fate, index) => [index, fate]).filter(([, fate]) => fate === FATE.dropped),
    ).toEqual(Array.from({ length: 12 }, (_, offset) => [5 + offset, FATE.dropped]));
  });
});

/** Eighteen messages, no file read twice: the first exchange #1–#2, then 15 more. */
function longRun(): Message[] {
  return [
    system('s'),
    user('Build the feature'),
    assistant('On it.'),
    calls([['t0', 'terminal', { command: 'a' }]]),
    result('t0', 'o'.repeat(2000)),
    calls([['t1', 'terminal', { command: 'b' }]]),
    result('t1', 'o'.repeat(2000)),
    assistant('Step one done.'),
    user('Continue'),
    calls([['t2', 'terminal', { command: 'c' }]]),
    result('t2', 'o'.repeat(2000)),
    calls([['t3', 'terminal', { command: 'd' }]]),
    result('t3', 'o'.repeat(2000)),
    assistant('Step two done.'),
    user('Latest ask: add docs'),
    calls([['t4', 'terminal', { command: 'e' }]]),
    result('t4', 'o'.repeat(2000)),
    assistant('Docs added.'),
  ];
}

describe('cline truncation', () => {
  it('drops half of the messages after the first exchange, in an even count, with a notice', async () => {
    const messages = longRun();
    // 50,000 / 2 = 25,000 ≤ 37,000: half. n = 15 after #3 → remove ⌊15/4⌋·2 = 6: #3–#8.
    const tokens = fixedTokens(
      messages.map(() => 100),
      50_000,
    );
    const plan = planOf(messages, tokens);
    expect([...plan.fates]).toEqual(
      messages.map((_, index) => (index >= 3 && index < 9 ? FATE.dropped : FATE.kept)),
    );
    expect(plan.headEnd).toBe(3);
    expect(plan.tailStart).toBe(9);
    expect(plan.summaries).toEqual([]);
    expect(plan.summaryTokens).toBe(0);
    const compaction = await compactOf(messages, tokens, {}, {}, forbiddenSummarizer);
    expect([...compaction.fates]).toEqual([...plan.fates]);
    expect(compaction.messages).toEqual([
      ...messages.slice(0, 3),
      { role: 'assistant', content: CLINE_TRUNCATION_NOTICE },
      ...messages.slice(9),
    ]);
    expect(toolPairProblems(compaction.messages)).toEqual([]);
  });

  it('keeps only a quarter when the context is more than twice the limit', () => {
    const messages = longRun();
    // 80,000 / 2 = 40,000 > 37,000: quarter. Remove ⌊15·3/4/2⌋·2 = 10: #3–#12.
    const plan = planOf(
      messages,
      fixedTokens(
        messages.map(() => 100),
        80_000,
      ),
    );
    expect([...plan.fates]).toEqual(
      messages.map((_, index) => (index >= 3 && index < 13 ? FATE.dropped : FATE.kept)),
    );
    expect(plan.explanation.join(' ')).toContain('three quarters');
  });

  it('plans and compacts on the same count when the roundings fall either side of twice the limit', async () => {
    // 18 messages; the last reply is longer so the request lands just under 2 × 12,800 as Hermes
    // counts it (one rounding) and just over it with each message rounded on its own.
    const messages: Message[] = [user('Fix the invoice bug.'), assistant('Looking.')];
    for (let turn = 0; turn < 8; turn++)
      messages.push(user(`Turn ${turn}: next step.`), assistant('ledger '.repeat(turn === 7 ? 1915 : 1800)));
    const config = configWith(16_000);
    const limit = clineMaxAllowedSize(16_000);
    const planner = createPlanner(messages);
    const plan = planner.plan(strategy, { config, estimator: 'rough' });
    // The map's count is Hermes' own estimate of the request; a compaction that added each
    // message's own estimate instead would be over twice the limit and keep a quarter.
    expect(plan.totalTokens).toBe(estimateRequestTokensRough(messages, '', [], HOST_PRESET));
    expect(plan.totalTokens).toBeLessThanOrEqual(2 * limit);
    const ownEstimates = messages.reduce(
      (sum, message) => sum + estimateMessageTokensRough(message, HOST_PRESET),
      0,
    );
    expect(ownEstimates).toBeGreaterThan(2 * limit);
    // Not over twice the limit: half. n = 16 after the first exchange → remove ⌊16/4⌋·2 = 8: #2–#9.
    const dropped = messages.map((_, index) => (index >= 2 && index < 10 ? FATE.dropped : FATE.kept));
    expect([...plan.fates]).toEqual(dropped);
    const outcome = await compactConversation(
      strategy,
      {
        reason: 'manual',
        systemPrompt: '',
        messages,
        tools: [],
        config,
        state: initialState,
        prepared: planner.prepared(strategy),
        force: true,
      },
      { summarizer: forbiddenSummarizer, now: () => 0 },
    );
    expect([...outcome.compaction.fates]).toEqual(dropped);
    expect(outcome.notes.join(' ')).toContain('(half of the rest)');
  });

  it('moves the cut back so a tool call keeps its results', () => {
    const messages = [
      system('s'),
      user('Start'),
      assistant('Ok.'),
      calls([['a', 'terminal', { command: 'x' }]]),
      result('a', 'out'),
      calls([
        ['b', 'terminal', { command: 'y' }],
        ['c', 'terminal', { command: 'z' }],
      ]),
      result('b', 'out'),
      result('c', 'out'),
      assistant('Checked.'),
      user('Next'),
      assistant('Ok.'),
      user('Final ask'),
      assistant('Answer.'),
    ];
    // n = 10 → remove 4 → the cut would fall at #7 (a result of #5): moved back to #5.
    const plan = planOf(
      messages,
      fixedTokens(
        messages.map(() => 100),
        50_000,
      ),
    );
    expect([...plan.fates]).toEqual(
      messages.map((_, index) => (index === 3 || index === 4 ? FATE.dropped : FATE.kept)),
    );
  });

  it('only replaces the copy when too few messages follow the first exchange to drop any', async () => {
    const messages = [
      system('s'),
      user('Compare'),
      assistant('y'.repeat(20_000)),
      calls([
        ['r1', 'read_file', { path: 'a.ts' }],
        ['r2', 'read_file', { path: 'a.ts' }],
      ]),
      result('r1', 'A'.repeat(200)),
      result('r2', 'A'.repeat(200)),
    ];
    // The copy in #4 saves ~150 of ~20,000 characters (< 30%), but n = 3 → remove ⌊3/4⌋·2 = 0.
    const tokens = fixedTokens(
      messages.map(() => 100),
      50_000,
    );
    const plan = planOf(messages, tokens);
    expect([...plan.fates]).toEqual(messages.map((_, index) => (index === 4 ? FATE.pruned : FATE.kept)));
    expect(plan.explanation[1]).toBe(
      'That saves under 30%, but too few messages follow the first exchange to drop any.',
    );
    const compaction = await compactOf(messages, tokens);
    expect(compaction.messages.map((message) => message.content)).toEqual([
      's',
      'Compare',
      'y'.repeat(20_000),
      null,
      CLINE_DUPLICATE_READ_NOTICE,
      'A'.repeat(200),
    ]);
  });

  it('quotes the latest request when it was among the dropped messages', async () => {
    const messages = [
      system('s'),
      user('Start'),
      assistant('Ok.'),
      user('Please migrate the database to Postgres'),
      calls([['a', 'terminal', { command: '1' }]]),
      result('a', 'out'),
      calls([['b', 'terminal', { command: '2' }]]),
      result('b', 'out'),
      calls([['c', 'terminal', { command: '3' }]]),
      result('c', 'out'),
      calls([['d', 'terminal', { command: '4' }]]),
      result('d', 'out'),
      assistant('Migrated.'),
    ];
    // n = 10 → remove 4 → cut at #7 (a result) → back to #6: #3–#5 go, the request among them.
    const tokens = fixedTokens(
      messages.map(() => 100),
      50_000,
    );
    const compaction = await compactOf(messages, tokens);
    expect([...compaction.fates].slice(3, 6)).toEqual([FATE.dropped, FATE.dropped, FATE.dropped]);
    const notice = messageText(compaction.messages[3]!);
    expect(notice.startsWith(CLINE_TRUNCATION_NOTICE)).toBe(true);
    expect(notice).toContain('"Please migrate the database to Postgres"');
    expect(toolPairProblems(compaction.messages)).toEqual([]);
  });

  it('runs through compactConversation', async () => {
    const messages = longRun();
    const outcome = await compactConversation(
      strategy,
      {
        messages,
        tools: [],
        config: configWith(64_000),
        state: initialState,
        tokens: fixedTokens(
          messages.map(() => 100),
          50_000,
        ),
        reason: 'manual',
        systemPrompt: '',
        summaryOverrides: ['unused'],
      },
      deps,
    );
    expect(outcome.skipped).toBeNull();
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
    expect(outcome.notes).toContain('Cline writes no summary here, so the summary override was not used.');
    expect(toolPairProblems(outcome.messages)).toEqual([]);
  });
});

describe('cline auto compact', () => {
  it('keeps the first exchange and has the model summarise the rest', async () => {
    const messages = longRun();
    const tokens = fixedTokens(
      messages.map(() => 100),
      50_000,
    );
    const plan = planOf(messages, tokens, 64_000, { 'cline.autoCompact': 1 });
    expect([...plan.fates]).toEqual(messages.map((_, index) => (index < 3 ? FATE.kept : FATE.summarized)));
    expect(plan.summaries).toEqual([{ start: 3, end: 18, kind: 'middle' }]);
    // A tenth of 15 × 100 tokens is below the 1,000-token floor.
    expect(plan.summaryTokens).toBe(1000);
    expect(plan.pruned).toEqual([]);
    const compaction = await compactOf(messages, tokens, { 'cline.autoCompact': 1 });
    expect([...compaction.fates]).toEqual([...plan.fates]);
    expect(compaction.messages).toHaveLength(4);
    expect(compaction.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    const summary = messageText(compaction.messages[3]!);
    expect(summary.startsWith(CLINE_SUMMARY_OPENING)).toBe(true);
    expect(normalizedText(summary)).toContain(normalizedText('Latest ask: add docs'));
    expect(compaction.summaries[0]!.outputIndex).toBe(3);
  });

  it('does not replace duplicate reads first (Cline skips that step with Auto Compact)', () => {
    const messages = rereads();
    const plan = planOf(
      messages,
      fixedTokens(
        messages.map(() => 100),
        40_000,
      ),
      64_000,
      { 'cline.autoCompact': 1 },
    );
    expect(plan.pruned).toEqual([]);
    expect([...plan.fates].includes(FATE.pruned)).toBe(false);
  });

  it('uses a reviewed summary verbatim and sends its template to a provider', async () => {
    const messages = longRun();
    const tokens = fixedTokens(
      messages.map(() => 100),
      50_000,
    );
    const reviewed = await compactOf(
      messages,
      tokens,
      { 'cline.autoCompact': 1 },
      { summaryOverrides: ['Reviewed body.'] },
      forbiddenSummarizer,
    );
    expect(reviewed.summaries[0]!.body).toBe('Reviewed body.');
    expect(reviewed.messages[3]!.content).toBe(`${CLINE_SUMMARY_OPENING}\n\nReviewed body.`);
    const { summarizer, requests } = recordingSummarizer('## Task\nBuild the feature.');
    await compactOf(messages, tokens, { 'cline.autoCompact': 1 }, {}, summarizer);
    for (const heading of [
      '## Task',
      '## Work so far',
      '## Files and code',
      '## Current state and next step',
    ])
      expect(requests[0]!.prompt).toContain(heading);
    expect(requests[0]!.prompt).toContain('Latest ask: add docs');
  });
});

describe('cline on generated sessions', () => {
  it('truncates or summarises without orphans, plan and compact agreeing', async () => {
    for (const seed of [2, 13, 37]) {
      const { messages, metadata } = generateAgentTranscript({ messageCount: 200, seed });
      const tools = metadata.tools ?? [];
      for (const options of [{}, { 'cline.autoCompact': 1 }] as Record<string, number>[]) {
        const config = configWith(16_000, options);
        const tokens = roughMessageTokens(messages, tools);
        const prepared = strategy.prepare(messages, tools);
        const plan = strategy.plan({
          messages,
          tools,
          config,
          state: initialState,
          tokens,
          prepared,
        });
        expect(plan.wouldCompress).toBe(true);
        const compaction = await strategy.compact(
          { messages, tools, config, state: initialState, tokens, prepared },
          deps,
        );
        expect([...compaction.fates]).toEqual([...plan.fates]);
        expect(toolPairProblems(compaction.messages)).toEqual([]);
        expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
        if ([...plan.fates].includes(FATE.dropped))
          expect(
            compaction.messages.some((message) => messageText(message).startsWith(CLINE_TRUNCATION_NOTICE)),
          ).toBe(true);
      }
    }
  });
});
