/**
 * What the strategies modelled on other tools share: the Hermes generation that hosts them in
 * the live loop, per-message token counts, the gates before a plan says "fire", recognising real
 * user requests, and building the inserted summary message. Hermes' own strategies do not use it.
 */
import { shouldCompress } from '../compression/compression-gates.ts';
import type { CompressorState } from '../compression/compressor-state.ts';
import { COMPRESSED_SUMMARY_METADATA_KEY } from '../compression/markers.ts';
import { isRealUserMessage } from '../compression/real-user-message.ts';
import { contentTextForContains } from '../compression/content-text.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { HOST_PRESET } from './host-preset.ts';
import type { Preset } from '../presets/preset.ts';
import {
  estimateMessagesTokensRough,
  type RoughSizeCache,
} from '../tokens/estimate-messages-tokens-rough.ts';
import { measureRoughTokens } from '../tokens/measure-rough-tokens.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import type {
  CompactInput,
  MessageTokens,
  PlanInput,
  PlanReason,
  StrategyCompaction,
  StrategyTrigger,
} from './strategy.ts';

export { HOST_PRESET };

/** Leading system/developer messages: the initial context every strategy keeps. */
export function leadingSystemCount(messages: readonly Message[]): number {
  let count = 0;
  while (
    count < messages.length &&
    (messages[count]!.role === 'system' || messages[count]!.role === 'developer')
  )
    count++;
  return count;
}

/**
 * Rough per-message counts and the request, for callers without counts of their own: the
 * planner's rough basis (`measureRoughTokens`), so a compaction given no counts decides on the
 * numbers its plan showed.
 */
export function roughMessageTokens(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  preset: Preset = HOST_PRESET,
  sizeCache?: RoughSizeCache,
): MessageTokens {
  const { perMessage, requestTokens } = measureRoughTokens(messages, tools, preset, sizeCache);
  return { of: (index) => perMessage[index] ?? 0, request: requestTokens, exact: false };
}

/** The caller's counts when it has them, else the planner's rough basis (with the compaction's sizes). */
export const tokensFor = (input: PlanInput | CompactInput): MessageTokens =>
  input.tokens ??
  roughMessageTokens(
    input.messages,
    input.tools,
    HOST_PRESET,
    'sizeCache' in input ? input.sizeCache : undefined,
  );

/** Sums `tokens.of` over `[start, end)`. */
export function sumTokens(tokens: MessageTokens, start: number, end: number): number {
  let total = 0;
  for (let index = start; index < end; index++) total += tokens.of(index);
  return total;
}

/**
 * Wrapper texts other tools put in user-role messages that no person typed: Codex's environment
 * and instruction blocks, Claude Code's reminders and slash-command echoes, interruption marks.
 */
const PSEUDO_USER_OPENINGS = [
  '<environment_context',
  '<user_instructions',
  '<system-reminder',
  '<command-name',
  '<command-message',
  '<local-command-stdout',
  '[Request interrupted',
] as const;

/** A request a person made: a real user turn (Hermes' rules) that is not tool scaffolding. */
export function isUserAsk(message: Message): boolean {
  if (!isRealUserMessage(message, HOST_PRESET)) return false;
  const text = contentTextForContains(message.content).trimStart();
  return !PSEUDO_USER_OPENINGS.some((opening) => text.startsWith(opening));
}

/** A summary message as inserted: flagged so every later compaction knows it is not a user ask. */
export function summaryMessage(role: 'user' | 'assistant', text: string): Message {
  return { role, content: text, [COMPRESSED_SUMMARY_METADATA_KEY]: true };
}

/** Whether the plan fires, judged with the shared gates (cooldown, anti-thrash breakers). */
export function gateReason(
  config: CompressionConfig,
  state: CompressorState,
  trigger: StrategyTrigger,
  triggerTokens: number,
  nowMs: number | undefined,
  preset: Preset = HOST_PRESET,
): PlanReason {
  if (!config.enabled) return 'disabled';
  const verdict = shouldCompress(
    state,
    { thresholdTokens: trigger.thresholdTokens, preset, nowMs: nowMs ?? Number.POSITIVE_INFINITY },
    triggerTokens,
  );
  if (!verdict.compress) return verdict.blockedBy ?? 'below-threshold';
  return 'ready';
}

/** Formats a fraction as a percentage for explanations. */
export const percentText = (fraction: number): string => `${Number((fraction * 100).toFixed(1))}%`;

/** UTF-8 byte length, for tools that count about four bytes per token (Codex). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The rough estimate of a compaction's input (its `tokensBefore`): the caller's measure when it
 * gave one, so a compaction walks its thousands of messages for it once, not once per layer.
 */
export const roughTokensBefore = (input: CompactInput): number =>
  input.messagesTokens ?? estimateMessagesTokensRough(input.messages, HOST_PRESET, input.sizeCache);

/** A compaction that left the input as it was: nothing lay between what the strategy keeps. */
export function nothingToCompact(
  input: CompactInput,
  note: string,
  tokensBefore: number,
): StrategyCompaction {
  return {
    messages: [...input.messages],
    state: input.state,
    skipped: 'no-compressible-window',
    notes: [note],
    fates: new Uint8Array(input.messages.length),
    pruned: [],
    summaries: [],
    reattached: [],
    tokensBefore,
    tokensAfter: tokensBefore,
    summarizerCalls: 0,
    warning: null,
    hermes: null,
  };
}
