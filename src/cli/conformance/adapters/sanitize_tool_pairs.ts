import { sanitizeToolPairs } from '../../../core/compression/sanitize-tool-pairs.ts';
import type { Message } from '../../../core/transcript/message.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

export const adapter: VectorAdapter = {
  inputKeys: () => ['messages'],
  run(testCase, preset) {
    const { messages } = testCase.input as { messages: Message[] };
    return sanitizeToolPairs(messages, preset).messages;
  },
};
