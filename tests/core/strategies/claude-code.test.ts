import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { isRealUserMessage } from '#core/compression/real-user-message.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import {
  CLAUDE_CODE_CONTINUATION,
  CLAUDE_CODE_STRATEGY,
  REATTACHED_FILE_OPENING,
} from '#core/strategies/claude-code.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { FATE, type PlanInput } from '#core/strategies/strategy.ts';
import { HOST_PRESET, roughMessageTokens } from '#core/strategies/strategy-kit.ts';
import { findStrategy } from '#core/strategies/strategy-registry.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import {
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

const strategy = CLAUDE_CODE_STRATEGY;
const deps = { summarizer: createOfflineSummarizer(), now: () => 0 };

const planFor = (messages: Message[], overrides: Partial<PlanInput> = {}) =>
  strategy.plan({
    messages,
    tools: [],
    config: configWith(200_000),
    state: initialState,
    tokens: fixedTokens(messages.map(() => 100)),
    prepared: strategy.prepare(messages, []),
    ...overrides,
  });

/**
 * Sixteen messages touching six files, newest access last:
 * a.py read (#3, 400 chars) then edited (#5); b.py read (#4, 40,000 chars); c.py written whole
 * (#7, 80 chars); d.py read but the read failed (#10); e.py only patched (#11); f.py read (#14,
 * 40 chars); then the user's latest ask (#15).
 */
function fileTranscript(): Message[] {
  return [
    system('You are a coding agent.'),
    user('Fix the parser in a.py'),
    calls([
      ['c1', 'Read', { file_path: 'a.py' }],
      ['c2', 'Read', { file_path: 'b.py' }],
    ]),
    result('c1', 'A'.repeat(400)),
    result('c2', 'B'.repeat(40_000)),
    calls([['c3', 'Edit', { file_path: 'a.py', old_string: 'A', new_string: 'Z' }]]),
    result('c3', 'The file a.py has been updated.'),
    calls([['c4', 'Write', { file_path: 'c.py', content: 'C'.repeat(80) }]]),
    result('c4', 'File created successfully at: c.py'),
    calls([['c5', 'read_file', { path: 'd.py' }]]),
    result('c5', 'No such file: d.py', { is_error: true }),
    calls([['c6', 'patch', { mode: 'replace', path: 'e.py', old_string: 'x', new_string: 'y' }]]),
    result('c6', '{"success": true}'),
    calls([['c7', 'Read', { file_path: 'f.py' }]]),
    result('c7', 'F'.repeat(40)),
    user('Thanks, now run the tests'),
  ];
}

describe('claude-code trigger', () => {
  it('fires 13,000 tokens below the effective window (window − min(max output, 20,000))', () => {
    // 200,000 − min(32,000 default max output, 20,000) = 180,000; − 13,000 = 167,000.
    expect(strategy.trigger(configWith(200_000)).thresholdTokens).toBe(167_000);
    // 64,000 − 20,000 = 44,000; − 13,000 = 31,000.
    expect(strategy.trigger(configWith(64_000)).thresholdTokens).toBe(31_000);
    // A max output of 8,000 reserves only 8,000: 200,000 − 8,000 − 13,000 = 179,000.
    expect(strategy.trigger(configWith(200_000, {}, { maxTokens: 8000 })).thresholdTokens).toBe(179_000);
    // A larger buffer: 180,000 − 20,000 = 160,000.
    expect(
      strategy.trigger(configWith(200_000, { 'claude-code.autocompactBuffer': 20_000 })).thresholdTokens,
    ).toBe(160_000);
  });

  it('lets the percent override lower the trigger but never raise it', () => {
    // 50% of the 180,000 effective window = 90,000, below 167,000: it wins.
    expect(strategy.trigger(configWith(200_000, { 'claude-code.pctOverride': 50 })).thresholdTokens).toBe(
      90_000,
    );
    // 95% = 171,000, above 167,000: clamped to 167,000.
    expect(strategy.trigger(configWith(200_000, { 'claude-code.pctOverride': 95 })).thresholdTokens).toBe(
      167_000,
    );
  });

  it('fires at the threshold and not one token below', () => {
    const messages = [system('s'), user('hello')];
    const at = planFor(messages, { tokens: fixedTokens([100, 100], 167_000) });
    expect(at.wouldCompress).toBe(true);
    expect(at.reason).toBe('ready');
    const below = planFor(messages, { tokens: fixedTokens([100, 100], 166_999) });
    expect(below.wouldCompress).toBe(false);
    expect(below.reason).toBe('below-threshold');
  });
});

