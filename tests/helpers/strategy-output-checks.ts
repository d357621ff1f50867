/**
 * Checks every strategy's output must pass: tool calls and results stay paired, and the latest
 * user ask is still there, verbatim or quoted in a summary.
 */
import { contentTextForContains } from '#core/compression/content-text.ts';
import { isUserAsk } from '#core/strategies/strategy-kit.ts';
import { hasToolCalls, type Message } from '#core/transcript/message.ts';

/**
 * What is wrong with the tool pairs of `messages`: a result whose call is not in the assistant
 * message right before its group, or a call with no result (except an open call at the very end).
 */
export function toolPairProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') {
      let owner = index - 1;
      while (owner >= 0 && messages[owner]!.role === 'tool') owner--;
      const calls = owner >= 0 && hasToolCalls(messages[owner]!) ? messages[owner]!.tool_calls! : [];
      if (!calls.some((call) => call.id === message.tool_call_id))
        problems.push(`#${index}: result ${String(message.tool_call_id)} has no call before it`);
    }
    if (hasToolCalls(message)) {
      let end = index + 1;
      while (end < messages.length && messages[end]!.role === 'tool') end++;
      if (end === messages.length && end === index + 1) continue;
      const answered = new Set(messages.slice(index + 1, end).map((result) => result.tool_call_id));
      for (const call of message.tool_calls!)
        if (!answered.has(call.id)) problems.push(`#${index}: call ${call.id} has no result`);
    }
  }
  return problems;
}

/** The newest user ask of `input`, or null. */
export function latestAskText(input: readonly Message[]): string | null {
  for (let index = input.length - 1; index >= 0; index--)
    if (isUserAsk(input[index]!)) return contentTextForContains(input[index]!.content);
  return null;
}

const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Whether the latest ask of `input` survives in `output`: a message with its text, or its
 * opening (first 200 characters, whitespace runs collapsed as summaries quote it) inside some
 * message.
 */
export function latestAskSurvives(input: readonly Message[], output: readonly Message[]): boolean {
  const ask = latestAskText(input);
  if (ask === null) return true;
  const opening = flat(ask).slice(0, 200);
  return output.some((message) => {
    const text = contentTextForContains(message.content);
    return text === ask || flat(text).includes(opening);
  });
}
