/**
 * One compaction as a portable artifact (peers.md §4 row 12): the summary the model was handed,
 * where the cut fell, the settings it ran with, what it kept (fidelity) and what it cost (the
 * ledger). JSON for tools, Markdown for people; both from the same stored epoch.
 */
import { FACT_KINDS } from '../fidelity/fact.ts';
import type { CompactionEpoch } from '../sessions/compaction-epoch.ts';
import { formatCount } from '../shared/format-count.ts';
import { formatUsd } from '../usage/format-usd.ts';
import { markdownCode, markdownInline } from './markdown-inline.ts';

export const COMPACTION_EXPORT_FORMAT = 'context-lab-compaction';
export const COMPACTION_EXPORT_VERSION = 1;

/** The context the epoch record does not hold itself. */
export interface CompactionExportContext {
  /** The conversation's title, for the heading. */
  readonly title: string | null;
}

/**
 * The JSON artifact. Field names of `fidelity` and `ledger` are the replay CLI's (`npm run replay
 * -- --json`), with `null` where a price is unknown.
 *
 * @example JSON.parse(exportCompactionJson(epoch, { title: 'Fix tests' })).ledger.breakEvenTurn // 3
 */
export function exportCompactionJson(epoch: CompactionEpoch, context: CompactionExportContext): string {
  const assessment = epoch.assessment;
  const ledger = assessment?.ledger ?? null;
  const document = {
    format: COMPACTION_EXPORT_FORMAT,
    version: COMPACTION_EXPORT_VERSION,
    conversation: context.title,
    epoch: epoch.number,
    sessionId: epoch.sessionId,
    childSessionId: epoch.childSessionId,
    mode: epoch.mode,
    status: epoch.status,
    reason: epoch.reason,
    reviewed: epoch.reviewed,
    createdAt: new Date(epoch.createdAt).toISOString(),
    settings: epoch.settings,
    boundaries: epoch.boundaries,
    tokens: { before: epoch.tokensBefore, after: epoch.tokensAfter },
    summaries: epoch.summaries,
    fidelity: assessment
      ? {
          score: assessment.fidelity.score,
          total: assessment.fidelity.total,
          survived: assessment.fidelity.survived,
          byKind: assessment.fidelity.byKind,
          lost: assessment.fidelity.lost.map((fact) => ({
            kind: fact.kind,
            text: fact.display,
            message: fact.messageIndex,
          })),
        }
      : null,
    ledger: ledger
      ? {
          summaryInputTokens: ledger.summaryInputTokens,
          summaryOutputTokens: ledger.summaryOutputTokens,
          summaryUsd: ledger.summaryUsd,
          cacheRewriteTokens: ledger.cacheRewriteTokens,
          cacheRewriteUsd: ledger.cacheRewriteUsd,
          savedTokensPerTurn: ledger.savedTokensPerTurn,
          savedUsdPerTurn: ledger.savedUsdPerTurn,
          breakEvenTurn: ledger.breakEvenTurn,
          costUsd: ledger.costUsd,
          summaryMeasured: assessment!.summaryMeasured,
          notes: ledger.notes,
        }
      : null,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

const REASONS: Readonly<Record<CompactionEpoch['reason'], string>> = {
  hygiene: 'session hygiene (85% of the window)',
  preflight: 'preflight (request over the threshold)',
  'pre-api': 'the check before a request',
  'post-turn': 'the check after a tool round',
  overflow: 'overflow recovery',
  manual: '/compress',
  replay: 'a replay saved in the lab',
};

/**
 * The Markdown artifact: a heading, the facts as a list, the summary verbatim in a fenced block
 * (fenced longer than any backtick run inside it), and tables for boundaries, fidelity and the
 * ledger. Stored values that came from outside (titles, fact texts) are escaped.
 */
export function exportCompactionMarkdown(epoch: CompactionEpoch, context: CompactionExportContext): string {
  const { settings, boundaries, assessment } = epoch;
  const out: string[] = [
    `# Compaction ${epoch.number}${context.title ? ` of ${markdownInline(context.title)}` : ''}`,
    '',
    `- Committed: ${new Date(epoch.createdAt).toISOString()} (${epoch.status})`,
    `- Why: ${REASONS[epoch.reason]}${epoch.reviewed ? ', reviewed before commit' : ''}`,
    `- Mode: ${epoch.mode === 'in-place' ? `in place (session ${markdownCode(epoch.sessionId)} kept its id)` : `rotation (${markdownCode(epoch.sessionId)} → ${markdownCode(epoch.childSessionId ?? '')})`}`,
    `- Strategy: ${markdownInline(settings.strategyLabel)} (${markdownCode(settings.strategy)}); summary by ${markdownInline(settings.summarizer)}`,
    `- Settings: window ${formatCount(settings.contextLength)} tokens, threshold ${percent(settings.thresholdPercent)}, target ratio ${percent(settings.targetRatio)}, protect first ${settings.protectFirstN}, protect last ${settings.protectLastN}${settings.focusTopic ? `, focus ${markdownCode(settings.focusTopic)}` : ''}${optionsText(settings.strategyOptions)}`,
    `- Tokens: ${formatCount(epoch.tokensBefore)} → ${formatCount(epoch.tokensAfter)} (request estimate)`,
    '',
    '## Boundaries',
    '',
    '| head | middle | tail | before | after | kept | shortened | summarised | dropped |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${[boundaries.head, boundaries.middle, boundaries.tail, boundaries.messagesBefore, boundaries.messagesAfter, boundaries.kept, boundaries.pruned, boundaries.summarized, boundaries.dropped].map(formatCount).join(' | ')} |`,
    '',
  ];
  epoch.summaries.forEach((summary, index) => {
    out.push(
      `## Summary${epoch.summaries.length > 1 ? ` ${index + 1}` : ''} (messages ${summary.span.start}–${summary.span.end - 1}${summary.edited ? ', edited in review' : ''}${summary.fallback ? ', fallback' : ''})`,
      '',
      ...fenced(summary.body),
      '',
    );
  });
  if (epoch.summaries.length === 0)
    out.push('## Summary', '', 'None: this strategy only removed or shortened messages.', '');
  if (assessment) {
    const { fidelity, ledger } = assessment;
    out.push(
      '## Fidelity',
      '',
      `${percent(fidelity.score)}: ${formatCount(fidelity.survived)} of ${formatCount(fidelity.total)} facts still visible.`,
      '',
      '| kind | survived | total |',
      '| --- | ---: | ---: |',
      ...FACT_KINDS.filter((kind) => fidelity.byKind[kind].total > 0).map(
        (kind) => `| ${kind} | ${fidelity.byKind[kind].survived} | ${fidelity.byKind[kind].total} |`,
      ),
      '',
    );
    if (fidelity.lost.length > 0) {
      out.push('Lost:', '');
      for (const fact of fidelity.lost)
        out.push(`- ${fact.kind}: ${markdownCode(fact.display)} (message #${fact.messageIndex})`);
      out.push('');
    }
    out.push(
      '## Ledger',
      '',
      '| | tokens | USD |',
      '| --- | ---: | ---: |',
      `| summariser call (${assessment.summaryMeasured ? 'billed' : 'counted'}) | ${formatCount(ledger.summaryInputTokens)} in + ${formatCount(ledger.summaryOutputTokens)} out | ${formatUsd(ledger.summaryUsd)} |`,
      `| cache re-written | ${formatCount(ledger.cacheRewriteTokens)} | ${formatUsd(ledger.cacheRewriteUsd)} |`,
      `| cost | | ${formatUsd(ledger.costUsd)} |`,
      `| saved per later turn | ${formatCount(ledger.savedTokensPerTurn)} | ${formatUsd(ledger.savedUsdPerTurn)} |`,
      '',
      `Break-even: ${ledger.breakEvenTurn !== null ? `turn ${ledger.breakEvenTurn} after the compaction` : ledger.priced ? 'never (it saves less than it costs)' : 'unknown (a price is missing)'}.`,
      '',
    );
    for (const note of ledger.notes) out.push(`- ${markdownInline(note)}`);
  }
  return `${out.join('\n').trimEnd()}\n`;
}

const percent = (fraction: number): string => `${Math.round(fraction * 1000) / 10}%`;

function optionsText(options: Readonly<Record<string, number>>): string {
  const entries = Object.entries(options);
  return entries.length === 0
    ? ''
    : `, ${entries.map(([key, value]) => `${markdownCode(key)} ${value}`).join(', ')}`;
}

/** A fenced block longer than any backtick run in `text`, so the summary comes out verbatim. */
function fenced(text: string): string[] {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return [`${fence}text`, text, fence];
}
