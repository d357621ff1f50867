import type { Message } from './message.ts';

/** Every format Context Lab reads. `internal` is our own lossless JSON export. */
export type TranscriptFormat =
  | 'openai-chat'
  | 'anthropic-messages'
  | 'hermes-session-jsonl'
  | 'hermes-snapshot'
  | 'sharegpt'
  | 'claude-code'
  | 'codex-rollout'
  | 'internal';

/** A tool schema as offered to the model (OpenAI `{type:'function', function:{…}}` or bare). */
export type ToolSchema = { [key: string]: unknown };

/** Where another tool (Claude Code, Codex, Hermes, Anthropic) compacted this conversation itself. */
export interface ForeignCompactionPoint {
  /** Index into `Transcript.messages` of the first message after the compaction. */
  messageIndex: number;
  kind:
    | 'claude-compact-boundary'
    | 'claude-compact-summary'
    | 'codex-compacted'
    | 'codex-context-compacted'
    | 'hermes-summary'
    | 'anthropic-compaction';
  /** 1-based source line (JSONL) when known. */
  line?: number;
  trigger?: string;
  preTokens?: number;
  postTokens?: number;
  summary?: string;
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
}

export interface Transcript {
  messages: Message[];
  metadata: TranscriptMetadata;
}
