/**
 * Which files a transcript read, wrote or edited, from its tool calls. Claude Code re-attaches
 * the files it touched last after a compaction; Cline replaces older copies of a file it read
 * again. Both need the same facts: the path, whether the call carried or returned the whole
 * file, and where that copy sits.
 *
 * Recognised shapes (as real transcripts carry them): Claude Code's `Read` / `Write` / `Edit` /
 * `MultiEdit` / `NotebookEdit` (`file_path`, `notebook_path`), the generic agent tools
 * `read_file` / `write_file` / `str_replace` / `patch` (`path`), Cline's `write_to_file` /
 * `replace_in_file` (`path`), and Anthropic's text editor tool (`command` + `path`).
 */
import { contentTextForContains } from '../compression/content-text.ts';
import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import type { Message, ToolCall } from '../transcript/message.ts';

/** `read` and `write` carry the whole file; `edit` changes part of it. */
export type FileAccessKind = 'read' | 'write' | 'edit';

export interface FileAccess {
  readonly kind: FileAccessKind;
  readonly path: string;
  readonly toolName: string;
  /** The assistant message that made the call. */
  readonly callIndex: number;
  /** The call's position in that message's `tool_calls`. */
  readonly callPosition: number;
  /** For a read: the tool message with the file's content; -1 when it is missing or an error. */
  readonly resultIndex: number;
  /** For a write: the content written; null for reads and edits. */
  readonly writtenContent: string | null;
  /** The argument key holding `writtenContent` (`content`, `file_text`), to replace it in place. */
  readonly contentKey: string | null;
}

const PATH_KEYS = ['file_path', 'path', 'notebook_path'] as const;

interface CallShape {
  readonly kind: FileAccessKind;
  /** Where a write's content is, when the call writes the whole file. */
  readonly contentKey?: string;
}

/** By tool name; the text editor tool is decided by its `command` argument instead. */
const SHAPES: ReadonlyMap<string, CallShape> = new Map([
  ['Read', { kind: 'read' }],
  ['read_file', { kind: 'read' }],
  ['Write', { kind: 'write', contentKey: 'content' }],
  ['write_file', { kind: 'write', contentKey: 'content' }],
  ['write_to_file', { kind: 'write', contentKey: 'content' }],
  ['Edit', { kind: 'edit' }],
  ['MultiEdit', { kind: 'edit' }],
  ['NotebookEdit', { kind: 'edit' }],
  ['str_replace', { kind: 'edit' }],
  ['patch', { kind: 'edit' }],
  ['replace_in_file', { kind: 'edit' }],
]);

const TEXT_EDITOR_TOOLS: ReadonlySet<string> = new Set(['str_replace_based_edit_tool', 'str_replace_editor']);
const TEXT_EDITOR_COMMANDS: ReadonlyMap<string, CallShape> = new Map([
  ['view', { kind: 'read' }],
  ['create', { kind: 'write', contentKey: 'file_text' }],
  ['str_replace', { kind: 'edit' }],
  ['insert', { kind: 'edit' }],
]);

function shapeOf(name: string, args: Record<string, unknown>): CallShape | undefined {
  if (TEXT_EDITOR_TOOLS.has(name)) {
    return typeof args.command === 'string' ? TEXT_EDITOR_COMMANDS.get(args.command) : undefined;
  }
  return SHAPES.get(name);
}

function pathOf(args: Record<string, unknown>): string | null {
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/** A read that failed returned no file: an error flag, or Hermes' `{"error": …}` result. */
function isErrorResult(message: Message): boolean {
  if (message.is_error === true) return true;
  return /^\s*\{\s*"error"\s*:/.test(contentTextForContains(message.content));
}

const callIdsOf = (call: ToolCall): string[] =>
  [call.id, call.call_id].filter((id): id is string => typeof id === 'string' && id !== '');

/**
 * Every file access in message order. Linear: one pass indexes tool results by call id, one
 * pass reads the calls (arguments are parsed only for tools that touch files).
 */
export function findFileAccesses(messages: readonly Message[]): FileAccess[] {
  const resultByCallId = new Map<string, number>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool' && typeof message.tool_call_id === 'string') {
      if (!resultByCallId.has(message.tool_call_id)) resultByCallId.set(message.tool_call_id, index);
    }
  }
  const accesses: FileAccess[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    message.tool_calls.forEach((call, position) => {
      const name = call?.function?.name;
      if (typeof name !== 'string' || (!SHAPES.has(name) && !TEXT_EDITOR_TOOLS.has(name))) return;
      const parsed = safeParseJson(
        typeof call.function.arguments === 'string' ? call.function.arguments : '',
      );
      if (!parsed.ok || !isPlainObject(parsed.value)) return;
      const args = parsed.value;
      const shape = shapeOf(name, args);
      const path = pathOf(args);
      if (!shape || path === null) return;
      let resultIndex = -1;
      if (shape.kind === 'read') {
        const found = callIdsOf(call)
          .map((id) => resultByCallId.get(id))
          .find((at): at is number => at !== undefined && at > index);
        if (found !== undefined && !isErrorResult(messages[found]!)) resultIndex = found;
      }
      const written = shape.contentKey !== undefined ? args[shape.contentKey] : undefined;
      accesses.push({
        kind: shape.kind,
        path,
        toolName: name,
        callIndex: index,
        callPosition: position,
        resultIndex,
        writtenContent: typeof written === 'string' ? written : null,
        contentKey: typeof written === 'string' ? shape.contentKey! : null,
      });
    });
  }
  return accesses;
}

/** The whole-file text an access carries: a read's result or a write's content; null for edits. */
export function fileCopyText(messages: readonly Message[], access: FileAccess): string | null {
  if (access.kind === 'write') return access.writtenContent;
  if (access.kind === 'read' && access.resultIndex >= 0)
    return contentTextForContains(messages[access.resultIndex]!.content);
  return null;
}
