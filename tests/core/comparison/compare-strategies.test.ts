import { beforeAll, describe, expect, it } from 'vitest';
import { compareStrategies, type CompareInput } from '#core/comparison/compare-strategies.ts';
import type { Comparison } from '#core/comparison/comparison.ts';
import { comparisonReport } from '#core/comparison/comparison-report.ts';
import { diffLostFacts } from '#core/comparison/diff-lost-facts.ts';
import { formatComparisonMarkdown } from '#core/comparison/format-comparison-markdown.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { planOnce } from '#core/lab/create-planner.ts';
import { roughMessageCounting } from '#core/simulation/message-counting.ts';
import { FATE } from '#core/strategies/strategy.ts';
import { HOST_PRESET, isUserAsk } from '#core/strategies/strategy-kit.ts';
import { findStrategy, STRATEGIES } from '#core/strategies/strategy-registry.ts';

const demo = buildDemoTranscript();
const tools = demo.metadata.tools ?? [];
const counting = roughMessageCounting(demo.messages, tools, HOST_PRESET);
const route = {
  model: 'claude-sonnet-4-6',
  provider: 'anthropic',
  baseUrl: '',
  apiMode: 'anthropic_messages',
  cacheTtl: '5m',
  promptCaching: true,
} as const;

const input = (overrides: Partial<CompareInput> = {}): CompareInput => ({
  messages: demo.messages,
  tools,
  config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 },
  entries: STRATEGIES.map((strategy) => ({ strategy: strategy.name })),
  counting,
  exact: null,
  route,
  ...overrides,
});

let atWindow64k: Comparison;
beforeAll(async () => {
  const result = await compareStrategies(input());
  if (!result.ok) throw new Error(result.error.message);
  atWindow64k = result.value;
});

let requestTokens = counting.toolsTokens;
for (let index = 0; index < demo.messages.length; index++) requestTokens += counting.perMessage[index]!;

/** The triggers of the first six strategies at a 64K window, by hand (strategies added later are not judged here). */
const EXPECTED_THRESHOLDS = {
  // 2026-04: max(50% × 64,000, 64,000 minimum).
  'hermes-2026-04': 64_000,
  // 2026-07: max(75% × 64,000, 64,000) swallows the window → 85% of it.
  'hermes-2026-07': 54_400,
  // 90% of the raw window.
  'codex-cli': 57_600,
  // 64,000 − min(max output, 20,000) − 13,000.
  'claude-code': 31_000,
  // 64,000 − min(20,000, max output).
  opencode: 44_000,
  // 64,000 − 27,000.
  cline: 37_000,
};
const NAMED = new Set(Object.keys(EXPECTED_THRESHOLDS));

