/**
 * Codex CLI's local compaction (openai/codex `core/src/compact.rs`, facts as of 2026-10 in
 * peers.md §2.2): fire at 90% of the raw window; rebuild the history as the initial context,
 * the previous user messages (newest first, up to 20,000 tokens at about four bytes per token,
 * the oldest one that does not fit cut to the remainder), and a handoff summary inserted as a
 * user message. Assistant replies and tool calls are not kept: the summary stands for them.
 */
import { liveLoopHooks } from './live-loop-hooks.ts';
import { CODEX_CLI_PROFILE, TRIGGER_PERCENT, USER_MESSAGE_BUDGET } from './codex-cli-profile.ts';
import { createCompressorState } from '../compression/compressor-state.ts';
import type { SummaryTemplate } from '../compression/summary-template.ts';
import { contentTextForContains } from '../compression/content-text.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import { estimateMessagesTokensRough } from '../tokens/estimate-messages-tokens-rough.ts';
import { withSharedCaches } from './shared-message-caches.ts';
import type { Message } from '../transcript/message.ts';
import {
  FATE,
  type MessageTokens,
  optionValue,
  type CompactDeps,
  type CompactInput,
  type PlanInput,
  type Strategy,
  type StrategyCompaction,
  type StrategyPlan,
  type StrategyTrigger,
} from './strategy.ts';
import {
  gateReason,
  HOST_PRESET,
  isUserAsk,
  leadingSystemCount,
  nothingToCompact,
  percentText,
  roughTokensBefore,
  summaryMessage,
  sumTokens,
  tokensFor,
  utf8Bytes,
} from './strategy-kit.ts';
import { firstMessageSent, templatePromptTokens, trimmedText } from './trim-request-to-window.ts';
import { writeSummary } from './write-summary.ts';

/** Codex's usable window is 95% of the raw one; the trigger is measured against the raw one. */
const EFFECTIVE_WINDOW_SHARE = 0.95;
/** Codex's own estimate: about four bytes of UTF-8 per token. */
const BYTES_PER_TOKEN = 4;
/** Codex asks for no particular size; the lab asks for a tenth of what is compacted, within bounds. */
const SUMMARY_SHARE = 0.1;
const SUMMARY_MIN_TOKENS = 1000;
const SUMMARY_MAX_TOKENS = 8000;

/** Inserted before the summary, as Codex does, so the next model knows it is picking up work. */
export const CODEX_SUMMARY_PREFIX =
  'Another model was working on this task before the context was reset, and wrote the handoff below. ' +
  'Build on it: do not redo work it reports as done, and check anything it was unsure of.';

const INSTRUCTIONS =
  'You are writing a CONTEXT CHECKPOINT: the conversation below is about to be replaced by your summary, and ' +
  'another model will carry on the work from it alone. Write a handoff that lets it continue without asking ' +
  'again: what the user wants, what has been done and decided, what must not be forgotten, and what to do ' +
  'next. Be concise and concrete; prefer exact names, paths and values over description.';

const TEMPLATE: SummaryTemplate = {
  sections: [
    {
      heading: '## Goal',
      content: 'goal',
      guidance: 'What the user is trying to get done, in one or two sentences.',
    },
    {
      heading: '## Progress and decisions',
      content: 'progress',
      guidance: 'What has been done so far and the choices made on the way.',
    },
    {
      heading: '## Constraints and preferences',
      content: 'constraints',
      guidance: 'Requirements, limits and user preferences that still apply.',
    },
    {
      heading: '## Next steps',
      content: 'next-step',
      guidance: 'What remains to do, starting with the latest request.',
    },
    {
      heading: '## Critical data',
      content: 'critical',
      guidance: 'Exact values, paths, commands, errors and references the next model needs.',
    },
  ],
};

const approxTokens = (text: string): number => Math.ceil(utf8Bytes(text) / BYTES_PER_TOKEN);

/** Cuts a message to about `tokens` tokens, keeping its start and end (Codex truncates the middle). */
function truncateMiddle(text: string, tokens: number): string {
  const keepChars = Math.max(0, tokens * BYTES_PER_TOKEN);
  if (text.length <= keepChars) return text;
  const head = Math.ceil(keepChars / 2);
  const tail = Math.floor(keepChars / 2);
  const removed = approxTokens(text) - tokens;
  return `${text.slice(0, head)}\n…${formatCount(removed)} tokens truncated…\n${tail > 0 ? text.slice(-tail) : ''}`;
}

