/**
 * Tools whose results are contents (a file read, search hits, a directory listing, a web page)
 * rather than a report of what happened. An `Error` in a file that was read is code, not a
 * failure, so such results are only read for errors when they are short enough to be the tool's
 * own error message (see `CONTENT_TOOL_ERROR_REACH`).
 */
const CONTENT_TOOLS = new Set([
  'read',
  'read_file',
  'readfile',
  'file_read',
  'view',
  'view_file',
  'open_file',
  'notebookread',
  'read_notebook',
  'search_files',
  'search',
  'grep',
  'glob',
  'find_files',
  'file_search',
  'ls',
  'list_dir',
  'list_directory',
  'list_files',
  'web_search',
  'websearch',
  'webfetch',
  'web_fetch',
  'fetch',
  'fetch_url',
  'browse',
  'tool_search',
]);

/** Results of content tools longer than this are contents; shorter ones may be the tool's error. */
export const CONTENT_TOOL_ERROR_REACH = 2_000;

/**
 * Whether a tool returns contents, by its name as any agent spells it (`Read`, `read_file`,
 * `functions.read_file`, `mcp__fs__read_file`).
 *
 * @example isContentTool('mcp__filesystem__read_file') // true
 */
export function isContentTool(name: string): boolean {
  const bare =
    name
      .toLowerCase()
      .split(/[.:]|__/)
      .pop() ?? '';
  return CONTENT_TOOLS.has(bare);
}
