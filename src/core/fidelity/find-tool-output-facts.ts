import { capAtWord } from './cap-at-word.ts';
import type { FactSink } from './fact-collector.ts';
import { addPath } from './find-paths.ts';
import { normalizeMatchText } from './normalize-match-text.ts';
import { scanWindows } from './scan-windows.ts';

/** Longest line the line rules read; the rest of a longer line is data, not a message. */
const MAX_LINE_CHARACTERS = 400;
/** Longest error kept: the kind and the first words of the message identify it. */
const MAX_ERROR_CHARACTERS = 100;

/**
 * Where a line worth a closer look may be: one linear regex pass over literal fragments finds
 * them, and every other line of a log or a listing costs nothing more. The fragments are cut
 * so that `Error`/`error`, `ERROR`/`npm ERR!`, `fatal`/`FATAL` each need only one.
 */
const CANDIDATE =
  /rror|RROR|ERR!|xception|FAILED|atal|ATAL|File |-->|nterrupt|SystemExit|panic:|--- |\+\+\+ |\*\*\* |diff --git /g;

const DIFF_HEADER = /^(?:---|\+\+\+) (a\/|b\/)?(\S+)/;
const GIT_DIFF = /^diff --git a\/(\S+) b\/(\S+)/;
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/;
const TRACEBACK_FILE = /^File "([^"]+)", line \d+/;
const LOCATION_ARROW = /^-->\s*(\S+)/;
const PYTEST_SUMMARY = /^(FAILED|ERROR)\s+(\S+)(?:\s+-\s+(.*))?$/;
const PYTEST_VERBOSE = /^(\S+::\S+)\s+(?:FAILED|ERROR)\b/;
const TSC_ERROR = /^(\S+?)(?:\(\d+,\d+\)|:\d+:\d+)\s*(?::|-)\s*error\s+(TS\d+):\s*(.*)$/;
const LOCATED_ERROR = /^(\S+?):\d+(?::\d+)?:\s*(?:fatal\s+)?error:\s*(.+)$/;
const LOCATED_EXCEPTION = /^(\S+\.py):\d+:\s+((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))$/;
const CODED_ERROR = /^error\[([\w-]+)\]:\s*(.+)$/;
/** `ValueError: msg`, `sqlalchemy.exc.InvalidRequestError: msg`, `Error: msg`, bare `AssertionError`. */
const EXCEPTION =
  /^(?:Uncaught\s+|Caused by:\s+|Exception in thread "[^"]*"\s+)?((?:[A-Za-z_]\w*\.)*(?:[A-Z][A-Za-z0-9_]*?)?(?:Error|Exception|Interrupt|Exit|Failure|Fault))(?::\s*(.*))?$/;