interface KeptUserMessage {
  readonly index: number;
  /** The text kept, when Codex had to cut the message; null when it is kept whole. */
  readonly truncated: string | null;
}

/** The previous user messages Codex carries over, newest first until the budget is spent. */
function selectUserMessages(
  messages: readonly Message[],
  start: number,
  budgetTokens: number,
): KeptUserMessage[] {
  const kept: KeptUserMessage[] = [];
  let remaining = budgetTokens;
  for (let index = messages.length - 1; index >= start && remaining > 0; index--) {
    const message = messages[index]!;
    if (!isUserAsk(message)) continue;
    const text = contentTextForContains(message.content);
    const tokens = approxTokens(text);
    if (tokens <= remaining) {
      kept.push({ index, truncated: null });
      remaining -= tokens;
    } else {
      kept.push({ index, truncated: truncateMiddle(text, remaining) });
      break;
    }
  }
  return kept.reverse();
}

/**
 * Where Codex's compaction request starts: its whole history (no tools) and its prompt must fit
 * the raw window, else it trims the oldest items one by one, never a tool result from its call.
 */
let promptTokens: number | null = null;
function codexRequestStart(
  messages: readonly Message[],
  headEnd: number,
  tokens: MessageTokens,
  windowTokens: number,
): number {
  promptTokens ??= templatePromptTokens(INSTRUCTIONS, TEMPLATE, SUMMARY_MAX_TOKENS);
  return firstMessageSent(messages, headEnd, tokens, {
    requestTokens: sumTokens(tokens, 0, messages.length) + promptTokens,
    windowTokens,
    canStartAt: (message) => message.role !== 'tool',
  });
}

const codexTrimmedText = (trimmed: number, trimmedTokens: number, windowTokens: number): string =>
  trimmedText('Codex', 'trims', trimmed, trimmedTokens, windowTokens);

function codexTrigger(config: CompressionConfig): StrategyTrigger {
  const share = optionValue(config, TRIGGER_PERCENT) / 100;
  const window = config.contextLength;
  return {
    thresholdTokens: Math.trunc(window * share),
    rule: `${percentText(share)} of the raw ${formatCount(window)}-token window (Codex's usable window is ${percentText(EFFECTIVE_WINDOW_SHARE)} of it, ${formatCount(Math.trunc(window * EFFECTIVE_WINDOW_SHARE))})`,
  };
}

function summaryBudget(compactedTokens: number): number {
  return Math.max(
    SUMMARY_MIN_TOKENS,
    Math.min(SUMMARY_MAX_TOKENS, Math.round(compactedTokens * SUMMARY_SHARE)),
  );
}

function planCodex(input: PlanInput): StrategyPlan {
  const { messages, config, state } = input;
  const tokens = tokensFor(input);
  const trigger = codexTrigger(config);
  const headEnd = leadingSystemCount(messages);
  const count = messages.length;
  const budget = optionValue(config, USER_MESSAGE_BUDGET);
  const kept = selectUserMessages(messages, headEnd, budget);
  const sentStart = codexRequestStart(messages, headEnd, tokens, config.contextLength);
  const fates = new Uint8Array(count);
  fates.fill(FATE.dropped, headEnd, sentStart);
  fates.fill(FATE.summarized, sentStart, count);
  const prunedSavings = new Map<number, number>();
  for (const item of kept) {
    fates[item.index] = item.truncated === null ? FATE.kept : FATE.pruned;
    if (item.truncated !== null) {
      const whole = tokens.of(item.index);
      prunedSavings.set(item.index, Math.max(0, whole - approxTokens(item.truncated)));
    }
  }
  let reason = gateReason(config, state, trigger, tokens.request, input.nowMs);
  if (reason === 'ready' && headEnd >= count) reason = 'no-compressible-window';
  const summarised = sumTokens(tokens, sentStart, count);
  const userAsks = messages.slice(headEnd).filter(isUserAsk).length;
  const trimmed = sentStart - headEnd;
  return {
    trigger,
    triggerTokens: tokens.request,
    triggerBasis: tokens.exact ? 'exact' : 'estimate',
    wouldCompress: reason === 'ready',
    reason,
    headEnd,
    tailStart: count,
    fates,
    pruned: [],
    prunedSavings,
    summaries: headEnd < count ? [{ start: sentStart, end: count, kind: 'middle' }] : [],
    reattached: [],
    summaryTokens: headEnd < count ? summaryBudget(summarised) : 0,
    explanation: [
      `Keeps the system prompt and your last ${formatCount(budget)} tokens of user messages and nothing else: ` +
        `${formatCount(kept.length)} of ${formatCount(userAsks)} user ${userAsks === 1 ? 'message' : 'messages'}, newest first` +
        `${kept.some((item) => item.truncated !== null) ? ', the oldest of them cut to fit' : ''}.`,
      'Every assistant reply and tool call is dropped from the history; the handoff summary, inserted as a user message, stands for them.',
      'Codex counts about four bytes of text per token for the kept user messages.',
      ...(trimmed > 0
        ? [codexTrimmedText(trimmed, sumTokens(tokens, headEnd, sentStart), config.contextLength)]
        : []),
    ],
    hermes: null,
  };
}

