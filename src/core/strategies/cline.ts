/**
 * Cline's context management (cline/cline `context-window-utils.ts` and `ContextManager.ts`,
 * facts as of 2026-10 in peers.md §2.5): fire at `maxAllowedSize` (the window minus 27K / 30K /
 * 40K for 64K / 128K / 200K windows, otherwise max(window − 40K, 80% of it)). First older
 * copies of files read again are replaced by a notice; if that saves at least 30% of the
 * context's characters, that is all. Otherwise the first user/assistant pair is kept and
 * half of the rest (three quarters when half would not be enough) is dropped from the front,
 * with a notice in its place. No summary, unless Auto Compact is switched on: then the same
 * model summarises everything after the first pair.
 */
import { liveLoopHooks } from './live-loop-hooks.ts';
import { CLINE_PROFILE, AUTO_COMPACT } from './cline-profile.ts';
import { createCompressorState } from '../compression/compressor-state.ts';
import { contentTextForContains } from '../compression/content-text.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import type { SummaryTemplate } from '../compression/summary-template.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import { estimateMessagesTokensRough } from '../tokens/estimate-messages-tokens-rough.ts';
import { withSharedCaches } from './shared-message-caches.ts';
import type { Message } from '../transcript/message.ts';
import { findFileAccesses, type FileAccess } from './find-file-accesses.ts';
import {
  FATE,
  optionValue,
  type CompactDeps,
  type CompactInput,
  type MessageTokens,
  type PlanInput,
  type PlanReason,
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
} from './strategy-kit.ts';
import { writeSummary } from './write-summary.ts';

/** Cline skips truncation when the duplicate-read notices save at least this share of characters. */
const DEDUPE_ENOUGH_SHARE = 0.3;
/** Cline's auto compact asks for no particular size; the lab targets a tenth of what is compacted. */
const SUMMARY_SHARE = 0.1;
const SUMMARY_MIN_TOKENS = 1000;
const SUMMARY_MAX_TOKENS = 8000;
/** A latest request quoted in the truncation notice is cut to this many characters. */
const QUOTED_ASK_MAX_CHARS = 2000;

/** Replaces an older copy of a file read again (our words for Cline's notice). */
export const CLINE_DUPLICATE_READ_NOTICE =
  '[Duplicate file read notice: this older copy was removed to save context. A later read of the same file further on is current.]';
/** Stands where messages were dropped (our words for Cline's truncation notice). */
export const CLINE_TRUNCATION_NOTICE =
  '[Note: some earlier messages of this conversation were removed to stay within the context window. Continue from what follows.]';
/** Opens an Auto Compact summary. */
export const CLINE_SUMMARY_OPENING =
  'The conversation so far was condensed to fit the context window; this summary stands for it. Continue the task from here.';

const INSTRUCTIONS =
  'Summarise the conversation below so that you can continue the task from your summary alone. Be specific: ' +
  'names, paths, commands and the exact state of the work matter more than prose.';

const TEMPLATE: SummaryTemplate = {
  sections: [
    { heading: '## Task', content: 'goal', guidance: 'What the user asked for and why.' },
    {
      heading: '## Work so far',
      content: 'progress',
      guidance: 'What has been done, in order, and what was decided.',
    },
    {
      heading: '## Files and code',
      content: 'files',
      guidance: 'Files read or changed and what matters in them.',
    },
    {
      heading: '## Current state and next step',
      content: 'next-step',
      guidance: 'Where the work stands, what is left, and the next step, quoting the latest request.',
    },
  ],
};

/** Cline's `maxAllowedSize`: fixed margins for the three common windows, otherwise the larger rule. */
export function clineMaxAllowedSize(window: number): number {
  switch (window) {
    case 64_000:
      return window - 27_000;
    case 128_000:
      return window - 30_000;
    case 200_000:
      return window - 40_000;
    default:
      return Math.max(window - 40_000, Math.floor(window * 0.8));
  }
}

function clineTrigger(config: CompressionConfig): StrategyTrigger {
  const window = config.contextLength;
  const threshold = clineMaxAllowedSize(window);
  const fixed = { 64_000: 27_000, 128_000: 30_000, 200_000: 40_000 }[window];
  return {
    thresholdTokens: threshold,
    rule:
      fixed !== undefined
        ? `Cline's maxAllowedSize for a ${formatCount(window)}-token window: ${formatCount(window)} − ${formatCount(fixed)}`
        : `Cline's maxAllowedSize: the larger of the window − 40,000 and 80% of the ${formatCount(window)}-token window`,
  };
}

