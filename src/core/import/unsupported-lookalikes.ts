import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { FormatDetectors, FormatEvidence } from './formats/transcript-format-spec.ts';
import { firstObject } from './has-anthropic-blocks.ts';

/** A file from a tool Context Lab cannot read yet, recognised so the error can say what it is. */
export interface UnsupportedLookalike {
  /** "a Qwen Code session": read after "looks like". */
  readonly name: string;
  /** What to do instead, when there is something. */
  readonly hint?: string;
  readonly detect: FormatDetectors;
}

/** What a file was recognised as. */
export interface LookalikeMatch extends FormatEvidence {
  name: string;
  hint?: string;
}

const sure = (reason: string): FormatEvidence => ({ confidence: 0.97, reason });

/**
 * Other tools' files that resemble a supported format closely enough to be misread (a Qwen
 * Code session looks like Claude Code's), or that people try first (chat exports). Each is
 * recognised from its structure and refused with its name instead of a misleading parse error.
 */
export const UNSUPPORTED_LOOKALIKES: readonly UnsupportedLookalike[] = [
  {
    name: 'a Cline or Roo Code UI message log (ui_messages.json)',
    hint: 'import api_conversation_history.json from the same task folder instead',
    detect: {
      document: (value) => {
        const first = Array.isArray(value) ? firstObject(value) : undefined;
        return first && typeof first.ts === 'number' && (first.type === 'say' || first.type === 'ask')
          ? sure('an array of {ts, type:"say"|"ask"} UI events')
          : null;
      },
    },
  },
  {
    name: 'a ChatGPT data export (conversations.json)',
    detect: {
      document: (value) => {
        const first = Array.isArray(value) ? firstObject(value) : isPlainObject(value) ? value : undefined;
        return first && isPlainObject(first.mapping) && ('title' in first || 'create_time' in first)
          ? sure('conversations with a "mapping" tree of message nodes')
          : null;
      },
    },
  },
  {
    name: 'a Claude.ai data export (conversations.json)',
    detect: {
      document: (value) => {
        const first = Array.isArray(value) ? firstObject(value) : isPlainObject(value) ? value : undefined;
        return first && Array.isArray(first.chat_messages)
          ? sure('conversations with "chat_messages"')
          : null;
      },
    },
  },
  {
    name: 'a Qwen Code session',
    detect: {
      record: (record) =>
        (record.type === 'user' || record.type === 'assistant' || record.type === 'tool_result') &&
        isPlainObject(record.message) &&
        Array.isArray(record.message.parts) &&
        !('content' in record.message)
          ? sure('records whose message holds Gemini-style "parts"')
          : null,
    },
  },
  {
    name: 'a Hugging Face session trace',
    detect: {
      record: (record) =>
        record.type === 'session' && 'harness' in record
          ? sure('a {"type":"session","harness"} header')
          : null,
    },
  },
  {
    name: 'a Goose session',
    detect: {
      record: (record) =>
        typeof record.role === 'string' && typeof record.created === 'number' && Array.isArray(record.content)
          ? { confidence: 0.92, reason: 'lines are {role, created, content[]} messages' }
          : null,
    },
  },
  {
    name: 'an opencode storage file (one message or part per file)',
    detect: {
      document: (value) =>
        isPlainObject(value) &&
        typeof value.sessionID === 'string' &&
        ('role' in value || 'messageID' in value)
          ? sure('an object with "sessionID" and a role or "messageID"')
          : null,
    },
  },
  {
    name: 'a Continue session',
    detect: {
      document: (value) => {
        if (!isPlainObject(value) || !Array.isArray(value.history)) return null;
        const first = firstObject(value.history);
        return first && isPlainObject(first.message) && 'contextItems' in first
          ? sure('a "history" of {message, contextItems} items')
          : null;
      },
    },
  },
];

/** The lookalike a parsed JSON document is, if any. */
export function documentLookalike(value: unknown): LookalikeMatch | null {
  const record = Array.isArray(value) ? firstObject(value) : isPlainObject(value) ? value : undefined;
  return bestMatch((detect) => [
    detect.document?.(value) ?? null,
    record ? (detect.record?.(record) ?? null) : null,
  ]);
}

/** The lookalike the first records of a JSONL file are, if any. */
export function recordsLookalike(records: readonly Record<string, unknown>[]): LookalikeMatch | null {
  return bestMatch((detect) => records.map((record) => detect.record?.(record) ?? null));
}

function bestMatch(
  evidenceOf: (detect: FormatDetectors) => (FormatEvidence | null)[],
): LookalikeMatch | null {
  let best: LookalikeMatch | null = null;
  for (const lookalike of UNSUPPORTED_LOOKALIKES) {
    for (const evidence of evidenceOf(lookalike.detect)) {
      if (evidence && (!best || evidence.confidence > best.confidence)) {
        best = { ...evidence, name: lookalike.name, ...(lookalike.hint ? { hint: lookalike.hint } : {}) };
      }
    }
  }
  return best;
}
