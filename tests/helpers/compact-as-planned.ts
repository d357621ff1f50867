import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import type { CompressionConfig } from '#core/config/compression-config.ts';
import type { LabPlan } from '#core/lab/lab-plan.ts';
import type { Planner } from '#core/lab/create-planner.ts';
import { compactConversation, type ConversationCompaction } from '#core/strategies/compact-conversation.ts';
import type { Strategy } from '#core/strategies/strategy.ts';
import type { Message } from '#core/transcript/message.ts';
import type { ToolSchema } from '#core/transcript/transcript.ts';

/**
 * A manual compaction as the lab runs one after `plan`: the planner's prepared data and token
 * counts, the same pins, the offline summariser. Tests that compare a plan with its compaction
 * call this, so both sides are sure to be fed alike.
 */
export function compactAsPlanned(
  strategy: Strategy,
  planner: Planner,
  plan: LabPlan,
  input: {
    messages: readonly Message[];
    config: CompressionConfig;
    tools?: readonly ToolSchema[];
    pinned?: readonly number[];
  },
): Promise<ConversationCompaction> {
  return compactConversation(
    strategy,
    {
      reason: 'manual',
      force: true,
      systemPrompt: '',
      messages: input.messages,
      tools: input.tools ?? [],
      config: input.config,
      state: INITIAL_COMPRESSOR_STATE,
      prepared: planner.prepared(strategy),
      tokens: { of: (index) => plan.tokensPerMessage[index] ?? 0, request: plan.totalTokens, exact: false },
      today: null,
      mainModel: null,
      pinned: new Set(input.pinned ?? []),
    },
    { summarizer: createOfflineSummarizer(), now: () => 0 },
  );
}
