import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { claudeCodeJsonlLines } from '#core/demo/write-claude-code-jsonl.ts';
import type { Message } from '#core/transcript/message.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

/**
 * The 50,000-message session of the scale test and the bench's 50,000-message figures: the
 * generated agent session with its messages, roles, tool calls and pairing, but every text cut
 * to `MAX_TEXT_CHARACTERS` (at full size it is a 150 MiB file, whose import alone takes minutes
 * on a CI machine; bytes are the import benchmark's business, this is about the number of
 * messages), and a marker word planted in one user prompt near the middle.
 */
export const LARGE_SESSION_MESSAGES = 50_000;
const SEED = 50_050;
/** A word the generator never writes. */
export const LARGE_SESSION_MARKER = 'quetzalcoatlmarker';
/** A sentence or two of each message; 50,000 of them (with the JSONL framing) come to about 40 MiB. */
const MAX_TEXT_CHARACTERS = 160;

const cut = (text: string): string =>
  text.length > MAX_TEXT_CHARACTERS ? text.slice(0, MAX_TEXT_CHARACTERS) : text;

/** Shortens the string values of a JSON argument object, keeping it valid JSON. */
function cutArguments(json: string): string {
  if (json.length <= MAX_TEXT_CHARACTERS) return json;
  const parsed = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(parsed).map(([key, value]) => [key, typeof value === 'string' ? cut(value) : value]),
    ),
  );
}

/** Every text of the transcript cut to `MAX_TEXT_CHARACTERS`; structure and ids untouched. */
function slim(transcript: Transcript): Transcript {
  const messages = transcript.messages.map((message): Message => {
    const content = message.content;
    return {
      ...message,
      ...(typeof content === 'string' ? { content: cut(content) } : {}),
      ...(Array.isArray(content)
        ? {
            content: content.map((part) =>
              typeof part.text === 'string' ? { ...part, text: cut(part.text) } : part,
            ),
          }
        : {}),
      ...(message.tool_calls
        ? {
            tool_calls: message.tool_calls.map((call) => ({
              ...call,
              function: { ...call.function, arguments: cutArguments(call.function.arguments) },
            })),
          }
        : {}),
    };
  });
  return { ...transcript, messages };
}

/** Puts the marker into a user prompt near the middle; returns the message index. */
function plantMarker(transcript: Transcript): number {
  const messages = transcript.messages;
  for (let index = Math.floor(messages.length / 2); index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'user' && typeof message.content === 'string') {
      messages[index] = { ...message, content: `${message.content} (${LARGE_SESSION_MARKER})` };
      return index;
    }
  }
  throw new Error('the generated transcript has no user prompt in its second half');
}

export interface LargeSessionFile {
  path: string;
  bytes: number;
  /** Records written (Claude Code lines). */
  lines: number;
  /** The message index of the planted marker in the generated transcript. */
  markerIndex: number;
}

/** Writes the slimmed 50,000-message session as a Claude Code session file at `path`. */
export async function writeLargeSessionFile(path: string): Promise<LargeSessionFile> {
  const transcript = slim(generateAgentTranscript({ messageCount: LARGE_SESSION_MESSAGES, seed: SEED }));
  const markerIndex = plantMarker(transcript);
  const out = createWriteStream(path);
  let chunk = '';
  let lines = 0;
  for (const line of claudeCodeJsonlLines(transcript, {
    sessionId: 'large-session-e2e',
    startIso: '2027-01-15T08:00:00.000Z',
  })) {
    chunk += line + '\n';
    lines++;
    if (chunk.length > 4_000_000) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return { path, bytes: (await stat(path)).size, lines, markerIndex };
}
