/**
 * fast-check arbitraries for agent transcripts: turns of a user ask, tool rounds (parallel calls
 * included) with results of any size, and a reply. They shrink to the smallest transcript that
 * still breaks a property, so a failure reads as a handful of messages, not 40.
 */
import fc from 'fast-check';
import type { Message, ToolCall } from '#core/transcript/message.ts';

const TOOLS = ['terminal', 'read_file', 'write_file', 'search_files'] as const;
const WORDS = ['invoice', 'ledger', 'parser', 'cache', 'migration', 'schema', 'retry', 'token', 'billing'];

interface ToolStep {
  readonly tool: (typeof TOOLS)[number];
  readonly calls: number;
  readonly resultChars: number;
  readonly failing: boolean;
}

interface Turn {
  readonly topic: number;
  readonly steps: readonly ToolStep[];
  readonly replyChars: number;
}

export interface ArbitraryTranscript {
  readonly messages: Message[];
  /** Indices of the real user asks, in order. */
  readonly asks: readonly number[];
}

const filler = (chars: number, seed: number): string => {
  let text = '';
  for (let index = 0; text.length < chars; index++) text += `${WORDS[(seed + index) % WORDS.length]} `;
  return text.slice(0, chars);
};

const step: fc.Arbitrary<ToolStep> = fc.record({
  tool: fc.constantFrom(...TOOLS),
  calls: fc.integer({ min: 1, max: 3 }),
  resultChars: fc.oneof(fc.integer({ min: 5, max: 300 }), fc.integer({ min: 300, max: 6000 })),
  failing: fc.boolean(),
});

const turn: fc.Arbitrary<Turn> = fc.record({
  topic: fc.integer({ min: 0, max: 50 }),
  steps: fc.array(step, { maxLength: 4 }),
  replyChars: fc.integer({ min: 10, max: 1500 }),
});

function build(system: boolean, turns: readonly Turn[]): ArbitraryTranscript {
  const messages: Message[] = system ? [{ role: 'system', content: 'You are a careful coding agent.' }] : [];
  const asks: number[] = [];
  let callId = 0;
  turns.forEach((current, turnIndex) => {
    asks.push(messages.length);
    messages.push({
      role: 'user',
      content: `Turn ${turnIndex}: please fix the ${WORDS[current.topic % WORDS.length]} bug in src/module_${current.topic}.py and run the tests.`,
    });
    for (const [stepIndex, round] of current.steps.entries()) {
      const calls: ToolCall[] = [];
      for (let call = 0; call < round.calls; call++) {
        const path = `src/module_${current.topic}_${stepIndex}_${call}.py`;
        const args =
          round.tool === 'terminal'
            ? { command: `pytest tests/test_${current.topic}.py -k case_${call}` }
            : { path };
        calls.push({
          id: `call_${callId++}`,
          type: 'function',
          function: { name: round.tool, arguments: JSON.stringify(args) },
        });
      }
      messages.push({ role: 'assistant', content: null, tool_calls: calls });
      for (const call of calls) {
        const error = round.failing ? `Traceback (most recent call last):\nValueError: bad ${call.id}\n` : '';
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: `${error}${filler(round.resultChars, callId)}`,
        });
      }
    }
    messages.push({
      role: 'assistant',
      content: `I'll use the ${WORDS[current.topic % WORDS.length]} fix. ${filler(current.replyChars, turnIndex)}`,
    });
  });
  return { messages, asks };
}

export const arbitraryTranscript = (options: { minTurns?: number; maxTurns?: number } = {}) =>
  fc
    .tuple(
      fc.boolean(),
      fc.array(turn, { minLength: options.minTurns ?? 2, maxLength: options.maxTurns ?? 24 }),
    )
    .map(([system, turns]) => build(system, turns));
