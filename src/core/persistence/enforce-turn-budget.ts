import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import type { BudgetConfig } from './budget-config.ts';
import { PERSISTED_OUTPUT_TAG } from './build-persisted-message.ts';
import { maybePersistToolResult } from './maybe-persist-tool-result.ts';
import type { ToolResultStorage } from './tool-result-storage.ts';

/** The tool name Hermes logs turn-budget persistence under. */
export const BUDGET_TOOL_NAME = '__budget_enforcement__';

/**
 * Layer 3 (`enforce_turn_budget`, hermes-reference §10): when a turn's tool results together
 * exceed the turn budget, persist the largest ones (threshold 0) until the total fits. Results
 * already persisted are left alone; part-list (multimodal) results count their text but are not
 * persisted. Returns new messages; the input is not mutated.
 */
export function enforceTurnBudget(
  toolMessages: readonly Message[],
  storage: ToolResultStorage | null,
  config: BudgetConfig,
  preset: Preset,
): Message[] {
  const messages = toolMessages.map((message) => ({ ...message }));
  const sizes = messages.map((message) => textSize(message.content));
  let total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= config.turnBudget) return messages;
  const candidates = sizes
    .map((size, index) => ({ size, index }))
    .filter(({ index }) => {
      const content = messages[index]!.content;
      return typeof content === 'string' && !content.includes(PERSISTED_OUTPUT_TAG);
    })
    .sort((first, second) => second.size - first.size);
  for (const { index, size } of candidates) {
    if (total <= config.turnBudget) break;
    const message = messages[index]!;
    const content = message.content as string;
    // `msg.get("tool_call_id", f"budget_{idx}")`: only a missing id falls back; a null one stays null.
    const toolUseId = message.tool_call_id !== undefined ? message.tool_call_id : `budget_${index}`;
    const replacement = maybePersistToolResult(
      content,
      BUDGET_TOOL_NAME,
      toolUseId,
      storage,
      config,
      0,
      preset,
    );
    if (replacement !== content) {
      total += Array.from(replacement).length - size;
      message.content = replacement;
    }
  }
  return messages;
}

function textSize(content: Message['content']): number {
  if (typeof content === 'string') return Array.from(content).length;
  if (Array.isArray(content)) {
    let size = 0;
    for (const part of content) {
      if (part && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string') {
        size += Array.from(part.text).length;
      }
    }
    return size;
  }
  return 0;
}