interface DuplicateCopy {
  readonly access: FileAccess;
  /** The message that changes: the read's result, or the write's assistant message. */
  readonly index: number;
  readonly originalChars: number;
}

interface ClinePrepared {
  /** Characters per message, content and tool-call arguments (Cline compares characters). */
  readonly chars: Float64Array;
  /** Whole-file copies in message order. */
  readonly copies: readonly DuplicateCopy[];
}

function messageChars(message: Message): number {
  let chars = contentTextForContains(message.content).length;
  for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
    const args = call?.function?.arguments;
    if (typeof args === 'string') chars += args.length;
  }
  return chars;
}

function prepareCline(messages: readonly Message[]): ClinePrepared {
  const chars = new Float64Array(messages.length);
  for (let index = 0; index < messages.length; index++) chars[index] = messageChars(messages[index]!);
  const copies: DuplicateCopy[] = [];
  for (const access of findFileAccesses(messages)) {
    if (access.kind === 'read' && access.resultIndex >= 0) {
      copies.push({
        access,
        index: access.resultIndex,
        originalChars: contentTextForContains(messages[access.resultIndex]!.content).length,
      });
    } else if (access.kind === 'write' && access.writtenContent !== null) {
      copies.push({ access, index: access.callIndex, originalChars: access.writtenContent.length });
    }
  }
  // A read's copy sits in its result, after the call: order copies by where they sit.
  copies.sort(
    (left, right) => left.index - right.index || left.access.callPosition - right.access.callPosition,
  );
  return { chars, copies };
}

const preparedOf = (messages: readonly Message[], prepared: unknown): ClinePrepared =>
  prepared && typeof prepared === 'object' && 'copies' in prepared
    ? (prepared as ClinePrepared)
    : prepareCline(messages);

/** The first user/assistant pair Cline always keeps, with the assistant's tool results. */
function firstPairEnd(messages: readonly Message[], start: number): number {
  let index = start;
  while (index < messages.length && messages[index]!.role !== 'assistant') index++;
  if (index >= messages.length) return messages.length;
  index++;
  while (index < messages.length && messages[index]!.role === 'tool') index++;
  return index;
}

type KeepRule = 'half' | 'quarter';

interface ClineLayout {
  readonly mode: 'dedupe-only' | 'truncate' | 'auto-compact' | 'nothing';
  readonly pairEnd: number;
  /** Older copies replaced by the notice, at or after `pairEnd`. */
  readonly duplicates: readonly DuplicateCopy[];
  readonly savedChars: number;
  readonly totalChars: number;
  readonly keep: KeepRule;
  /** `[pairEnd, dropEnd)` is dropped (truncate mode). */
  readonly dropEnd: number;
  readonly fates: Uint8Array;
  readonly headEnd: number;
  readonly tailStart: number;
}

/** Older copies of each file read (or written whole) again, outside the first pair. */
function duplicateCopies(prepared: ClinePrepared, from: number): DuplicateCopy[] {
  const lastByPath = new Map<string, number>();
  prepared.copies.forEach((copy, position) => {
    if (copy.index >= from) lastByPath.set(copy.access.path, position);
  });
  return prepared.copies.filter(
    (copy, position) => copy.index >= from && lastByPath.get(copy.access.path) !== position,
  );
}

/**
 * Cline's `getNextTruncationRange` on our message model: `half` removes ⌊n/4⌋·2 of the n
 * messages after the first pair, `quarter` keeps a quarter (removes ⌊3n/8⌋·2); the cut is then
 * moved back to the nearest tool-group boundary so a call never loses its results (Cline
 * moves it so the last removed message is an assistant's), forward only when nothing would go.
 */
function truncationEnd(messages: readonly Message[], start: number, keep: KeepRule): number {
  const rest = messages.length - start;
  const remove = keep === 'half' ? Math.floor(rest / 4) * 2 : Math.floor((rest * 3) / 4 / 2) * 2;
  let end = start + remove;
  while (end > start && end < messages.length && messages[end]!.role === 'tool') end--;
  if (end === start && remove > 0) {
    // One tool group fills the whole cut: drop it whole, unless it runs to the end.
    end = start + 1;
    while (end < messages.length && messages[end]!.role === 'tool') end++;
    if (end >= messages.length) end = start;
  }
  return end;
}

