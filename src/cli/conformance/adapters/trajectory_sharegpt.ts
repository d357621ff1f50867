import type { Message } from '../../../core/transcript/message.ts';
import { toShareGptTrajectory } from '../../../core/trajectory/to-sharegpt-trajectory.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface TrajectoryInput {
  messages: Message[];
  user_query: string;
  completed: boolean;
}

export const adapter: VectorAdapter = {
  inputKeys: () => ['messages', 'user_query', 'completed'],
  run(testCase) {
    const input = testCase.input as TrajectoryInput;
    // The vectors format the tool list as '[]' (no tools).
    return toShareGptTrajectory(input.messages, input.user_query, input.completed, { tools: null })
      .conversations;
  },
};