describe('compareStrategies on the demo at a 64K window', () => {
  it('has one row per entry, in order, all in one counting', () => {
    expect(atWindow64k.rows.map((row) => row.strategy)).toEqual(STRATEGIES.map((strategy) => strategy.name));
    expect(atWindow64k.tokensBefore).toBe(requestTokens);
    for (const row of atWindow64k.rows) {
      expect(row.tokensBefore).toBe(requestTokens);
      expect(row.lane.totalTokens).toBe(requestTokens);
    }
  });

  it('derives each trigger from the 64,000-token window', () => {
    const thresholds = Object.fromEntries(atWindow64k.rows.map((row) => [row.strategy, row.thresholdTokens]));
    expect(thresholds).toMatchObject(EXPECTED_THRESHOLDS);
    // The demo (~93K tokens) is over every one of them.
    for (const name of Object.keys(EXPECTED_THRESHOLDS))
      expect(atWindow64k.rows.find((row) => row.strategy === name)!.fires, name).toBe(true);
  });

  it("counts Codex's result by its rule: the system prompt, every earlier ask and the handoff", () => {
    const codex = atWindow64k.rows.find((row) => row.strategy === 'codex-cli')!;
    const asks = demo.messages.filter(isUserAsk).length;
    expect(codex.messagesAfter).toBe(1 + asks + 1);
    expect(codex.summaries).toHaveLength(1);
    expect(codex.summaryTokens).toBe(codex.summaries[0]!.tokens);
    expect(codex.lane.after.tokens).toBe(codex.tokensAfter);
    expect(codex.lane.after.keptTokens + codex.lane.after.summaryTokens).toBe(codex.tokensAfter);
  });

  it("draws each lane from the entry's plan fates", () => {
    for (const row of atWindow64k.rows) {
      const strategy = findStrategy(row.strategy)!;
      const plan = planOnce(
        strategy,
        demo.messages,
        {
          config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 },
          estimator: 'rough',
        },
        { tools },
      );
      let summarised = 0;
      for (let index = 0; index < plan.fates.length; index++)
        if (plan.fates[index] === FATE.summarized) summarised += counting.perMessage[index]!;
      const laneSummary = row.lane.segments
        .filter((segment) => segment.kind === 'summary')
        .reduce((sum, segment) => sum + segment.tokens, 0);
      expect(laneSummary, row.strategy).toBe(summarised);
      const last = row.lane.segments[row.lane.segments.length - 1]!;
      expect(last.offset + last.tokens, row.strategy).toBe(requestTokens);
      expect(row.lane.projectedAfterTokens).toBe(plan.after.tokens);
    }
  });

  it('lists lost facts that index the transcript and prices every compaction', () => {
    for (const row of atWindow64k.rows) {
      expect(row.fidelity.lost.length).toBe(row.fidelity.total - row.fidelity.survived);
      for (const fact of row.fidelity.lost) {
        expect(fact.messageIndex).toBeGreaterThanOrEqual(0);
        expect(fact.messageIndex).toBeLessThan(demo.messages.length);
      }
      if (!NAMED.has(row.strategy)) continue;
      expect(row.ledger).not.toBeNull();
      expect(row.nextTurnInputUsd).not.toBeNull();
      expect(row.simulation).not.toBeNull();
      expect(row.simulation!.compactions.length).toBeGreaterThan(0);
    }
    // Codex keeps no assistant or tool message: it loses more than Hermes, which keeps a tail.
    const byName = Object.fromEntries(atWindow64k.rows.map((row) => [row.strategy, row]));
    expect(byName['codex-cli']!.fidelity.score).toBeLessThan(byName['hermes-2026-07']!.fidelity.score);
  });

  it('diffs two rows into what one kept and the other lost', () => {
    const [codex, claude] = ['codex-cli', 'claude-code'].map((name) =>
      atWindow64k.rows.find((row) => row.strategy === name)!,
    );
    const diff = diffLostFacts(codex!.fidelity.lost, claude!.fidelity.lost);
    expect(diff.onlyFirstLost.length + diff.bothLost.length).toBe(codex!.fidelity.lost.length);
    expect(diff.onlySecondLost.length + diff.bothLost.length).toBe(claude!.fidelity.lost.length);
    expect(diff.onlyFirstLost.length + diff.onlySecondLost.length).toBeGreaterThan(0);
  });
});

describe('compareStrategies entries and control', () => {
  it('compares the same strategy at two thresholds', async () => {
    const result = await compareStrategies(
      input({
        config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 200_000 },
        entries: [
          { strategy: 'hermes-2026-04', config: { thresholdPercent: 0.3 } },
          { strategy: 'hermes-2026-04', config: { thresholdPercent: 0.5 } },
        ],
        simulate: false,
      }),
    );
    if (!result.ok) throw new Error(result.error.message);
    const [low, high] = result.value.rows;
    // 30%: max(60,000, 64,000) = 64,000, under the demo's ~93K: fires. 50%: 100,000: does not.
    expect([low!.thresholdTokens, low!.fires]).toEqual([64_000, true]);
    expect([high!.thresholdTokens, high!.fires, high!.reason]).toEqual([100_000, false, 'below-threshold']);
    expect(low!.label).toBe('Hermes (2026-04) (threshold 30%)');
    expect(high!.simulation).toBeNull();
  });

  it('refuses no entries and unknown strategies', async () => {
    expect(await compareStrategies(input({ entries: [] }))).toMatchObject({
      ok: false,
      error: { type: 'NoEntries' },
    });
    expect(await compareStrategies(input({ entries: [{ strategy: 'nope' }] }))).toMatchObject({
      ok: false,
      error: { type: 'UnknownStrategy', name: 'nope' },
    });
  });

  it('reports progress up to the total and stops when cancelled', async () => {
    const seen: number[] = [];
    const result = await compareStrategies(input({ entries: [{ strategy: 'codex-cli' }] }), {
      onProgress: (progress) => {
        seen.push(progress.done);
        expect(progress.total).toBe(1 + demo.messages.length);
      },
    });
    expect(result.ok).toBe(true);
    expect(seen[0]).toBe(0);
    expect(seen[seen.length - 1]).toBe(1 + demo.messages.length);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    const signal = { aborted: false };
    const cancelled = await compareStrategies(
      input({ entries: [{ strategy: 'codex-cli' }, { strategy: 'claude-code' }] }),
      {
        signal,
        onProgress: (progress) => {
          if (progress.label === 'Claude Code') signal.aborted = true;
        },
      },
    );
    expect(cancelled).toMatchObject({ ok: false, error: { type: 'Cancelled' } });
  });
});