function layoutCline(
  messages: readonly Message[],
  config: CompressionConfig,
  tokens: MessageTokens,
  prepared: ClinePrepared,
): ClineLayout {
  const count = messages.length;
  const systemEnd = leadingSystemCount(messages);
  const pairEnd = firstPairEnd(messages, systemEnd);
  const fates = new Uint8Array(count);
  const base = {
    pairEnd,
    duplicates: [],
    savedChars: 0,
    totalChars: 0,
    keep: 'half' as KeepRule,
    dropEnd: pairEnd,
  };
  if (pairEnd >= count) return { ...base, mode: 'nothing', fates, headEnd: count, tailStart: count };
  if (optionValue(config, AUTO_COMPACT) >= 1) {
    fates.fill(FATE.summarized, pairEnd, count);
    return { ...base, mode: 'auto-compact', fates, headEnd: pairEnd, tailStart: count };
  }
  const duplicates = duplicateCopies(prepared, pairEnd);
  let savedChars = 0;
  for (const copy of duplicates) savedChars += copy.originalChars - CLINE_DUPLICATE_READ_NOTICE.length;
  let totalChars = 0;
  for (let index = systemEnd; index < count; index++) totalChars += prepared.chars[index]!;
  const keep: KeepRule = tokens.request / 2 > clineMaxAllowedSize(config.contextLength) ? 'quarter' : 'half';
  for (const copy of duplicates) fates[copy.index] = FATE.pruned;
  /** The first pruned message and one past the last ([count, count] when none is left). */
  const prunedSpan = (): [number, number] => {
    let first = count;
    let last = count - 1;
    let any = false;
    for (const copy of duplicates) {
      if (fates[copy.index] !== FATE.pruned) continue;
      first = Math.min(first, copy.index);
      last = any ? Math.max(last, copy.index) : copy.index;
      any = true;
    }
    return any ? [first, last + 1] : [count, count];
  };
  if (duplicates.length > 0 && totalChars > 0 && savedChars / totalChars >= DEDUPE_ENOUGH_SHARE) {
    const [first, last] = prunedSpan();
    return {
      ...base,
      mode: 'dedupe-only',
      duplicates,
      savedChars,
      totalChars,
      keep,
      fates,
      headEnd: first,
      tailStart: last,
    };
  }
  const dropEnd = truncationEnd(messages, pairEnd, keep);
  if (dropEnd <= pairEnd && duplicates.length === 0)
    return {
      ...base,
      mode: 'nothing',
      savedChars,
      totalChars,
      keep,
      fates,
      headEnd: count,
      tailStart: count,
    };
  fates.fill(FATE.dropped, pairEnd, dropEnd);
  const [, lastPruned] = prunedSpan();
  return {
    ...base,
    mode: 'truncate',
    duplicates,
    savedChars,
    totalChars,
    keep,
    dropEnd,
    fates,
    headEnd: pairEnd,
    tailStart: Math.max(dropEnd, lastPruned === count ? dropEnd : lastPruned),
  };
}

/** The message with its older file copy replaced by the notice (a read's result or a write's content). */
function withNotice(message: Message, copy: DuplicateCopy): Message {
  if (copy.access.kind === 'read') return { ...message, content: CLINE_DUPLICATE_READ_NOTICE };
  const calls = (message.tool_calls ?? []).map((call, position) => {
    if (position !== copy.access.callPosition || copy.access.contentKey === null) return call;
    const parsed = safeParseJson(call.function.arguments);
    if (!parsed.ok || !isPlainObject(parsed.value)) return call;
    const args = { ...parsed.value, [copy.access.contentKey]: CLINE_DUPLICATE_READ_NOTICE };
    return { ...call, function: { ...call.function, arguments: JSON.stringify(args) } };
  });
  return { ...message, tool_calls: calls };
}

function prunedOutputOf(copy: DuplicateCopy): PrunedToolOutput {
  return {
    index: copy.index,
    kind: 'duplicate',
    toolName: copy.access.toolName,
    originalChars: copy.originalChars,
    replacement: CLINE_DUPLICATE_READ_NOTICE,
  };
}

/** Tokens a notice saves, in the caller's counting: the share of the message's characters that goes. */
function noticeSavings(
  prepared: ClinePrepared,
  tokens: MessageTokens,
  copies: readonly DuplicateCopy[],
): Map<number, number> {
  const savedChars = new Map<number, number>();
  for (const copy of copies) {
    const saved = Math.max(0, copy.originalChars - CLINE_DUPLICATE_READ_NOTICE.length);
    savedChars.set(copy.index, (savedChars.get(copy.index) ?? 0) + saved);
  }
  const savings = new Map<number, number>();
  for (const [index, saved] of savedChars) {
    const chars = prepared.chars[index]!;
    savings.set(index, chars > 0 ? Math.round(tokens.of(index) * Math.min(1, saved / chars)) : 0);
  }
  return savings;
}

