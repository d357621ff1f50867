import { toPythonJson } from './python-json.ts';

// Tool results shaped like Hermes' own (JSON written by Python's json.dumps), so that
// Hermes' one-line summaries and deduplication behave on the demo as on a real session.

/** The width Hermes pads line numbers to in read_file output ("     1|import os"). */
const LINE_NUMBER_WIDTH = 6;

/** `terminal`: combined output and the exit code. */
export function terminalResult(output: string, exitCode: number): string {
  return toPythonJson({ output, exit_code: exitCode, error: null });
}

/** One line as Hermes' read_file prints it: number padded to six, a bar, the text. */
export function numberLine(line: string, lineNumber: number): string {
  return `${String(lineNumber).padStart(LINE_NUMBER_WIDTH)}|${line}`;
}

/** Prefixes each line with its number the way Hermes' read_file does. */
export function numberLines(text: string, firstLineNumber = 1): string {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line, index) => numberLine(line, firstLineNumber + index)).join('\n');
}

/** Number of lines as `wc -l` counts them. */
export function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return text.length > 0 && !text.endsWith('\n') ? count + 1 : count;
}

/** `read_file` of a whole (small) file: numbered content plus the file's size. */
export function readFileResult(fileContent: string): string {
  return toPythonJson({
    content: numberLines(fileContent),
    total_lines: countLines(fileContent),
    file_size: utf8Length(fileContent),
    truncated: false,
    is_binary: false,
    is_image: false,
  });
}

/** `write_file`: bytes written. */
export function writeFileResult(fileContent: string, dirsCreated: boolean): string {
  return toPythonJson({ bytes_written: utf8Length(fileContent), dirs_created: dirsCreated });
}

export interface SearchMatch {
  path: string;
  line: number;
  content: string;
}

/** `search_files` in content mode: `total_count` first, as Hermes' one-liner looks for it. */
export function searchFilesResult(matches: readonly SearchMatch[]): string {
  return toPythonJson({
    total_count: matches.length,
    matches: matches.map((match) => ({ path: match.path, line: match.line, content: match.content })),
    truncated: false,
  });
}

/** `patch` in replace mode: the unified diff of the change. */
export function patchResult(path: string, diff: string): string {
  return toPythonJson({ success: true, diff, files_modified: [path], lint: { status: 'ok', output: '' } });
}

export interface WebSearchHit {
  title: string;
  url: string;
  description: string;
}

/** `web_search`: the hits under data.web, like Hermes' Firecrawl/Tavily backends return them. */
export function webSearchResult(hits: readonly WebSearchHit[]): string {
  return toPythonJson({
    success: true,
    data: { web: hits.map((hit) => ({ title: hit.title, url: hit.url, description: hit.description })) },
  });
}

/** Length in UTF-8 bytes, which is what file sizes report. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