describe('claude-code kept set', () => {
  it('keeps only the system prompt and summarises every other message', () => {
    const messages = fileTranscript();
    const plan = planFor(messages);
    expect(plan.headEnd).toBe(1);
    expect(plan.tailStart).toBe(16);
    expect([...plan.fates]).toEqual([FATE.kept, ...Array<number>(15).fill(FATE.summarized)]);
    expect(plan.summaries).toEqual([{ start: 1, end: 16, kind: 'middle' }]);
    // A tenth of the 1,500 compacted tokens is below the 2,000-token floor.
    expect(plan.summaryTokens).toBe(2000);
  });

  it('re-attaches the 5 most recently touched files, newest first, by content when ≤ 5,000 tokens', () => {
    const plan = planFor(fileTranscript());
    // Distinct paths by latest access: f (#13), e (#11), d (#9), c (#7), a (#5); b (#2) is sixth.
    // Sizes at four characters per token: f 40/4 = 10, c 80/4 = 20, a 400/4 = 100.
    expect(plan.reattached).toEqual([
      { path: 'f.py', sourceIndex: 14, tokens: 10, mode: 'content' },
      { path: 'e.py', sourceIndex: 11, tokens: 0, mode: 'path-only' },
      { path: 'd.py', sourceIndex: 9, tokens: 0, mode: 'path-only' },
      { path: 'c.py', sourceIndex: 7, tokens: 20, mode: 'content' },
      { path: 'a.py', sourceIndex: 3, tokens: 100, mode: 'content' },
    ]);
  });

  it('brings a file over the per-file limit back by path only', () => {
    const plan = planFor(fileTranscript(), { config: configWith(200_000, { 'claude-code.maxFiles': 6 }) });
    // b.py: 40,000 characters ≈ 10,000 tokens > 5,000.
    expect(plan.reattached[5]).toEqual({ path: 'b.py', sourceIndex: 4, tokens: 10_000, mode: 'path-only' });
    const tight = planFor(fileTranscript(), {
      config: configWith(200_000, { 'claude-code.fileTokens': 50 }),
    });
    expect(tight.reattached.find((file) => file.path === 'a.py')?.mode).toBe('path-only');
    expect(tight.reattached.find((file) => file.path === 'c.py')?.mode).toBe('content');
  });

  it('re-attaches nothing when the option is 0 or no file was touched', () => {
    expect(
      planFor(fileTranscript(), { config: configWith(200_000, { 'claude-code.maxFiles': 0 }) }).reattached,
    ).toEqual([]);
    expect(planFor([system('s'), user('hi'), { role: 'assistant', content: 'hello' }]).reattached).toEqual(
      [],
    );
  });

  it('finds the file a real Claude Code session read and then edited', () => {
    const path = resolve(
      import.meta.dirname,
      '../../../../shared/corpus/transcripts/claude-code/agent-history__claude_with_rejection.jsonl',
    );
    const imported = importTranscript(readFileSync(path, 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const { messages } = imported.value.transcript;
    const plan = strategy.plan({
      messages,
      tools: [],
      config: configWith(200_000),
      state: initialState,
      tokens: roughMessageTokens(messages, []),
      prepared: strategy.prepare(messages, []),
    });
    // #1 Reads src/db.py, #2 holds its content; #3 and #5 edit it (the first edit was rejected).
    expect(plan.reattached).toEqual([
      {
        path: '/home/testuser/rejection-project/src/db.py',
        sourceIndex: 2,
        tokens: Math.ceil((messages[2]!.content as string).length / 4),
        mode: 'content',
      },
    ]);
  });
});

describe('claude-code compact', () => {
  it('produces the system prompt, the summary behind the continuation note, then the files', async () => {
    const messages = fileTranscript();
    const input = { messages, tools: [], config: configWith(200_000), state: initialState };
    const plan = planFor(messages);
    const compaction = await strategy.compact(input, deps);
    expect(compaction.skipped).toBeNull();
    expect([...compaction.fates]).toEqual([...plan.fates]);
    expect(compaction.reattached).toEqual(plan.reattached);
    const output = compaction.messages;
    expect(output).toHaveLength(1 + 1 + 5);
    expect(output[0]).toBe(messages[0]);
    expect(output[1]!.role).toBe('user');
    expect(messageText(output[1]!).startsWith(CLAUDE_CODE_CONTINUATION)).toBe(true);
    expect(compaction.summaries[0]!.outputIndex).toBe(1);
    // The offline summary quotes the latest ask.
    expect(normalizedText(messageText(output[1]!))).toContain(normalizedText('Thanks, now run the tests'));
    expect(output[2]!.content).toBe(`${REATTACHED_FILE_OPENING} f.py\n${'F'.repeat(40)}`);
    expect(messageText(output[3]!)).toContain(`${REATTACHED_FILE_OPENING} e.py\n[Not re-attached`);
    // a.py was edited after its last whole copy: the note says so.
    expect(messageText(output[6]!)).toContain('edited after it');
    expect(messageText(output[6]!).endsWith('A'.repeat(400))).toBe(true);
    // None of the inserted messages counts as something the user said.
    expect(output.slice(1).some((message) => isRealUserMessage(message, HOST_PRESET))).toBe(false);
    expect(toolPairProblems(output)).toEqual([]);
    expect(compaction.state.compressionCount).toBe(1);
    expect(compaction.state.previousSummary).toBe(compaction.summaries[0]!.body);
    expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
  });

  it('uses a reviewed summary verbatim without calling the summariser', async () => {
    const compaction = await strategy.compact(
      {
        messages: fileTranscript(),
        tools: [],
        config: configWith(200_000),
        state: initialState,
        summaryOverrides: ['Reviewed: the parser is fixed; run the tests next.'],
      },
      { summarizer: forbiddenSummarizer, now: () => 0 },
    );
    expect(compaction.summarizerCalls).toBe(0);
    expect(compaction.summaries[0]!.body).toBe('Reviewed: the parser is fixed; run the tests next.');
    expect(messageText(compaction.messages[1]!)).toContain(
      'Reviewed: the parser is fixed; run the tests next.',
    );
  });

  it('asks a provider for the nine sections after an analysis, and keeps only the summary part', async () => {
    const { summarizer, requests } = recordingSummarizer(
      '<analysis>Walking through the parser fix.</analysis>\n<summary>## 1. Primary Request and Intent\nFix the parser.</summary>',
    );
    const compaction = await strategy.compact(
      {
        messages: fileTranscript(),
        tools: [],
        config: configWith(200_000),
        state: initialState,
        focusTopic: 'the failing tests',
      },
      { summarizer, now: () => 0 },
    );
    expect(requests).toHaveLength(1);
    const prompt = requests[0]!.prompt;
    for (const heading of [
      '## 1. Primary Request and Intent',
      '## 2. Key Technical Concepts',
      '## 3. Files and Code Sections',
      '## 4. Errors and fixes',
      '## 5. Problem Solving',
      '## 6. All user messages',
      '## 7. Pending Tasks',
      '## 8. Current Work',
      '## 9. Optional Next Step',
    ])
      expect(prompt).toContain(heading);
    expect(prompt).toContain('<analysis>');
    // `/compact <instructions>` reaches the prompt as the focus.
    expect(prompt).toContain('FOCUS TOPIC: "the failing tests"');
    expect(prompt).toContain('Thanks, now run the tests');
    expect(compaction.summaries[0]!.body).toBe('## 1. Primary Request and Intent\nFix the parser.');
    expect(messageText(compaction.messages[1]!)).not.toContain('Walking through');
  });

  it('drops the oldest whole API rounds until the request fits the window, as its prompt-too-long retry does', async () => {
    // Sixteen messages of 1,000 tokens: with the prompt (under 1,000 tokens) a 13,999-token
    // window holds thirteen of them at most. Dropping #1–#3 would fit, but #4 is a tool result:
    // the cut lands on the next round, the assistant turn #5.
    const messages = fileTranscript();
    const tokens = fixedTokens(messages.map(() => 1000));
    const { summarizer, requests } = recordingSummarizer('## 1. Primary Request and Intent\nRun the tests.');
    const input = { messages, tools: [], config: configWith(13_999), state: initialState, tokens };
    const plan = planFor(messages, { config: configWith(13_999), tokens });
    const compaction = await strategy.compact(input, { summarizer, now: () => 0 });
    const expected = messages.map((_, index) =>
      index === 0 ? FATE.kept : index <= 4 ? FATE.dropped : FATE.summarized,
    );
    expect([...compaction.fates]).toEqual(expected);
    expect([...plan.fates]).toEqual(expected);
    expect(plan.summaries).toEqual([{ start: 5, end: 16, kind: 'middle' }]);
    expect(compaction.summaries[0]!.span).toEqual({ start: 5, end: 16, kind: 'middle' });
    const prompt = requests[0]!.prompt;
    expect(prompt).not.toContain('Fix the parser in a.py');
    expect(prompt).not.toContain('[TOOL RESULT c2]');
    expect(prompt).toContain('[TOOL RESULT c3]');
    // The files come from the whole session, as Claude Code's read-file state does.
    expect(compaction.reattached).toHaveLength(5);
    expect(compaction.notes).toContain(
      "The whole history does not fit the 13,999-token window with Claude Code's compaction prompt, so Claude Code " +
        'drops, in whole API rounds, the oldest 4 messages (4,000 tokens) before it compacts: they are dropped without being summarised.',
    );
    // A window that holds the whole request drops nothing.
    const whole = await strategy.compact(
      { ...input, config: configWith(200_000) },
      { summarizer, now: () => 0 },
    );
    expect(whole.fates.includes(FATE.dropped)).toBe(false);
  });

  it('skips a transcript that is only a system prompt', async () => {
    const compaction = await strategy.compact(
      { messages: [system('s')], tools: [], config: configWith(200_000), state: initialState },
      deps,
    );
    expect(compaction.skipped).toBe('no-compressible-window');
    expect(compaction.messages).toEqual([system('s')]);
  });

  it('runs through compactConversation: smaller, no orphans, a real user turn at the end', async () => {
    const messages = fileTranscript();
    const outcome = await compactConversation(
      strategy,
      {
        messages,
        tools: [],
        config: configWith(200_000),
        state: createCompressorState(),
        reason: 'manual',
        systemPrompt: '',
      },
      deps,
    );
    expect(outcome.skipped).toBeNull();
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
    expect(toolPairProblems(outcome.messages)).toEqual([]);
    // Everything the strategy inserted is flagged, so the real-user guarantee brings the latest ask back.
    expect(outcome.messages[outcome.messages.length - 1]).toEqual(user('Thanks, now run the tests'));
  });
});

describe('claude-code on generated sessions', () => {
  it('compacts small-window sessions without orphans, with plan and compact agreeing', async () => {
    const registered = findStrategy('claude-code')!;
    for (const seed of [3, 11, 29]) {
      const { messages, metadata } = generateAgentTranscript({ messageCount: 160, seed });
      const tools = metadata.tools ?? [];
      const config = configWith(16_000);
      const tokens = roughMessageTokens(messages, tools);
      const prepared = registered.prepare(messages, tools);
      const plan = registered.plan({
        messages,
        tools,
        config,
        state: initialState,
        tokens,
        prepared,
      });
      expect(plan.wouldCompress).toBe(true);
      const compaction = await registered.compact(
        { messages, tools, config, state: initialState, tokens, prepared },
        deps,
      );
      expect([...compaction.fates]).toEqual([...plan.fates]);
      expect(toolPairProblems(compaction.messages)).toEqual([]);
      expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
    }
  });
});