const GENERIC_ERROR = /^(?:(?:error|fatal|panic):|npm ERR!|npm error)\s*(.+)$/i;
/** How a line of code (an object literal, a call, a block) ends; messages do not end so. */
const CODE_LINE_END = /[,;{([]$/;
const JSON_ERROR = /"error":\s*"([^"]{3,300})"/;
const EXIT_CODE =
  /"(?:exit_code|exitCode|returncode)":\s*(-?\d+)|<returncode>(-?\d+)<\/returncode>|\b(?:exited with code|[Ee]xit code:?|exit status)\s+(-?\d+)/;

/** Frames of installed libraries and the runtime: where an error passed through, not where it is. */
const LIBRARY_PATH =
  /(?:^|\/)(?:site-packages|dist-packages|node_modules|\.pyenv|\.venv|venv|\.cargo|\.rustup)\/|^\/usr\/(?:local\/)?lib\/|^\/lib\/|^</;

/**
 * Adds the facts of one tool result (or other program output): `error` facts for error lines
 * (the final line of a Python traceback, pytest `FAILED` node ids, tsc `error TS…`, `error:`
 * and `Error:` lines, `npm ERR!`), `path` facts for the files those errors and diffs name
 * (traceback frames outside libraries, `path:line:` locations, `--- a/` and `+++ b/` headers,
 * `*** Update File:`). When no line is an error but the exit code is not 0, the output's last
 * line is the error (`1 failed, 3 passed`, `make: *** [test] Error 2`). Other paths and URLs in
 * outputs (listings, search hits) are incidental and left out.
 *
 * Every fact's text is a literal excerpt of the output, so a compaction that keeps the output
 * keeps the fact. JSON-encoded results (Hermes' `{"output": "…", "exit_code": 1}`) are read line
 * by line across their `\n` escapes. Only the start and the end of a long output are read
 * (`scanWindows`), and a line cut by a window edge is not read.
 *
 * @example
 * findToolOutputFacts('Traceback (most recent call last):\n  File "app/main.py", line 3\nKeyError: \'id\'', sink)
 * // path app/main.py, error "KeyError: 'id'"
 */
export function findToolOutputFacts(output: string, sink: FactSink): void {
  const head = output.slice(0, 2_048);
  // One JSON line (Hermes results): its lines are separated by `\n` escapes.
  const escaped = /^\s*[[{]/.test(head) && !head.includes('\n');
  const windows = scanWindows(output);
  let errors = 0;
  windows.forEach((window, index) => {
    const cutBefore = index > 0;
    const cutAfter = index < windows.length - 1;
    errors += scanCandidateLines(window, { escaped, cutBefore, cutAfter }, sink);
  });
  if (errors === 0) addFailingLastLine(output, escaped, sink);
}

/**
 * A failing program that printed no error line: its last line says how it failed. Programs
 * report their exit code first (`<returncode>`, "Process exited with code") or last
 * (`"exit_code": 1}`), never in the middle of their output. The line is taken as written (JSON
 * escapes and all), so it is an excerpt the visible text holds.
 */
function addFailingLastLine(output: string, escaped: boolean, sink: FactSink): void {
  const exitCode =
    findExitCode(output.slice(0, EXIT_CODE_REACH)) ?? findExitCode(output.slice(-EXIT_CODE_REACH));
  if (exitCode === null || exitCode === 0) return;
  let tail = output.slice(-LAST_LINE_REACH);
  let startsAtLine = tail.length === output.length;
  // An exit code after the text (`", "exit_code": 1, "error": null}`) is cut off with what follows it.
  const closing = EXIT_CODE_AT_END.exec(tail);
  if (closing) tail = tail.slice(0, closing.index);
  // Codex puts a header (chunk id, wall time, exit code, token count) before an `Output:` line.
  const outputLabel = tail.lastIndexOf(escaped ? '\\nOutput:\\n' : '\nOutput:\n');
  if (outputLabel !== -1) {
    tail = tail.slice(outputLabel + (escaped ? 10 : 9));
    startsAtLine = true;
  }
  // Closing wrappers (`</output>`, the rest of a JSON object) are not what the program said.
  const body = tail.replace(escaped ? TRAILING_JSON : TRAILING_WRAPPERS, '');
  const separator = escaped ? '\\n' : '\n';
  const lineStart = body.lastIndexOf(separator);
  // A last line longer than the tail read is not known whole.
  if (lineStart === -1 && !startsAtLine) return;
  const lastLine = body.slice(lineStart === -1 ? 0 : lineStart + separator.length).trim();
  // A program that printed nothing leaves only its exit code report (`<returncode>1</returncode>`).
  if (lastLine.length < 3 || !/[A-Za-z]/.test(lastLine) || findExitCodeMatch(lastLine) !== null) return;
  const line = capAtWord(lastLine, MAX_ERROR_CHARACTERS);
  sink.add('error', `${line} (exit code ${exitCode})`, normalizeMatchText(line));
}

/** A JSON exit-code field with only a little JSON after it, at the very end of an output. */
const EXIT_CODE_AT_END = /"(?:exit_code|exitCode|returncode)":\s*-?\d+[^\n]{0,80}$/;

/** What ends an output after its last line: lines of a lone tag (`</output>`), whitespace, JSON punctuation. */
const TRAILING_WRAPPERS = /(?:\n[ \t]*<\/?[\w-]+>[ \t]*|\s)+$/;
const TRAILING_JSON = /(?:\\n|\s|["',])+$/;

/** How far from either end of an output its exit code is looked for. */
const EXIT_CODE_REACH = 512;
/** How much of the end of an output holds its last line. */
const LAST_LINE_REACH = 2_048;

/** Undoes JSON string escapes well enough to read a line; exactness does not matter here. */
function unescapeJsonText(text: string): string {
  if (!text.includes('\\')) return text;
  return text
    .replaceAll('\\n', '\n')
    .replaceAll('\\t', '\t')
    .replaceAll('\\r', '')
    .replaceAll('\\"', '"')
    .replaceAll('\\\\', '\\');
}

function findExitCode(text: string): number | null {
  const match = findExitCodeMatch(text);
  return match === null ? null : exitCodeOf(match);
}

/** Every spelling of an exit code has `xit` or `returncode` in it; most outputs have neither. */
function findExitCodeMatch(text: string): RegExpExecArray | null {
  return text.includes('xit') || text.includes('returncode') ? EXIT_CODE.exec(text) : null;
}

const exitCodeOf = (match: RegExpExecArray): number => Number(match[1] ?? match[2] ?? match[3]);

interface WindowShape {
  /** Lines are separated by `\n` escapes (one-line JSON), not newlines. */
  escaped: boolean;
  /** The window starts or ends inside the output: its first or last line is partial. */
  cutBefore: boolean;
  cutAfter: boolean;
}

/**
 * Reads every line holding a candidate fragment once; returns how many error facts it offered.
 * In a JSON-encoded output only the lines read are unescaped, and the JSON around the output
 * (`{"output": "`, `", "exit_code": 1}`) is left out of them.
 */
function scanCandidateLines(text: string, shape: WindowShape, sink: FactSink): number {
  const separator = shape.escaped ? '\\n' : '\n';
  let errors = 0;
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match !== null; match = CANDIDATE.exec(text)) {
    const previous = text.lastIndexOf(separator, match.index);
    const lineStart = previous === -1 ? 0 : previous + separator.length;
    const next = text.indexOf(separator, match.index);
    const lineEnd = next === -1 ? text.length : next;
    const partial = (previous === -1 && shape.cutBefore) || (next === -1 && shape.cutAfter);
    if (!partial) {
      const line = text.slice(lineStart, Math.min(lineEnd, lineStart + MAX_LINE_CHARACTERS));
      errors += scanLine(shape.escaped ? jsonLineText(line) : line, sink);
    }
    if (next === -1) break;
    // The rest of this line has been read.
    CANDIDATE.lastIndex = lineEnd + separator.length;
  }
  return errors;
}

/** A line of a one-line JSON result, unescaped, without the object's keys around the text. */
function jsonLineText(line: string): string {
  return unescapeJsonText(line)
    .replace(/^\s*[[{]\s*"[\w-]+":\s*"/, '')
    .replace(/",\s*"[\w-]+":.*$/, '');
}

function scanLine(rawLine: string, sink: FactSink): number {
  const line = rawLine.trim();
  if (scanDiffLine(line, sink)) return 0;
  let match = TRACEBACK_FILE.exec(line);
  if (match) {
    if (!LIBRARY_PATH.test(match[1]!)) addPath(match[1]!, sink, true);
    return 0;
  }
  if ((match = LOCATION_ARROW.exec(line))) {
    addPath(match[1]!, sink);
    return 0;
  }
  if ((match = PYTEST_SUMMARY.exec(line)))
    return addTestFailure(match[1]!, match[2]!, match[3] ?? null, sink);
  if ((match = PYTEST_VERBOSE.exec(line))) return addTestFailure('FAILED', match[1]!, null, sink);
  if ((match = TSC_ERROR.exec(line))) {
    addPath(match[1]!, sink);
    return addError(fromLast(line, `error ${match[2]}`), sink);
  }
  if ((match = LOCATED_ERROR.exec(line))) {
    addPath(match[1]!, sink);
    return addError(fromLast(line, 'error:'), sink);
  }
  if ((match = LOCATED_EXCEPTION.exec(line))) {
    addPath(match[1]!, sink);
    return addError(match[2]!, sink);
  }
  if (CODED_ERROR.test(line)) return addError(line, sink);
  // pytest prints the exception of a failing assertion as `E   AssertionError: …`.
  const exceptionLine = line.startsWith('E ') ? line.slice(2).trimStart() : line;
  if ((match = EXCEPTION.exec(exceptionLine))) return addError(fromFirst(exceptionLine, match[1]!), sink);
  if ((match = GENERIC_ERROR.exec(line))) {
    // `Error: Exit code 1` says no more than the exit code, which is reported on its own; and
    // `error: vi.fn(),` is a line of code in a file that was read, not a message.
    return /^exit code/i.test(match[1]!) || CODE_LINE_END.test(line) ? 0 : addError(line, sink);
  }
  if (line.includes('"error":') && (match = JSON_ERROR.exec(line))) return addError(match[1]!, sink);
  return 0;
}

function scanDiffLine(line: string, sink: FactSink): boolean {
  let match = GIT_DIFF.exec(line);
  if (match) {
    addPath(match[1]!, sink, true);
    if (match[2] !== match[1]) addPath(match[2]!, sink, true);
    return true;
  }
  if ((match = PATCH_FILE.exec(line))) {
    addPath(match[1]!.trim(), sink, true);
    return true;
  }
  if ((match = DIFF_HEADER.exec(line))) {
    // With an a/ or b/ prefix it is certainly a diff header; without, only a file-like name counts.
    addPath(match[2]!, sink, match[1] !== undefined);
    return true;
  }
  return false;
}

/** A failing test is identified by its node id (`tests/test_api.py::test_create`). */
function addTestFailure(outcome: string, nodeId: string, message: string | null, sink: FactSink): number {
  const file = nodeId.split('::')[0]!;
  addPath(file, sink);
  if (message !== null) {
    const exception = EXCEPTION.exec(message);
    if (exception?.[2]) addError(fromFirst(message, exception[1]!), sink);
  }
  sink.add('error', `${outcome} ${nodeId}`, normalizeMatchText(nodeId));
  return 1;
}

/**
 * The line from where `part` starts: facts are excerpts as written, so a compaction that keeps
 * the line keeps the fact.
 */
const fromFirst = (line: string, part: string): string => line.slice(Math.max(0, line.indexOf(part)));
const fromLast = (line: string, part: string): string => line.slice(Math.max(0, line.lastIndexOf(part)));

function addError(text: string, sink: FactSink): number {
  sink.add('error', capAtWord(text.trim(), MAX_ERROR_CHARACTERS));
  return 1;
}
