import { truncateToolCallArgs } from '../../../core/compression/truncate-tool-call-args.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

export const adapter: VectorAdapter = {
  inputKeys: () => ['args', 'head_chars'],
  run(testCase) {
    const input = testCase.input as { args: string; head_chars?: number };
    return truncateToolCallArgs(input.args, input.head_chars);
  },
};
