import { messageText, type Message } from '../transcript/message.ts';
import type { Transcript } from '../transcript/transcript.ts';
import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import { randomMessageId, randomBase62, randomUuid } from './anthropic-ids.ts';
import { hashString } from './hash-string.ts';
import { createSeededRandom } from './seeded-random.ts';

export interface ClaudeCodeJsonlOptions {
  sessionId: string;
  /** ISO 8601 time of the first record; later records follow a few seconds apart. */
  startIso: string;
  /** Working directory written on every record. */
  cwd?: string;
  /** Claude Code version written on every record. */
  version?: string;
  gitBranch?: string;
  /**
   * Index of the first record in the session (default 0). Record uuids and timestamps are
   * derived from it, so several transcripts can continue one session.
   */
  firstRecordIndex?: number;
  /** parentUuid of the first record: null starts a conversation, a uuid continues one. */
  parentUuid?: string | null;
}

const DEFAULT_CWD = '/home/dev/projects/users-api';
const DEFAULT_VERSION = '2.0.14';
/** Records are spaced by this much, plus a deterministic jitter below it. */
const RECORD_INTERVAL_MS = 4_000;

/**
 * The transcript as a Claude Code session file (`~/.claude/projects/<project>/<session>.jsonl`):
 * one JSON record per line, newline-terminated. See `claudeCodeJsonlLines` for the shape.
 */
export function toClaudeCodeJsonl(transcript: Transcript, options: ClaudeCodeJsonlOptions): string {
  let text = '';
  for (const line of claudeCodeJsonlLines(transcript, options)) text += line + '\n';
  return text;
}

/**
 * The lines of a Claude Code session file, one record at a time, so a 100 MB file can be
 * written without holding it twice. Records chain through `parentUuid` like the real thing:
 *
 * - a user prompt: `{"type":"user", …, "message":{"role":"user","content":"…"}}`;
 * - each assistant content block as its own `"type":"assistant"` record (text, or tool_use
 *   `{id, name, input}`), the blocks of one message sharing `message.id` and `requestId`;
 * - each tool result as a user record with one `tool_result` block `{tool_use_id, content}`.
 *
 * System messages are not written: Claude Code does not store its system prompt in the file.
 * Tool arguments that are not a JSON object are kept as `{"raw": "<arguments>"}`. No `usage`
 * is written, since a generated session has no real token counts.
 */
export function* claudeCodeJsonlLines(
  transcript: Transcript,
  options: ClaudeCodeJsonlOptions,
): Generator<string> {
  const startMs = Date.parse(options.startIso);
  if (Number.isNaN(startMs)) throw new RangeError(`startIso is not an ISO 8601 time: ${options.startIso}`);
  const common = {
    isSidechain: false,
    userType: 'external',
    cwd: options.cwd ?? DEFAULT_CWD,
    sessionId: options.sessionId,
    version: options.version ?? DEFAULT_VERSION,
    gitBranch: options.gitBranch ?? 'main',
  };
  const model = transcript.metadata.model ?? 'claude-sonnet-4-6';
  let recordIndex = options.firstRecordIndex ?? 0;
  let parentUuid = options.parentUuid ?? null;

  // Serialises one record; type, uuid and parentUuid first, like Claude Code's own files.
  const record = (
    type: 'user' | 'assistant',
    message: unknown,
    extra: Record<string, unknown> = {},
  ): string => {
    const random = createSeededRandom(hashString(`${options.sessionId}#${recordIndex}`));
    const uuid = randomUuid(random);
    const timestamp = new Date(
      startMs + recordIndex * RECORD_INTERVAL_MS + Math.floor(random.next() * RECORD_INTERVAL_MS),
    ).toISOString();
    const line = JSON.stringify({ type, uuid, parentUuid, timestamp, ...common, ...extra, message });
    parentUuid = uuid;
    recordIndex++;
    return line;
  };

  for (const message of transcript.messages) {
    if (message.role === 'user') {
      yield record('user', { role: 'user', content: userContent(message) });
    } else if (message.role === 'tool') {
      const content = typeof message.content === 'string' ? message.content : messageText(message);
      yield record('user', {
        role: 'user',
        content: [{ tool_use_id: message.tool_call_id ?? '', type: 'tool_result', content }],
      });
    } else if (message.role === 'assistant') {
      // Keyed by the record index, so message ids stay unique when transcripts continue a session.
      const random = createSeededRandom(hashString(`${options.sessionId}#message#${recordIndex}`));
      const id = randomMessageId(random);
      const requestId = `req_011C${randomBase62(random, 20)}`;
      const blocks = assistantBlocks(message);
      for (const [blockIndex, block] of blocks.entries()) {
        const last = blockIndex === blocks.length - 1;
        yield record(
          'assistant',
          {
            id,
            type: 'message',
            role: 'assistant',
            model,
            content: [block],
            stop_reason: last ? (block.type === 'tool_use' ? 'tool_use' : 'end_turn') : null,
            stop_sequence: null,
          },
          { requestId },
        );
      }
    }
  }
}

/** Claude Code stores a typed prompt as a plain string, pasted images and such as blocks. */
function userContent(message: Message): unknown {
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) {
    return message.content.map((part) =>
      part.type === 'text' ? { type: 'text', text: typeof part.text === 'string' ? part.text : '' } : part,
    );
  }
  return messageText(message);
}

type AssistantBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function assistantBlocks(message: Message): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  const text = messageText(message);
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of message.tool_calls ?? []) {
    const parsed = safeParseJson(call.function.arguments);
    const input = parsed.ok && isPlainObject(parsed.value) ? parsed.value : { raw: call.function.arguments };
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  // An assistant message with neither text nor calls still takes a place in the chain.
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
  return blocks;
}

/** The uuid the record at `recordIndex` of a session gets, e.g. to continue a chain. */
export function claudeCodeRecordUuid(sessionId: string, recordIndex: number): string {
  return randomUuid(createSeededRandom(hashString(`${sessionId}#${recordIndex}`)));
}
