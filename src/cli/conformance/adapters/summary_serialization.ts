import { serializeForSummary } from '../../../core/compression/serialize-for-summary.ts';
import type { Message } from '../../../core/transcript/message.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

export const adapter: VectorAdapter = {
  inputKeys: () => ['messages'],
  run(testCase, preset) {
    const { messages } = testCase.input as { messages: Message[] };
    return serializeForSummary(messages, preset);
  },
};
