/**
 * The context map's horizontal axis in tokens: the system prompt, then the tool schemas, then
 * every other message in order. Prefix sums make every position lookup O(1) and every
 * "which message is here" lookup O(log n), so 50,000 messages cost nothing per redraw.
 */
export interface TokenAxis {
  readonly messageCount: number;
  /** Index of the first message after the system prompt (0 or 1). */
  readonly systemEnd: number;
  readonly toolsTokens: number;
  /** `prefix[i]` = tokens of messages `[0, i)`, without the tool schemas. */
  readonly prefix: Float64Array;
  /** Messages plus tool schemas. */
  readonly totalTokens: number;
}

export function buildTokenAxis(
  tokensPerMessage: ArrayLike<number>,
  systemEnd: number,
  toolsTokens: number,
): TokenAxis {
  const count = tokensPerMessage.length;
  const prefix = new Float64Array(count + 1);
  for (let index = 0; index < count; index++)
    prefix[index + 1] = prefix[index]! + (tokensPerMessage[index] ?? 0);
  return { messageCount: count, systemEnd, toolsTokens, prefix, totalTokens: prefix[count]! + toolsTokens };
}

/** Where message `index` starts on the axis (`index = messageCount` gives the end). */
export function offsetOfMessage(axis: TokenAxis, index: number): number {
  const clamped = Math.max(0, Math.min(index, axis.messageCount));
  return axis.prefix[clamped]! + (clamped >= axis.systemEnd ? axis.toolsTokens : 0);
}

/**
 * The message under a point of the axis; -1 over the tool schemas (which are not messages) or
 * past the end of the transcript.
 */
export function messageAtOffset(axis: TokenAxis, offset: number): number {
  if (offset < 0 || offset >= axis.totalTokens || axis.messageCount === 0) return -1;
  const systemTokens = axis.prefix[axis.systemEnd]!;
  if (offset >= systemTokens && offset < systemTokens + axis.toolsTokens) return -1;
  const messageTokens = offset >= systemTokens ? offset - axis.toolsTokens : offset;
  // The last i with prefix[i] <= messageTokens.
  let low = 0;
  let high = axis.messageCount - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (axis.prefix[middle]! <= messageTokens) low = middle;
    else high = middle - 1;
  }
  return low;
}
