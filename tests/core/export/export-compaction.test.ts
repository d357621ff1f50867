import { describe, expect, it } from 'vitest';
import {
  COMPACTION_EXPORT_FORMAT,
  exportCompactionJson,
  exportCompactionMarkdown,
} from '#core/export/export-compaction.ts';
import type { FactKind } from '#core/fidelity/fact.ts';
import type { CompactionEpoch } from '#core/sessions/compaction-epoch.ts';
import { safeParseJson } from '#core/shared/safe-parse-json.ts';

const kind = (total: number, survived: number) => ({
  total,
  survived,
  score: total === 0 ? 1 : survived / total,
});
const byKind: Record<FactKind, ReturnType<typeof kind>> = {
  path: kind(2, 1),
  error: kind(1, 0),
  identifier: kind(0, 0),
  command: kind(1, 1),
  url: kind(0, 0),
  ask: kind(0, 0),
  decision: kind(0, 0),
};

/** A compaction of 10 messages into 4, written by hand: every figure below is read back verbatim. */
const EPOCH: CompactionEpoch = {
  id: 7,
  number: 2,
  sessionId: '20270115_080000_aaaaaa',
  childSessionId: null,
  mode: 'in-place',
  status: 'applied',
  createdAt: Date.UTC(2027, 0, 15, 9, 30, 0),
  changedAt: Date.UTC(2027, 0, 15, 9, 30, 0),
  reason: 'manual',
  attemptId: 'attempt-1',
  reviewed: true,
  summaries: [
    {
      body: 'Goal: fix `parser_spec`.\n```\nTypeError in src/parse.ts\n```',
      span: { start: 2, end: 8, kind: 'middle' },
      edited: true,
      fallback: false,
    },
  ],
  boundaries: {
    messagesBefore: 10,
    messagesAfter: 4,
    head: 2,
    middle: 6,
    tail: 2,
    kept: 4,
    pruned: 0,
    summarized: 6,
    dropped: 0,
    spans: [{ start: 2, end: 8, kind: 'middle' }],
  },
  settings: {
    strategy: 'hermes-2026-07',
    strategyLabel: 'Hermes 2026-07',
    mode: 'in-place',
    contextLength: 64_000,
    thresholdPercent: 0.75,
    targetRatio: 0.2,
    protectFirstN: 3,
    protectLastN: 20,
    strategyOptions: {},
    focusTopic: 'parser',
    summarizer: 'Anthropic claude-sonnet-4',
    model: 'claude-sonnet-4',
  },
  tokensBefore: 48_000,
  tokensAfter: 9_000,
  assessment: {
    fidelity: {
      score: 0.5,
      total: 4,
      survived: 2,
      byKind,
      lost: [
        { kind: 'path', text: 'src/lexer.ts', display: 'src/lexer.ts', messageIndex: 3, count: 1 },
        { kind: 'error', text: 'keyerror: <b>', display: 'KeyError: <b>', messageIndex: 5, count: 2 },
      ],
    },
    ledger: {
      summaryInputTokens: 40_000,
      summaryOutputTokens: 1_500,
      summaryUsd: 0.1425,
      cacheRewriteTokens: 8_000,
      cacheRewriteUsd: 0.03,
      savedTokensPerTurn: 39_000,
      savedUsdPerTurn: 0.0117,
      firstTurnSavedUsd: 0.0141,
      costUsd: 0.1725,
      breakEvenTurn: 15,
      priced: true,
      notes: ['cache figures from the last response'],
    },
    cache: {
      tokensBefore: 48_000,
      tokensAfter: 9_000,
      cachedTokensBefore: 47_000,
      cachedTokensAfter: 1_000,
      rewriteTokens: 8_000,
      source: 'usage',
    },
    missingPins: [],
    summaryMeasured: true,
  },
};

describe('exportCompactionJson', () => {
  it('carries summary, boundaries, settings, fidelity and ledger with the replay CLI’s field names', () => {
    const parsed = safeParseJson(exportCompactionJson(EPOCH, { title: 'Fix tests' }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      format: COMPACTION_EXPORT_FORMAT,
      version: 1,
      conversation: 'Fix tests',
      epoch: 2,
      mode: 'in-place',
      reason: 'manual',
      reviewed: true,
      createdAt: '2027-01-15T09:30:00.000Z',
      settings: { strategy: 'hermes-2026-07', contextLength: 64_000, focusTopic: 'parser' },
      boundaries: { head: 2, middle: 6, tail: 2, messagesBefore: 10, messagesAfter: 4 },
      tokens: { before: 48_000, after: 9_000 },
      summaries: [{ body: EPOCH.summaries[0]!.body, edited: true }],
      fidelity: {
        score: 0.5,
        total: 4,
        lost: [
          { kind: 'path', text: 'src/lexer.ts', message: 3 },
          { kind: 'error', text: 'KeyError: <b>', message: 5 },
        ],
      },
      ledger: {
        summaryInputTokens: 40_000,
        summaryOutputTokens: 1_500,
        summaryUsd: 0.1425,
        cacheRewriteTokens: 8_000,
        cacheRewriteUsd: 0.03,
        savedTokensPerTurn: 39_000,
        savedUsdPerTurn: 0.0117,
        breakEvenTurn: 15,
        summaryMeasured: true,
      },
    });
  });

  it('keeps unknown prices null, never 0', () => {
    const unpriced: CompactionEpoch = {
      ...EPOCH,
      assessment: {
        ...EPOCH.assessment!,
        ledger: {
          ...EPOCH.assessment!.ledger,
          summaryUsd: null,
          costUsd: null,
          breakEvenTurn: null,
          priced: false,
        },
      },
    };
    const parsed = safeParseJson(exportCompactionJson(unpriced, { title: null }));
    expect(parsed.ok && parsed.value).toMatchObject({ ledger: { summaryUsd: null, breakEvenTurn: null } });
  });
});

describe('exportCompactionMarkdown', () => {
  const markdown = exportCompactionMarkdown(EPOCH, { title: 'Fix <tests>' });

  it('puts the summary verbatim in a fence longer than its own backtick runs', () => {
    expect(markdown).toContain(`\`\`\`\`text\n${EPOCH.summaries[0]!.body}\n\`\`\`\``);
    expect(markdown).toContain('## Summary (messages 2–7, edited in review)');
  });

  it('lists boundaries, settings, fidelity by kind, lost facts and the ledger', () => {
    expect(markdown).toContain('# Compaction 2 of Fix &lt;tests&gt;');
    expect(markdown).toContain('| 2 | 6 | 2 | 10 | 4 | 4 | 0 | 6 | 0 |');
    expect(markdown).toContain('window 64,000 tokens, threshold 75%');
    expect(markdown).toContain('50%: 2 of 4 facts still visible.');
    expect(markdown).toContain('| path | 1 | 2 |');
    expect(markdown).not.toContain('| identifier |');
    expect(markdown).toContain('- error: `KeyError: <b>` (message #5)');
    expect(markdown).toContain('| summariser call (billed) | 40,000 in + 1,500 out | $0.14 |');
    expect(markdown).toContain('Break-even: turn 15 after the compaction.');
  });
});
