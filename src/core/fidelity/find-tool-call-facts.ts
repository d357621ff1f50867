import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import type { ToolCall } from '../transcript/message.ts';
import type { FactSink } from './fact-collector.ts';
import { addSymbolValue, findCodeDeclarations } from './find-identifiers.ts';
import { addPath } from './find-paths.ts';
import { findProseFacts } from './find-prose-facts.ts';
import { findToolOutputFacts } from './find-tool-output-facts.ts';
import { findUrls } from './find-urls.ts';
import { scanWindows } from './scan-windows.ts';
import { shellCommandText } from './shell-command-text.ts';

/** Argument names, lower-cased, and what their values are. */
const COMMAND_KEYS = new Set(['command', 'cmd', 'shell_command', 'commandline', 'command_line']);
const PATH_KEYS = new Set([
  'file_path',
  'filepath',
  'path',
  'file',
  'filename',
  'file_name',
  'notebook_path',
  'target_file',
  'source_path',
  'destination_path',
  'old_path',
  'new_path',
  'dir_path',
  'directory',
  'paths',
  'files',
  'file_paths',
]);
const URL_KEYS = new Set(['url', 'uri', 'href', 'link', 'urls']);
/** Values holding code: their declarations are identifiers. Short one-liners under them are read as prose. */
const CODE_KEYS = new Set([
  'old_string',
  'new_string',
  'old_str',
  'new_str',
  'content',
  'contents',
  'code',
  'file_text',
  'new_source',
  'source',
  'insert_text',
  'replacement',
]);
/** Values naming one symbol or search term. */
const SYMBOL_KEYS = new Set([
  'pattern',
  'regex',
  'symbol',
  'symbol_name',
  'query',
  'name',
  'function_name',
  'class_name',
]);
/** Values that carry no fact: the session's directory, descriptions, limits, ids, modes. */
const IGNORED_KEYS = new Set([
  'workdir',
  'cwd',
  'working_directory',
  'description',
  'timeout',
  'mode',
  'target',
  'file_glob',
  'glob',
  'include',
  'session_id',
  'chars',
  'id',
  'status',
  'priority',
  'type',
  'activeform',
  'justification',
  'prefix_rule',
  'sandbox_permissions',
]);

/** Argument strings read per call; a call with thousands of values is data, not intent. */
const MAX_ARGUMENT_STRINGS = 256;
const MAX_ARGUMENT_DEPTH = 8;
const PATCH_OPENING = '*** Begin Patch';

interface Walk {
  sink: FactSink;
  strings: number;
}

/**
 * Adds the facts of one tool call's arguments: `command`/`cmd` values (strings or Codex argument
 * arrays) as commands, `file_path`/`path`/`notebook_path`/… as paths, `url` as URLs,
 * declarations in code values (`old_string`, `new_string`, `content`, …) and search patterns
 * naming a symbol as identifiers, patches' file headers as paths, and paths, URLs and symbols in
 * any other text value. Arguments that are not JSON (freeform tools such as Codex `apply_patch`) are read as text.
 *
 * @example
 * findToolCallFacts({ id: 'c1', type: 'function', function: { name: 'Bash', arguments: '{"command":"npm test"}' } }, sink)
 * // a command fact: npm test
 */
export function findToolCallFacts(call: ToolCall, sink: FactSink): void {
  const raw = typeof call.function?.arguments === 'string' ? call.function.arguments : '';
  const walk: Walk = { sink, strings: 0 };
  const parsed = raw.trimStart().startsWith('{') ? safeParseJson(raw) : null;
  if (parsed?.ok) visit(parsed.value, '', 0, walk);
  else readFreeText(raw, walk);
}

function visit(value: unknown, key: string, depth: number, walk: Walk): void {
  if (depth > MAX_ARGUMENT_DEPTH || walk.strings >= MAX_ARGUMENT_STRINGS) return;
  if (typeof value === 'string') {
    walk.strings += 1;
    readString(value, key, walk);
  } else if (Array.isArray(value)) {
    if (COMMAND_KEYS.has(key) && value.length > 0 && value.every((item) => typeof item === 'string')) {
      addCommand(shellCommandText(value), walk);
      return;
    }
    for (const item of value) visit(item, key, depth + 1, walk);
  } else if (isPlainObject(value)) {
    for (const [name, item] of Object.entries(value)) visit(item, name.toLowerCase(), depth + 1, walk);
  }
}

function readString(value: string, key: string, walk: Walk): void {
  const { sink } = walk;
  if (value.trim() === '' || IGNORED_KEYS.has(key)) return;
  if (COMMAND_KEYS.has(key)) return addCommand(shellCommandText(value), walk);
  if (PATH_KEYS.has(key)) {
    if (!value.includes('\n')) addPath(value, sink, true);
    return;
  }
  if (URL_KEYS.has(key)) return findUrls(value, sink);
  // Codex freeform tools wrap their JSON arguments in one `input` string.
  if (key === 'input' && value.trimStart().startsWith('{')) {
    const inner = safeParseJson(value);
    if (inner.ok) return visit(inner.value, '', 1, walk);
  }
  if (value.startsWith(PATCH_OPENING) || ((key === 'patch' || key === 'diff') && value.includes('\n'))) {
    return readPatch(value, walk);
  }
  if (SYMBOL_KEYS.has(key)) {
    addSymbolValue(value, sink);
    if (key === 'pattern' || key === 'regex') findCodeDeclarations(value, sink, true);
    return;
  }
  if (CODE_KEYS.has(key) && (value.includes('\n') || value.length > 200)) {
    for (const window of scanWindows(value)) findCodeDeclarations(window, sink);
    return;
  }
  findProseFacts(value, sink);
}

function readFreeText(raw: string, walk: Walk): void {
  if (raw.trimStart().startsWith(PATCH_OPENING)) readPatch(raw, walk);
  else findProseFacts(raw, walk.sink);
}

/** A patch names its files in headers (read like a diff) and declares code in its lines. */
function readPatch(patch: string, walk: Walk): void {
  findToolOutputFacts(patch, walk.sink);
  for (const window of scanWindows(patch)) findCodeDeclarations(window, walk.sink);
}

function addCommand(command: string | null, walk: Walk): void {
  if (command !== null) walk.sink.add('command', command);
}
