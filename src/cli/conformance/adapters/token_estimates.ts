import {
  estimateMessagesTokensRough,
  roughMessageSize,
} from '../../../core/tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '../../../core/tokens/estimate-request-tokens-rough.ts';
import { estimateTokensRough } from '../../../core/tokens/estimate-tokens-rough.ts';
import { messageBudgetTokens } from '../../../core/tokens/message-budget-tokens.ts';
import { pythonRepr, pythonReprLength } from '../../../core/tokens/python-repr.ts';
import type { Message } from '../../../core/transcript/message.ts';
import type { ToolSchema } from '../../../core/transcript/transcript.ts';
import { unknownStep } from '../require-known-fields.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface TokenEstimateInput {
  text?: string;
  messages?: Message[];
  message?: Message;
  system_prompt?: string;
  tools?: ToolSchema[] | null;
}

/** The input each estimator reads, by the Hermes function a case names in `function`. */
const FUNCTION_INPUTS: ReadonlyArray<readonly [prefix: string, keys: readonly string[]]> = [
  ['estimate_tokens_rough', ['text']],
  ['estimate_messages_tokens_rough', ['messages']],
  ['estimate_request_tokens_rough', ['messages', 'system_prompt', 'tools']],
  ['_estimate_msg_budget_tokens', ['message']],
];

/** `function` names the Hermes function each case exercises. */
export const adapter: VectorAdapter = {
  caseKeys: ['function'],
  inputKeys(testCase) {
    const fn = typeof testCase.function === 'string' ? testCase.function : '';
    const known = FUNCTION_INPUTS.find(([prefix]) => fn === prefix || fn.startsWith(`${prefix} `));
    return known
      ? known[1]
      : unknownStep(
          'function',
          fn,
          FUNCTION_INPUTS.map(([prefix]) => prefix),
        );
  },
  /**
   * The vectors echo the measured repr (`python_str`) for some messages only (not for a message
   * whose image is an inline data URL); it is compared wherever a case records it.
   */
  optionalOutputKeys: ['per_message[].python_str'],
  run(testCase, preset) {
    const input = testCase.input as TokenEstimateInput;
    const fn = typeof testCase.function === 'string' ? testCase.function : '';
    if (fn === 'estimate_tokens_rough') {
      const text = input.text ?? '';
      return { text, tokens: estimateTokensRough(text) };
    }
    if (fn === 'estimate_messages_tokens_rough') {
      const messages = input.messages ?? [];
      return {
        per_message: messages.map((message) => ({
          python_str_len: pythonReprLength(message),
          estimator_chars: roughMessageSize(message, preset).chars,
          python_str: pythonRepr(message),
        })),
        tokens: estimateMessagesTokensRough(messages, preset),
      };
    }
    if (fn === 'estimate_request_tokens_rough') {
      return estimateRequestTokensRough(input.messages ?? [], input.system_prompt ?? '', input.tools, preset);
    }
    if (fn.startsWith('_estimate_msg_budget_tokens')) {
      return messageBudgetTokens(input.message ?? { role: 'user', content: '' }, preset);
    }
    return unknownStep(
      'function',
      fn,
      FUNCTION_INPUTS.map(([prefix]) => prefix),
    );
  },
};
