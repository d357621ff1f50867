import type { TranscriptFormatId } from '../import/formats/transcript-format-registry.ts';
import type { Message } from './message.ts';

/** Every format Context Lab reads; the registry of import formats defines them. */
export type TranscriptFormat = TranscriptFormatId;

/** Every kind of foreign compaction point. */
export const COMPACTION_POINT_KINDS = [
  'claude-compact-boundary',
  'claude-compact-summary',
  'codex-compacted',
  'codex-context-compacted',
  'hermes-summary',
  'anthropic-compaction',
  'openai-compaction',
  'openhands-condensation',
] as const;
export type CompactionPointKind = (typeof COMPACTION_POINT_KINDS)[number];

/** A tool schema as offered to the model (OpenAI `{type:'function', function:{…}}` or bare). */
export type ToolSchema = { [key: string]: unknown };

/** Where another tool (Claude Code, Codex, Hermes, Anthropic) compacted this conversation itself. */
export interface ForeignCompactionPoint {
  /** Index into `Transcript.messages` of the first message after the compaction. */
  messageIndex: number;
  kind: CompactionPointKind;
  /** 1-based source line (JSONL) when known. */
  line?: number;
  trigger?: string;
  preTokens?: number;
  postTokens?: number;
  summary?: string;
  /**
   * How many items a Codex `replacement_history` held. The history is not expanded into
   * messages: it is the provider's own rewrite of what came before, already in the transcript.
   */
  replacedItems?: number;
}

/**
 * Where one source record of a multi-record file begins: a ShareGPT conversation, a Hermes
 * session of a continuation chain. Several records are imported one after another.
 */
export interface TranscriptSegment {
  /** Index into `Transcript.messages` of the segment's first message. */
  messageIndex: number;
  /** 1-based source line (JSONL) when known. */
  line?: number;
  label: string;
  sessionId?: string;
}

/** Hermes lineage fields kept from a session export. */
export interface SessionLineage {
  sessionId: string;
  parentSessionId: string | null;
  endReason: string | null;
  title: string | null;
}

export interface TranscriptMetadata {
  format: TranscriptFormat;
  sourceSessionId?: string;
  model?: string;
  /** ISO 8601 when the source has timestamps. */
  startedAt?: string;
  endedAt?: string;
  /**
   * The system prompt's text when the source has one. The same prompt is also
   * `messages[0]` with role `system`, which is what the compressor and the map see.
   */
  systemPrompt?: string;
  tools?: ToolSchema[];
  compactionPoints: ForeignCompactionPoint[];
  title?: string;
  /** For Hermes exports holding several sessions of one continuation chain. */
  lineage?: SessionLineage[];
  /** Working directory of the recorded session (Claude Code, Codex). */
  cwd?: string;
  /** Record boundaries when the file held several conversations or sessions. */
  segments?: TranscriptSegment[];
}

export interface Transcript {
  messages: Message[];
  metadata: TranscriptMetadata;
}
