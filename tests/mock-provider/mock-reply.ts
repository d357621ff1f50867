import type { MockScriptStep } from './mock-script.ts';
import { mockTokenCount, MOCK_CHARACTERS_PER_TOKEN } from './mock-token-count.ts';

export interface MockToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments. */
  argumentsJson: string;
}

export interface MockReply {
  text: string;
  toolCalls: MockToolCall[];
  stopReason: 'end' | 'length' | 'tool';
  outputTokens: number;
}

/** How much of the last user message the default echo quotes. */
const ECHO_CHARACTERS = 120;

/**
 * The deterministic reply: a scripted one, or an echo of the last user message. A reply longer
 * than `max_tokens` is cut to it and stops with `length`, as a real model would.
 */
export function planMockReply(
  step: Extract<MockScriptStep, { kind: 'reply' }> | undefined,
  lastUserText: string,
  maxTokens: number,
  nextId: () => string,
): MockReply {
  let text =
    step?.text ?? (step?.toolCalls ? '' : `Mock reply to: ${lastUserText.slice(0, ECHO_CHARACTERS)}`);
  const toolCalls = (step?.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextId(),
    name: call.name,
    argumentsJson: JSON.stringify(call.arguments ?? {}),
  }));
  let stopReason: MockReply['stopReason'] =
    step?.stopReason === 'length' ? 'length' : toolCalls.length > 0 ? 'tool' : 'end';
  if (mockTokenCount(text) > maxTokens) {
    text = text.slice(0, Math.max(0, maxTokens) * MOCK_CHARACTERS_PER_TOKEN);
    stopReason = 'length';
  }
  const outputTokens = Math.max(
    1,
    mockTokenCount(text) +
      toolCalls.reduce((sum, call) => sum + mockTokenCount(call.name + call.argumentsJson), 0),
  );
  return { text, toolCalls, stopReason, outputTokens };
}

/** Splits text into small deterministic pieces for streaming (about three words each). */
export function streamPieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += 3) pieces.push(words.slice(index, index + 3).join(''));
  return pieces;
}

/** Splits a JSON text into pieces of about 16 characters, as providers stream tool arguments. */
export function jsonPieces(json: string): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < json.length; index += 16) pieces.push(json.slice(index, index + 16));
  return pieces;
}
