import { summarizeToolResult } from '../../../core/compression/summarize-tool-result.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface OneLinerInput {
  tool_name: string;
  tool_args: string;
  tool_content: string;
}

export const adapter: VectorAdapter = {
  inputKeys: () => ['tool_name', 'tool_args', 'tool_content'],
  run(testCase, preset) {
    const input = testCase.input as OneLinerInput;
    return summarizeToolResult(input.tool_name, input.tool_args, input.tool_content, preset);
  },
};