const olderCopies = (count: number): string =>
  `${formatCount(count)} older ${count === 1 ? 'copy' : 'copies'} of files read again`;

function summaryBudget(compactedTokens: number): number {
  return Math.max(
    SUMMARY_MIN_TOKENS,
    Math.min(SUMMARY_MAX_TOKENS, Math.round(compactedTokens * SUMMARY_SHARE)),
  );
}

function planCline(input: PlanInput): StrategyPlan {
  const { messages, config, state } = input;
  const tokens = tokensFor(input);
  const trigger = clineTrigger(config);
  const prepared = preparedOf(messages, input.prepared);
  const layout = layoutCline(messages, config, tokens, prepared);
  const count = messages.length;
  let reason: PlanReason = gateReason(config, state, trigger, tokens.request, input.nowMs);
  if (reason === 'ready' && layout.mode === 'nothing') reason = 'no-compressible-window';
  const kept = layout.duplicates.filter((copy) => layout.fates[copy.index] === FATE.pruned);
  const explanation: string[] = [];
  if (layout.mode === 'auto-compact') {
    explanation.push(
      `Auto Compact: keeps the system prompt and the first user/assistant exchange; the other ${formatCount(count - layout.pairEnd)} ` +
        'messages are replaced by a summary written by the same model.',
    );
  } else {
    const share = layout.totalChars > 0 ? layout.savedChars / layout.totalChars : 0;
    explanation.push(
      layout.duplicates.length === 0
        ? 'No file was read twice, so there are no older copies to replace with a duplicate-read notice.'
        : `Replaces ${olderCopies(layout.duplicates.length)} with a duplicate-read notice, ` +
            `saving ${percentText(share)} of the context's characters (Cline stops there at 30%).`,
    );
    const dropped = layout.dropEnd - layout.pairEnd;
    if (layout.mode === 'truncate' && dropped === 0) {
      explanation.push('That saves under 30%, but too few messages follow the first exchange to drop any.');
    } else if (layout.mode === 'truncate') {
      explanation.push(
        `Then keeps the first user/assistant exchange and drops the next ${formatCount(dropped)} of the ` +
          `${formatCount(count - layout.pairEnd)} messages after it (${layout.keep === 'half' ? 'half' : 'three quarters, since half would not bring the context under the limit'}), ` +
          'leaving a truncation notice in their place; nothing is summarised.',
      );
    }
  }
  explanation.push(`Fires at ${formatCount(trigger.thresholdTokens)} tokens: ${trigger.rule}.`);
  const summarised = layout.mode === 'auto-compact';
  return {
    trigger,
    triggerTokens: tokens.request,
    triggerBasis: tokens.exact ? 'exact' : 'estimate',
    wouldCompress: reason === 'ready',
    reason,
    headEnd: layout.headEnd,
    tailStart: layout.tailStart,
    fates: layout.fates,
    pruned: kept.map(prunedOutputOf),
    prunedSavings: noticeSavings(prepared, tokens, kept),
    summaries: summarised ? [{ start: layout.pairEnd, end: count, kind: 'middle' }] : [],
    reattached: [],
    summaryTokens: summarised ? summaryBudget(sumTokens(tokens, layout.pairEnd, count)) : 0,
    explanation,
    hermes: null,
  };
}

/** The truncation notice, quoting the latest request when it was among the dropped messages. */
function truncationNotice(messages: readonly Message[], start: number, end: number): Message {
  let latest = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (isUserAsk(messages[index]!)) {
      latest = index;
      break;
    }
  }
  if (latest < start || latest >= end) return { role: 'assistant', content: CLINE_TRUNCATION_NOTICE };
  const text = contentTextForContains(messages[latest]!.content);
  const quoted = text.length > QUOTED_ASK_MAX_CHARS ? `${text.slice(0, QUOTED_ASK_MAX_CHARS)}…` : text;
  return {
    role: 'assistant',
    content: `${CLINE_TRUNCATION_NOTICE}\nThe latest request, among the removed messages, was: "${quoted}"`,
  };
}

