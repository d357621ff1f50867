import { summarizeToolResult } from '../../../core/compression/summarize-tool-result.ts';
import type { Refusal, VectorAdapter } from '../vector-adapter.ts';

interface OneLinerInput {
  tool_name: string;
  tool_args: string;
  tool_content: string;
}

/** The one-line summary, or `{raises}` where the port refuses as 2026-04's Hermes raised. */
export const adapter: VectorAdapter = {
  inputKeys: () => ['tool_name', 'tool_args', 'tool_content'],
  run(testCase, preset): string | Refusal {
    const input = testCase.input as OneLinerInput;
    const line = summarizeToolResult(input.tool_name, input.tool_args, input.tool_content, preset);
    return line.ok ? line.value : { raises: line.error.exception };
  },
};
