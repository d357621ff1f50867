import { aiderFormat } from './aider/aider-format.ts';
import { anthropicMessagesFormat } from './anthropic-messages/anthropic-messages-format.ts';
import { claudeCodeFormat } from './claude-code/claude-code-format.ts';
import { clineFormat } from './cline/cline-format.ts';
import { codexRolloutFormat } from './codex-rollout/codex-rollout-format.ts';
import { geminiCliFormat } from './gemini-cli/gemini-cli-format.ts';
import { hermesSessionJsonlFormat } from './hermes-session-jsonl/hermes-session-jsonl-format.ts';
import { hermesSnapshotFormat } from './hermes-snapshot/hermes-snapshot-format.ts';
import { internalFormat } from './internal/internal-format.ts';
import { openAiChatFormat } from './openai-chat/openai-chat-format.ts';
import { openAiResponsesFormat } from './openai-responses/openai-responses-format.ts';
import { openHandsFormat } from './openhands/openhands-format.ts';
import { shareGptFormat } from './sharegpt/sharegpt-format.ts';
import { sweAgentFormat } from './swe-agent/swe-agent-format.ts';
import type { TranscriptFormatSpec } from './transcript-format-spec.ts';

/**
 * Every format Context Lab reads, one line each. The order is the order of the format menu,
 * and breaks ties between equally confident detections (more specific formats first).
 */
export const TRANSCRIPT_FORMAT_SPECS = [
  openAiChatFormat,
  anthropicMessagesFormat,
  hermesSnapshotFormat,
  hermesSessionJsonlFormat,
  shareGptFormat,
  claudeCodeFormat,
  codexRolloutFormat,
  internalFormat,
  openAiResponsesFormat,
  clineFormat,
  geminiCliFormat,
  sweAgentFormat,
  openHandsFormat,
  aiderFormat,
] as const;

export type TranscriptFormatId = (typeof TRANSCRIPT_FORMAT_SPECS)[number]['id'];

/** Every format id, in registry order. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormatId[] = TRANSCRIPT_FORMAT_SPECS.map(
  (spec) => spec.id,
);

export function isTranscriptFormat(value: unknown): value is TranscriptFormatId {
  return typeof value === 'string' && TRANSCRIPT_FORMAT_SPECS.some((spec) => spec.id === value);
}

/** The spec of a format. */
export function transcriptFormatSpec(id: TranscriptFormatId): TranscriptFormatSpec<TranscriptFormatId> {
  const spec = TRANSCRIPT_FORMAT_SPECS.find((candidate) => candidate.id === id);
  if (!spec) throw new Error(`no transcript format "${id}"`);
  return spec;
}

/** The file picker's `accept` list: every format's file name endings, once each. */
export const IMPORT_FILE_ACCEPT = [
  ...new Set([...TRANSCRIPT_FORMAT_SPECS.flatMap((spec) => spec.fileExtensions), '.txt', 'application/json']),
].join(',');
