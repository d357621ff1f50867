import { exportHermesSessionJsonl } from '../../core/export/export-hermes-session-jsonl.ts';
import { exportInternalJson } from '../../core/export/export-internal-json.ts';
import { exportMarkdown } from '../../core/export/export-markdown.ts';
import { exportShareGptJsonl } from '../../core/export/export-sharegpt-jsonl.ts';
import type { Preset } from '../../core/presets/preset.ts';
import { assertNever } from '../../core/shared/assert-never.ts';
import { isPlainObject } from '../../core/shared/safe-parse-json.ts';
import type { Message } from '../../core/transcript/message.ts';
import { type Transcript, type TranscriptMetadata } from '../../core/transcript/transcript.ts';
import { isTranscriptFormat } from '../../core/import/formats/transcript-format-registry.ts';
import { sessionRowToHermesRow } from './row-mappers.ts';
import type { SessionRow } from './session-row.ts';

export type LineageExportFormat = 'hermes-jsonl' | 'internal-json' | 'sharegpt' | 'markdown';

export interface LineageSegment {
  session: SessionRow;
  messages: Message[];
}

export interface LineageExportOptions {
  /** ShareGPT `timestamp`; core has no clock. */
  timestampIso?: string;
  preset?: Preset;
}

/**
 * A continuation chain, root first, in one of the export formats:
 * - `hermes-jsonl`: one line per session, lineage columns kept (`hermes sessions export`), so
 *   the chain can be imported and rebuilt;
 * - `internal-json` and `markdown`: one transcript of every session's messages in order, with a
 *   segment (and a lineage entry) per session — a compressed child repeats the head and holds
 *   the summary, which is the point of seeing the chain;
 * - `sharegpt`: one trajectory line per session, since each is a conversation the model saw.
 */
export function exportLineage(
  lineage: readonly LineageSegment[],
  format: LineageExportFormat,
  options: LineageExportOptions = {},
): string {
  switch (format) {
    case 'hermes-jsonl':
      return exportHermesSessionJsonl(
        lineage.map(({ session, messages }) => ({ session: sessionRowToHermesRow(session), messages })),
      );
    case 'internal-json':
      return exportInternalJson(lineageTranscript(lineage));
    case 'markdown':
      return exportMarkdown(lineageTranscript(lineage));
    case 'sharegpt':
      return lineage.map((segment) => exportShareGptJsonl(lineageTranscript([segment]), options)).join('');
    default:
      return assertNever(format);
  }
}

/** The chain as one transcript; metadata comes from the tip (the newest session). */
export function lineageTranscript(lineage: readonly LineageSegment[]): Transcript {
  const root = lineage[0]?.session;
  const tip = lineage[lineage.length - 1]?.session;
  const stored = isPlainObject(tip?.metadata) ? tip.metadata : {};
  const metadata: TranscriptMetadata = {
    format: isTranscriptFormat(stored.format) ? stored.format : 'internal',
    compactionPoints: [],
  };
  if (tip?.title) metadata.title = tip.title;
  if (tip?.model) metadata.model = tip.model;
  if (tip) metadata.sourceSessionId = tip.id;
  if (tip?.systemPrompt) metadata.systemPrompt = tip.systemPrompt;
  if (root) metadata.startedAt = new Date(root.startedAt).toISOString();
  if (tip?.endedAt != null) metadata.endedAt = new Date(tip.endedAt).toISOString();
  if (Array.isArray(stored.tools)) metadata.tools = stored.tools.filter(isPlainObject);
  const messages: Message[] = [];
  if (lineage.length > 1) {
    metadata.lineage = lineage.map(({ session }) => ({
      sessionId: session.id,
      parentSessionId: session.parentSessionId,
      endReason: session.endReason,
      title: session.title,
    }));
    metadata.segments = [];
  }
  for (const { session, messages: sessionMessages } of lineage) {
    metadata.segments?.push({
      messageIndex: messages.length,
      label: session.title ?? session.id,
      sessionId: session.id,
    });
    messages.push(...sessionMessages);
  }
  return { messages, metadata };
}
