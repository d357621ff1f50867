import type { Message } from '../transcript/message.ts';

/** Where a message sits in a tool-call group: an assistant's calls bracketed with their results. */
export type GroupMark = 'none' | 'start' | 'inside' | 'end';

const CODES: readonly GroupMark[] = ['none', 'start', 'inside', 'end'];

/**
 * One code per message (an index into `GROUP_MARKS`), so 50,000 messages cost 50 KB: an
 * assistant with tool calls opens a group that runs over the tool results right after it.
 */
export function toolCallGroupMarks(messages: readonly Message[]): Uint8Array {
  const marks = new Uint8Array(messages.length);
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls) || message.tool_calls.length === 0)
      continue;
    let last = index;
    while (messages[last + 1]?.role === 'tool') last++;
    if (last === index) continue;
    marks[index] = 1;
    for (let inside = index + 1; inside < last; inside++) marks[inside] = 2;
    marks[last] = 3;
    index = last;
  }
  return marks;
}

export const groupMarkAt = (marks: Uint8Array, index: number): GroupMark =>
  CODES[marks[index] ?? 0] ?? 'none';