async function compactCodex(input: CompactInput, deps: CompactDeps): Promise<StrategyCompaction> {
  const { messages, config } = input;
  const count = messages.length;
  const headEnd = leadingSystemCount(messages);
  const tokensBefore = roughTokensBefore(input);
  const fates = new Uint8Array(count);
  if (headEnd >= count) {
    return nothingToCompact(
      input,
      'Nothing but the system prompt: there is nothing to compact.',
      tokensBefore,
    );
  }
  const tokens = tokensFor(input);
  const kept = selectUserMessages(messages, headEnd, optionValue(config, USER_MESSAGE_BUDGET));
  const sentStart = codexRequestStart(messages, headEnd, tokens, config.contextLength);
  fates.fill(FATE.dropped, headEnd, sentStart);
  fates.fill(FATE.summarized, sentStart, count);
  for (const item of kept) fates[item.index] = item.truncated === null ? FATE.kept : FATE.pruned;
  const written = await writeSummary(
    {
      turns: messages.slice(sentStart),
      preset: HOST_PRESET,
      textCache: input.summaryTextCache,
      instructions: INSTRUCTIONS,
      template: TEMPLATE,
      budgetTokens: summaryBudget(sumTokens(tokens, sentStart, count)),
      model: config.summaryModel || null,
      ...(input.summaryOverrides?.[0] !== undefined ? { override: input.summaryOverrides[0] } : {}),
    },
    deps,
  );
  const output: Message[] = [
    ...messages.slice(0, headEnd),
    ...kept.map((item) =>
      item.truncated === null ? messages[item.index]! : { role: 'user', content: item.truncated },
    ),
    summaryMessage('user', `${CODEX_SUMMARY_PREFIX}\n\n${written.body}`),
  ];
  const notes = [
    `Kept the system prompt and ${formatCount(kept.length)} earlier user ${kept.length === 1 ? 'message' : 'messages'}; the summary stands for the other ${formatCount(count - sentStart - kept.filter((item) => item.index >= sentStart).length)} messages.`,
  ];
  const trimmed = sentStart - headEnd;
  if (trimmed > 0)
    notes.push(codexTrimmedText(trimmed, sumTokens(tokens, headEnd, sentStart), config.contextLength));
  if (input.focusTopic) notes.push("Codex's /compact takes no focus topic; it was not used.");
  if (written.fallback)
    notes.push(`The summariser failed (${written.error}); a deterministic digest stands in.`);
  return {
    messages: output,
    state: createCompressorState({
      ...input.state,
      compressionCount: input.state.compressionCount + 1,
      previousSummary: written.body,
      lastSummaryError: written.error,
    }),
    skipped: null,
    notes,
    fates,
    pruned: [],
    summaries: [
      {
        body: written.body,
        outputIndex: output.length - 1,
        span: { start: sentStart, end: count, kind: 'middle' },
        prompt: written.prompt,
        fallback: written.fallback,
      },
    ],
    reattached: [],
    tokensBefore,
    tokensAfter: estimateMessagesTokensRough(output, HOST_PRESET, input.sizeCache),
    summarizerCalls: written.calls,
    warning: null,
    hermes: null,
  };
}

export const CODEX_CLI_STRATEGY: Strategy = {
  ...CODEX_CLI_PROFILE,
  ...liveLoopHooks(HOST_PRESET),
  trigger: codexTrigger,
  // Codex needs nothing prepared but the planner's sizes.
  prepare: (_messages, _tools, shared) => withSharedCaches({}, HOST_PRESET, shared),
  plan: planCodex,
  compact: compactCodex,
};
