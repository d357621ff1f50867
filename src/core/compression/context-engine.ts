/**
 * The pluggable context engine (Hermes `agent/context_engine.py`): decides when and how a
 * conversation is compacted, tracks usage, and may offer tools. The built-in compressor is
 * one engine (`createCompressorEngine`); others are chosen by name in settings through the
 * registry and never switch themselves on.
 */
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import type { CompressionResult } from './compress.ts';
import type { PromptUsage } from './compression-gates.ts';
import type { AbortSignalLike } from './summarizer.ts';

/** Per-call compaction options (the rest of the configuration belongs to the engine). */
export interface EngineCompressOptions {
  readonly focusTopic?: string;
  readonly force?: boolean;
  readonly memoryContext?: string;
  readonly currentTokens?: number;
  readonly today?: string | null;
  readonly signal?: AbortSignalLike;
}

/** Why a session started: a fresh one, a resume, or the child of a compaction rotation. */
export interface SessionStartInfo {
  readonly boundaryReason?: 'new' | 'resume' | 'compression';
  readonly oldSessionId?: string;
}

/** Why a session ended (Hermes `end_reason`, e.g. `compression`, `user_exit`, `session_reset`). */
export type SessionEndReason = string;

export interface ContextEngine {
  /** Short identifier, e.g. `compressor`. */
  readonly name: string;
  /** Whether compaction should fire at `tokens` (default: the last provider prompt count). */
  shouldCompress(tokens?: number): boolean;
  compress(messages: readonly Message[], options?: EngineCompressOptions): Promise<CompressionResult>;
  /** Called with the usage of every provider response. */
  updateFromResponse(usage: PromptUsage): void;
  onSessionStart(sessionId: string, info?: SessionStartInfo): void;
  /** A real session boundary (exit, reset, expiry), never per turn. */
  onSessionEnd(sessionId: string, reason: SessionEndReason): void;
  /** Tool schemas the engine offers the model (none for the compressor). */
  readonly tools?: readonly ToolSchema[];
}
