/**
 * The text block Cline writes before a tool's result in the next user message:
 * `[read_file for 'src/a.ts'] Result:`, `[search_files for 'x' in '*.ts'] Result:`,
 * `[attempt_completion] Result:` (cline/cline `ToolResultUtils.pushToolResult` with
 * `ToolDisplayUtils.getToolDescription`). The group is the tool name.
 */
export const CLINE_RESULT_HEADER = /^\[([A-Za-z_][\w-]*)(?:\]| for [\s\S]*\]) Result:$/;

/** The tool name of a result header, or undefined for any other text. */
export function clineResultToolName(text: string): string | undefined {
  return CLINE_RESULT_HEADER.exec(text.trim())?.[1];
}