async function compactCline(input: CompactInput, deps: CompactDeps): Promise<StrategyCompaction> {
  const { messages, config } = input;
  const count = messages.length;
  const tokensBefore = roughTokensBefore(input);
  const tokens = tokensFor(input);
  const prepared = preparedOf(messages, input.prepared);
  const layout = layoutCline(messages, config, tokens, prepared);
  const base = {
    state: input.state,
    pruned: [] as PrunedToolOutput[],
    reattached: [],
    tokensBefore,
    warning: null,
    hermes: null,
  };
  if (layout.mode === 'nothing') {
    return nothingToCompact(
      input,
      'Nothing after the first user/assistant exchange can be removed.',
      tokensBefore,
    );
  }
  const notes: string[] = [];
  if (input.focusTopic) notes.push('Cline takes no focus topic for its context management; it was not used.');
  if (layout.mode === 'auto-compact') {
    const override = input.summaryOverrides?.[0];
    const written = await writeSummary(
      {
        turns: messages.slice(layout.pairEnd),
        preset: HOST_PRESET,
        textCache: input.summaryTextCache,
        instructions: INSTRUCTIONS,
        template: TEMPLATE,
        budgetTokens: summaryBudget(sumTokens(tokens, layout.pairEnd, count)),
        model: config.summaryModel || null,
        ...(override !== undefined ? { override } : {}),
      },
      deps,
    );
    const output = [
      ...messages.slice(0, layout.pairEnd),
      summaryMessage('user', `${CLINE_SUMMARY_OPENING}\n\n${written.body}`),
    ];
    notes.unshift(
      `Auto Compact: kept the first exchange and summarised the other ${formatCount(count - layout.pairEnd)} messages.`,
    );
    if (written.fallback)
      notes.push(`The summariser failed (${written.error}); a deterministic digest stands in.`);
    return {
      ...base,
      messages: output,
      state: createCompressorState({
        ...input.state,
        compressionCount: input.state.compressionCount + 1,
        previousSummary: written.body,
        lastSummaryError: written.error,
      }),
      skipped: null,
      notes,
      fates: layout.fates,
      summaries: [
        {
          body: written.body,
          outputIndex: output.length - 1,
          span: { start: layout.pairEnd, end: count, kind: 'middle' },
          prompt: written.prompt,
          fallback: written.fallback,
        },
      ],
      tokensAfter: estimateMessagesTokensRough(output, HOST_PRESET, input.sizeCache),
      summarizerCalls: written.calls,
    };
  }
  const byIndex = new Map<number, DuplicateCopy[]>();
  for (const copy of layout.duplicates) {
    if (layout.fates[copy.index] !== FATE.pruned) continue;
    byIndex.set(copy.index, [...(byIndex.get(copy.index) ?? []), copy]);
  }
  const rewritten = (index: number): Message =>
    (byIndex.get(index) ?? []).reduce((message, copy) => withNotice(message, copy), messages[index]!);
  const output: Message[] = [];
  for (let index = 0; index < count; index++) {
    if (layout.fates[index] === FATE.dropped) {
      if (index === layout.pairEnd) output.push(truncationNotice(messages, layout.pairEnd, layout.dropEnd));
      continue;
    }
    output.push(byIndex.has(index) ? rewritten(index) : messages[index]!);
  }
  const replaced = [...byIndex.values()].reduce((sum, copies) => sum + copies.length, 0);
  if (replaced > 0) notes.unshift(`Replaced ${olderCopies(replaced)} with a duplicate-read notice.`);
  notes.push(
    layout.mode === 'dedupe-only'
      ? `That saved ${percentText(layout.savedChars / layout.totalChars)} of the characters, at least 30%, so nothing was truncated.`
      : layout.dropEnd === layout.pairEnd
        ? 'Too few messages follow the first exchange to drop any.'
        : `Kept the first exchange and dropped the next ${formatCount(layout.dropEnd - layout.pairEnd)} messages (${layout.keep === 'half' ? 'half' : 'three quarters'} of the rest), leaving a truncation notice.`,
  );
  if (input.summaryOverrides?.length)
    notes.push('Cline writes no summary here, so the summary override was not used.');
  return {
    ...base,
    messages: output,
    state: createCompressorState({ ...input.state, compressionCount: input.state.compressionCount + 1 }),
    skipped: null,
    notes,
    fates: layout.fates,
    pruned: layout.duplicates.filter((copy) => layout.fates[copy.index] === FATE.pruned).map(prunedOutputOf),
    summaries: [],
    tokensAfter: estimateMessagesTokensRough(output, HOST_PRESET, input.sizeCache),
    summarizerCalls: 0,
  };
}

export const CLINE_STRATEGY: Strategy = {
  ...CLINE_PROFILE,
  ...liveLoopHooks(HOST_PRESET),
  trigger: clineTrigger,
  prepare: (messages, _tools, shared) => withSharedCaches(prepareCline(messages), HOST_PRESET, shared),
  plan: planCline,
  compact: compactCline,
};
