import { pruneOldToolResults } from '../../../core/compression/prune-old-tool-results.ts';
import type { Message } from '../../../core/transcript/message.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface PruningInput {
  messages: Message[];
  protect_tail_count: number;
  protect_tail_tokens: number | null;
}

export const adapter: VectorAdapter = {
  inputKeys: () => ['messages', 'protect_tail_count', 'protect_tail_tokens'],
  run(testCase, preset) {
    const input = testCase.input as PruningInput;
    const result = pruneOldToolResults(
      input.messages,
      { protectTailCount: input.protect_tail_count, protectTailTokens: input.protect_tail_tokens },
      preset,
    );
    return { messages: result.messages, pruned_count: result.prunedCount };
  },
};
