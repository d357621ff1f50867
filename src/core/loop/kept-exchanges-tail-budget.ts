/**
 * `/compress here [N]`: summarise everything except the last N exchanges. An exchange starts
 * at a real user message and runs to the next one. The compressor places its cut by a token
 * walk from the end, so the request becomes a tail budget equal to the weight of those
 * exchanges; the walk's own rules (tool-group alignment, the minimum tail) still apply, so the
 * kept tail can be slightly longer than N exchanges, never shorter.
 */
import { isRealUserMessage } from '../compression/real-user-message.ts';
import type { Preset } from '../presets/preset.ts';
import { messageBudgetTokens } from '../tokens/message-budget-tokens.ts';
import type { Message } from '../transcript/message.ts';

/** Index where the last `exchanges` exchanges begin; 0 when there are fewer. */
export function keptExchangesStart(messages: readonly Message[], exchanges: number, preset: Preset): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (isRealUserMessage(messages[index]!, preset)) {
      seen += 1;
      if (seen === exchanges) return index;
    }
  }
  return 0;
}

/** The tail token budget that keeps the last `exchanges` exchanges verbatim. */
export function keptExchangesTailBudget(
  messages: readonly Message[],
  exchanges: number,
  preset: Preset,
): number {
  const start = keptExchangesStart(messages, exchanges, preset);
  let tokens = 0;
  for (let index = start; index < messages.length; index++)
    tokens += messageBudgetTokens(messages[index]!, preset);
  return tokens;
}
