import type { Message } from '../../../transcript/message.ts';
import { ok, type Result } from '../../../shared/result.ts';
import type { ImportContext } from '../../import-context.ts';
import type { SourceLocation } from '../../import-warning.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/** The line Aider writes when a session starts (`InputOutput.__init__`). */
export const AIDER_SESSION_HEADER = /^# aider chat started at (.+)$/m;

const AIDER_SESSION_HEADER_LINE = /^# aider chat started at (.+)$/;
const FENCE = /^\s*(```|~~~)/;
const USER_PREFIX = '#### ';
const QUOTE_PREFIX = '> ';
const MODEL_LINE = /^(?:Main model|Model): (\S+)/;

type Block =
  | { kind: 'session'; startedAt: string; line: number }
  | { kind: 'user'; lines: string[]; line: number }
  | { kind: 'quote'; lines: string[]; line: number }
  | { kind: 'reply'; lines: string[]; line: number };

/**
 * Reads Aider's `.aider.chat.history.md`, the Markdown log `aider/io.py` appends to: every
 * session opens with `# aider chat started at <time>`, each line the user typed is written as
 * `#### <line>`, the model's reply as plain text, and Aider's own output (`tool_output`,
 * confirmations) as `> <line>`, each of those lines ending in Markdown's two-space break.
 *
 * Aider applies a reply's edit blocks itself and prints what happened (`> Applied edit to …`,
 * commits, lint and test output): the quoted lines after a reply are recorded as the result
 * of a call named `aider` on that reply, so pairing and pruning treat them as tool output.
 * Quoted lines before a reply (the start-up banner, "Add file to the chat?") were shown to
 * the user, not sent to the model: the banner's model name is kept, the rest is counted in
 * a note. A reply's own Markdown quotes or `####` headings cannot be told from Aider's lines.
 *
 * @see https://github.com/Aider-AI/aider/blob/main/aider/io.py
 */
export function parseAiderChatHistory(
  text: string,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  const draft = createTranscriptDraft('aider');
  const segments: NonNullable<TranscriptDraft['metadata']['segments']> = [];
  let reply: Message | undefined;
  let droppedQuotes = 0;
  for (const block of readBlocks(text)) {
    const at: SourceLocation = { line: block.line };
    if (block.kind === 'session') {
      draft.metadata.startedAt ??= block.startedAt;
      segments.push({
        messageIndex: draft.messages.length,
        line: block.line,
        label: `session started at ${block.startedAt}`,
      });
      reply = undefined;
    } else if (block.kind === 'user') {
      const content = block.lines.length === 1 && block.lines[0] === '<blank>' ? '' : block.lines.join('\n');
      pushDraftMessage(draft, { role: 'user', content }, at);
      reply = undefined;
    } else if (block.kind === 'reply') {
      reply = { role: 'assistant', content: block.lines.join('\n').trim() };
      pushDraftMessage(draft, reply, at);
    } else if (reply) {
      const id = `aider_${block.line}`;
      const calls = reply.tool_calls ?? [];
      reply.tool_calls = [...calls, { id, type: 'function', function: { name: 'aider', arguments: '{}' } }];
      pushDraftMessage(draft, { role: 'tool', tool_call_id: id, content: block.lines.join('\n') }, at);
    } else {
      readBanner(block.lines, draft);
      droppedQuotes += block.lines.length;
    }
  }
  if (segments.length > 1) draft.metadata.segments = segments;
  if (droppedQuotes > 0) {
    context.note(
      {},
      `${droppedQuotes} lines of Aider output before a reply (start-up banner, confirmations) were shown to the user, not the model; skipped`,
    );
  }
  return ok(draft);
}

function readBanner(lines: readonly string[], draft: TranscriptDraft): void {
  for (const line of lines) {
    const model = MODEL_LINE.exec(line);
    if (model) draft.metadata.model = model[1];
  }
}

/** The log cut into blocks: session headers, runs of user lines, runs of quoted lines, reply text. */
function readBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let inFence = false;
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lineNumber = index + 1;
    // Inside a reply's fenced code, every line is the reply's (`> ` and `####` included).
    if (current?.kind === 'reply' && inFence) {
      current.lines.push(line);
      if (FENCE.test(line)) inFence = false;
      return;
    }
    const header = AIDER_SESSION_HEADER_LINE.exec(line);
    if (header) {
      current = undefined;
      blocks.push({ kind: 'session', startedAt: header[1]!.trim().replace(' ', 'T'), line: lineNumber });
      return;
    }
    // Blank lines separate Aider's writes; they end a run of user or quoted lines, not a reply.
    if (line.trim() === '') {
      if (current?.kind === 'reply') current.lines.push('');
      else current = undefined;
      return;
    }
    const kind: Block['kind'] =
      line.startsWith(USER_PREFIX) || line === '####'
        ? 'user'
        : line.startsWith(QUOTE_PREFIX) || line === '>'
          ? 'quote'
          : 'reply';
    const body =
      kind === 'user'
        ? stripBreak(line.slice(USER_PREFIX.length))
        : kind === 'quote'
          ? stripBreak(line.slice(QUOTE_PREFIX.length))
          : line;
    if (kind === 'reply' && FENCE.test(line)) inFence = true;
    if (current && current.kind === kind) {
      current.lines.push(body);
      return;
    }
    const started: Block = { kind, lines: [body], line: lineNumber };
    current = started;
    blocks.push(started);
  });
  return blocks.filter((block) => block.kind !== 'reply' || block.lines.some((line) => line.trim() !== ''));
}

/** Drops the two trailing spaces Aider adds to force a Markdown line break. */
const stripBreak = (line: string): string => (line.endsWith('  ') ? line.slice(0, -2) : line);
