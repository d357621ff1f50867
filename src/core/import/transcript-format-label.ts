import type { TranscriptFormat } from '../transcript/transcript.ts';
import { assertNever } from '../shared/assert-never.ts';

/** The name a person reads in an error message or the import dialog. */
export function transcriptFormatLabel(format: TranscriptFormat | 'unknown'): string {
  switch (format) {
    case 'openai-chat':
      return 'OpenAI Chat JSON';
    case 'anthropic-messages':
      return 'Anthropic Messages JSON';
    case 'hermes-session-jsonl':
      return 'Hermes session JSONL';
    case 'hermes-snapshot':
      return 'Hermes session JSON';
    case 'sharegpt':
      return 'ShareGPT JSONL';
    case 'claude-code':
      return 'Claude Code JSONL';
    case 'codex-rollout':
      return 'Codex rollout JSONL';
    case 'internal':
      return 'Context Lab JSON';
    case 'unknown':
      return 'Transcript import';
    default:
      return assertNever(format);
  }
}

/** Formats read one JSON object per line (and can be streamed). */
export function isJsonlFormat(format: TranscriptFormat): boolean {
  return (
    format === 'hermes-session-jsonl' ||
    format === 'sharegpt' ||
    format === 'claude-code' ||
    format === 'codex-rollout'
  );
}

/** What a file of this format looks like, for the "expected …" part of an error. */
export function transcriptFormatExpectation(format: TranscriptFormat | 'unknown'): string {
  switch (format) {
    case 'openai-chat':
      return 'a JSON object with a "messages" array, a bare array of messages, or a chat.completion response';
    case 'anthropic-messages':
      return 'a Messages request with "messages" (content blocks) or a response with "type":"message"';
    case 'hermes-session-jsonl':
      return 'one Hermes session object per line with a "messages" array';
    case 'hermes-snapshot':
      return 'a Hermes session object with "session_id" and a "messages" array';
    case 'sharegpt':
      return 'one {"conversations":[{"from","value"}]} object per line';
    case 'claude-code':
      return 'one JSON object per line with "type":"user" or "assistant" records';
    case 'codex-rollout':
      return 'one {"timestamp","type","payload"} object per line';
    case 'internal':
      return 'a {"format":"context-lab-transcript","version":1} document';
    case 'unknown':
      return 'OpenAI Chat or Anthropic Messages JSON, a Hermes session, ShareGPT, Claude Code or Codex JSONL';
    default:
      return assertNever(format);
  }
}