describe('comparison exports', () => {
  it('writes the JSON contract of ROUND2 §2', () => {
    const report = comparisonReport(atWindow64k, 'demo.json');
    expect(report).toMatchObject({ file: 'demo.json', contextLength: 64_000 });
    expect(report.strategies).toHaveLength(atWindow64k.rows.length);
    for (const entry of report.strategies) {
      expect(Object.keys(entry)).toEqual(
        expect.arrayContaining([
          'name',
          'fires',
          'thresholdTokens',
          'tokensBefore',
          'tokensAfter',
          'messagesAfter',
          'summaryTokens',
          'fidelity',
          'cost',
          'simulation',
        ]),
      );
      expect(Object.keys(entry.fidelity)).toEqual(expect.arrayContaining(['score', 'total', 'lost']));
      expect(Object.keys(entry.cost)).toEqual(
        expect.arrayContaining(['summaryUsd', 'cacheRewriteTokens', 'nextTurnInputUsd']),
      );
      expect(Object.keys(entry.simulation!)).toEqual(
        expect.arrayContaining(['turns', 'compactions', 'peakTokens', 'inputTokensBilled']),
      );
      for (const fact of entry.fidelity.lost)
        expect(Object.keys(fact)).toEqual(expect.arrayContaining(['kind', 'text']));
    }
    // Plain data: survives JSON as is.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('writes Markdown with the table, each entry’s losses by kind and its summary', () => {
    const markdown = formatComparisonMarkdown(atWindow64k, 'Demo | session');
    expect(markdown).toContain('# Strategy comparison: Demo | session');
    const tableRows = markdown.split('\n').filter((line) => line.startsWith('| '));
    // Header, separator and one line per entry, every one with the same 11 cells.
    expect(tableRows).toHaveLength(2 + atWindow64k.rows.length);
    for (const line of tableRows) expect(line.split(/(?<!\\)\|/).length - 2).toBe(11);
    for (const row of atWindow64k.rows) {
      expect(markdown).toContain(`## ${row.label}`);
      const firstLost = row.fidelity.lost[0];
      if (firstLost) expect(markdown).toContain(`message #${firstLost.messageIndex}`);
    }
    expect(markdown).toContain('### Summary');
  });
});

describe('compareStrategies with a pinned message', () => {
  it('keeps it in every entry that would have summarised it, and says so in the explanation and the notes', async () => {
    // #23, an assistant answer in the middle of every strategy that summarises at this window.
    const result = await compareStrategies(input({ pinned: [23], simulate: false }));
    if (!result.ok) throw new Error(result.error.message);
    for (const [at, row] of result.value.rows.entries()) {
      const unpinned = atWindow64k.rows[at]!;
      expect(row.explanation.slice(0, unpinned.explanation.length)).toEqual(unpinned.explanation);
      expect(row.explanation).toContain('1 pinned message kept verbatim.');
      if (row.skipped !== null) continue;
      const rescued = `Pinned message #23 kept verbatim: this strategy would have summarised it.`;
      // Whether this strategy would have summarised it is the unpinned plan's fate.
      const plan = planOnce(findStrategy(row.strategy)!, demo.messages, {
        config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 },
        estimator: 'rough',
      });
      if (plan.fates[23] === FATE.summarized) {
        expect(row.explanation).toContain(rescued);
        expect(row.notes).toContain(rescued);
        // Kept whole: one message more than without the pin.
        expect(row.messagesAfter).toBe(unpinned.messagesAfter + 1);
      } else expect(row.notes).not.toContain(rescued);
      expect(row.tokensAfter).toBeGreaterThanOrEqual(unpinned.tokensAfter);
    }
  });
});
