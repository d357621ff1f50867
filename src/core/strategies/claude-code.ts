/**
 * Claude Code's auto-compact (facts as of 2026-10 in peers.md §2.3 and ROUND2 §1): fire at the
 * effective window (window − min(max output, 20,000)) minus a 13,000-token buffer; summarise
 * the whole conversation with a nine-section template written after an analysis pass; insert
 * the summary as a user message behind a continuation note; then re-attach up to five of the
 * files read or edited last (a file over 5,000 tokens comes back as its path only). Only the
 * system prompt is kept verbatim.
 */
import { liveLoopHooks } from './live-loop-hooks.ts';
import {
  CLAUDE_CODE_PROFILE,
  AUTOCOMPACT_BUFFER,
  FILE_TOKENS,
  MAX_FILES,
  PERCENT_OVERRIDE,
} from './claude-code-profile.ts';
import { createCompressorState } from '../compression/compressor-state.ts';
import type { SummaryTemplate } from '../compression/summary-template.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import { estimateMessagesTokensRough } from '../tokens/estimate-messages-tokens-rough.ts';
import { withSharedCaches } from './shared-message-caches.ts';
import type { Message } from '../transcript/message.ts';
import { firstMessageSent, templatePromptTokens, trimmedText } from './trim-request-to-window.ts';
import { fileCopyText, findFileAccesses, type FileAccess } from './find-file-accesses.ts';
import {
  FATE,
  optionValue,
  type CompactDeps,
  type CompactInput,
  type MessageTokens,
  type PlanInput,
  type ReattachedFile,
  type Strategy,
  type StrategyCompaction,
  type StrategyPlan,
  type StrategyTrigger,
} from './strategy.ts';
import {
  gateReason,
  HOST_PRESET,
  leadingSystemCount,
  nothingToCompact,
  roughTokensBefore,
  summaryMessage,
  sumTokens,
  tokensFor,
} from './strategy-kit.ts';
import { writeSummary } from './write-summary.ts';

/**
 * Claude Code's default output cap (`CLAUDE_CODE_MAX_OUTPUT_TOKENS`, 32,000 in its docs) when
 * the lab's max-tokens setting is empty. Any cap of 20,000 or more reserves the same 20,000.
 */
export const CLAUDE_CODE_DEFAULT_MAX_OUTPUT = 32_000;
/** Claude Code never reserves more than this for the reply. */
const MAX_OUTPUT_RESERVATION = 20_000;
/** Claude Code sizes files with its rough estimate: about four characters per token. */
const CHARS_PER_TOKEN = 4;
/** Claude Code asks for no particular size; the lab targets a tenth of what is compacted, within bounds. */
const SUMMARY_SHARE = 0.1;
const SUMMARY_MIN_TOKENS = 2000;
const SUMMARY_MAX_TOKENS = 10_000;

/** Opens the summary message, as Claude Code's continuation message does, in our own words. */
export const CLAUDE_CODE_CONTINUATION =
  'This session picks up an earlier conversation that ran out of context. What happened before is summarised below.';
/** Closes it: carry on with the work rather than asking the user again. */
const CONTINUATION_CLOSING =
  'Carry on from where the conversation stopped, with the task you were last working on, without asking the user to repeat anything.';
/** Opens each re-attached file. */
export const REATTACHED_FILE_OPENING = 'Re-read after compaction:';

const INSTRUCTIONS =
  'Write a detailed summary of the conversation below so that work on it can continue without it. Pay close ' +
  'attention to what the user asked for, every request and correction they made, and the technical detail ' +
  'needed to continue: file names, code, commands and errors. Before the summary, think it through in an ' +
  '<analysis> block: go through the conversation in order and note, for each part, the requests, your approach, ' +
  'the decisions, the code and files involved and the errors with how they were fixed. Then write the summary ' +
  'inside <summary> tags with exactly the sections below.';

const TEMPLATE: SummaryTemplate = {
  sections: [
    {
      heading: '## 1. Primary Request and Intent',
      content: 'goal',
      guidance: 'Everything the user asked for, in detail, and what they are ultimately after.',
    },
    {
      heading: '## 2. Key Technical Concepts',
      content: 'concepts',
      guidance: 'Technologies, frameworks, tools and ideas that came up.',
    },
    {
      heading: '## 3. Files and Code Sections',
      content: 'files',
      guidance:
        'Files read, changed or created; why each matters and the important code, quoted where it helps.',
    },
    {
      heading: '## 4. Errors and fixes',
      content: 'errors',
      guidance: 'Each error met and how it was fixed, including what the user said about it.',
    },
    {
      heading: '## 5. Problem Solving',
      content: 'progress',
      guidance: 'Problems solved so far and troubleshooting still under way.',
    },
    {
      heading: '## 6. All user messages',
      content: 'user-messages',
      guidance: 'Every message the user wrote that is not a tool result, in order.',
    },
    {
      heading: '## 7. Pending Tasks',
      content: 'pending',
      guidance: 'Tasks the user asked for that are not finished.',
    },
    {
      heading: '## 8. Current Work',
      content: 'current-work',
      guidance: 'Exactly what was being worked on just before this summary, with file names and code.',
    },
    {
      heading: '## 9. Optional Next Step',
      content: 'next-step',
      guidance: 'The next step, only if it follows directly from the latest request; quote that request.',
    },
  ],
};

const roughFileTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/**
 * Where Claude Code's compaction request starts. It sends the conversation with its tools and
 * the summary prompt; when the API answers "prompt is too long", Claude Code drops the oldest
 * API rounds (an assistant turn with its tool results and the user messages after it), enough
 * to cover the gap the error names, and retries. So a cut lands on an assistant message.
 */
let promptTokens: number | null = null;
function claudeCodeRequestStart(
  messages: readonly Message[],
  headEnd: number,
  tokens: MessageTokens,
  windowTokens: number,
): number {
  promptTokens ??= templatePromptTokens(INSTRUCTIONS, TEMPLATE, SUMMARY_MAX_TOKENS);
  return firstMessageSent(messages, headEnd, tokens, {
    requestTokens: tokens.request + promptTokens,
    windowTokens,
    canStartAt: (message) => message.role === 'assistant',
  });
}

const claudeCodeTrimmedText = (trimmed: number, trimmedTokens: number, windowTokens: number): string =>
  trimmedText('Claude Code', 'drops, in whole API rounds,', trimmed, trimmedTokens, windowTokens);

/** Claude Code's output reservation: the max output cap, at most 20,000. */
function outputReservation(config: CompressionConfig): number {
  return Math.min(config.maxTokens ?? CLAUDE_CODE_DEFAULT_MAX_OUTPUT, MAX_OUTPUT_RESERVATION);
}

function claudeCodeTrigger(config: CompressionConfig): StrategyTrigger {
  const window = config.contextLength;
  const reservation = outputReservation(config);
  const effective = Math.max(0, window - reservation);
  const buffer = optionValue(config, AUTOCOMPACT_BUFFER);
  const byBuffer = Math.max(0, effective - buffer);
  const percent = optionValue(config, PERCENT_OVERRIDE);
  const byPercent = Math.floor(effective * (percent / 100));
  const rule =
    `the effective window (${formatCount(window)} − ${formatCount(reservation)} reserved for output = ` +
    `${formatCount(effective)}) minus the ${formatCount(buffer)}-token autocompact buffer`;
  return byPercent < byBuffer
    ? {
        thresholdTokens: byPercent,
        rule: `${percent}% of the effective window (${formatCount(effective)}), the override being lower than ${rule}`,
      }
    : { thresholdTokens: byBuffer, rule };
}

interface ClaudeCodePrepared {
  readonly accesses: readonly FileAccess[];
}

const prepareClaudeCode = (messages: readonly Message[]): ClaudeCodePrepared => ({
  accesses: findFileAccesses(messages),
});

const preparedOf = (messages: readonly Message[], prepared: unknown): ClaudeCodePrepared =>
  prepared && typeof prepared === 'object' && 'accesses' in prepared
    ? (prepared as ClaudeCodePrepared)
    : prepareClaudeCode(messages);

interface FileChoice {
  readonly file: ReattachedFile;
  /** The text re-attached (null for a path-only file). */
  readonly text: string | null;
  /** The file was edited after the copy that comes back. */
  readonly editedAfter: boolean;
}

/**
 * The files Claude Code brings back: distinct paths, most recent access first, up to
 * `maxFiles`; each with its latest whole copy (the last read result or the last write's
 * content) when that fits `fileTokens`, else by path only. Linear in the accesses.
 */
function chooseFiles(
  messages: readonly Message[],
  accesses: readonly FileAccess[],
  maxFiles: number,
  fileTokens: number,
): FileChoice[] {
  interface Pending {
    readonly path: string;
    readonly latest: FileAccess;
    copy: FileAccess | null;
    editedAfter: boolean;
  }
  const chosen = new Map<string, Pending>();
  let open = 0;
  for (let index = accesses.length - 1; index >= 0; index--) {
    const access = accesses[index]!;
    let entry = chosen.get(access.path);
    if (entry === undefined) {
      if (chosen.size >= maxFiles) continue;
      entry = { path: access.path, latest: access, copy: null, editedAfter: false };
      chosen.set(access.path, entry);
      open++;
    }
    if (entry.copy !== null) continue;
    if (fileCopyText(messages, access) !== null) {
      entry.copy = access;
      open--;
    } else if (access.kind === 'edit') entry.editedAfter = true;
    if (open === 0 && chosen.size >= maxFiles) break;
  }
  return [...chosen.values()].map((entry) => {
    const text = entry.copy ? fileCopyText(messages, entry.copy) : null;
    const tokens = text === null ? 0 : roughFileTokens(text);
    const fits = text !== null && tokens <= fileTokens;
    const sourceIndex = entry.copy
      ? entry.copy.kind === 'read'
        ? entry.copy.resultIndex
        : entry.copy.callIndex
      : entry.latest.callIndex;
    return {
      file: { path: entry.path, sourceIndex, tokens, mode: fits ? 'content' : 'path-only' },
      text: fits ? text : null,
      editedAfter: entry.copy !== null && entry.editedAfter,
    };
  });
}

function reattachedMessage(choice: FileChoice, fileTokens: number): Message {
  const { file } = choice;
  if (choice.text === null) {
    const why =
      file.tokens > 0
        ? `about ${formatCount(file.tokens)} tokens, over the ${formatCount(fileTokens)}-token limit per file`
        : 'no whole copy of it is in the conversation';
    return summaryMessage(
      'user',
      `${REATTACHED_FILE_OPENING} ${file.path}\n[Not re-attached: ${why}. Read it again if you need it.]`,
    );
  }
  const stale = choice.editedAfter
    ? '\n[This is the last whole copy in the conversation; the file was edited after it (see the summary).]'
    : '';
  return summaryMessage('user', `${REATTACHED_FILE_OPENING} ${file.path}${stale}\n${choice.text}`);
}

function summaryBudget(compactedTokens: number): number {
  return Math.max(
    SUMMARY_MIN_TOKENS,
    Math.min(SUMMARY_MAX_TOKENS, Math.round(compactedTokens * SUMMARY_SHARE)),
  );
}

/** Claude Code keeps only what is inside `<summary>`; the `<analysis>` scratchpad is dropped. */
function formatSummaryBody(text: string): string {
  const withoutAnalysis = text.replace(/<analysis>[\s\S]*?(?:<\/analysis>|$)/gi, '');
  const inner = /<summary>([\s\S]*?)(?:<\/summary>|$)/i.exec(withoutAnalysis);
  const body = (inner ? inner[1]! : withoutAnalysis).trim();
  return body === '' ? text.trim() : body;
}

function planClaudeCode(input: PlanInput): StrategyPlan {
  const { messages, config, state } = input;
  const tokens = tokensFor(input);
  const trigger = claudeCodeTrigger(config);
  const headEnd = leadingSystemCount(messages);
  const count = messages.length;
  const sentStart = claudeCodeRequestStart(messages, headEnd, tokens, config.contextLength);
  const fates = new Uint8Array(count);
  fates.fill(FATE.dropped, headEnd, sentStart);
  fates.fill(FATE.summarized, sentStart, count);
  const maxFiles = optionValue(config, MAX_FILES);
  const fileTokens = optionValue(config, FILE_TOKENS);
  const files =
    headEnd < count
      ? chooseFiles(messages, preparedOf(messages, input.prepared).accesses, maxFiles, fileTokens)
      : [];
  let reason = gateReason(config, state, trigger, tokens.request, input.nowMs);
  if (reason === 'ready' && headEnd >= count) reason = 'no-compressible-window';
  const summarised = sumTokens(tokens, sentStart, count);
  const trimmed = sentStart - headEnd;
  const withContent = files.filter((choice) => choice.text !== null).length;
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
    prunedSavings: new Map(),
    summaries: headEnd < count ? [{ start: sentStart, end: count, kind: 'middle' }] : [],
    reattached: files.map((choice) => choice.file),
    summaryTokens: headEnd < count ? summaryBudget(summarised) : 0,
    explanation: [
      `Keeps only the system prompt: ${trimmed > 0 ? 'the' : 'all'} ${formatCount(count - sentStart)} messages (${formatCount(summarised)} tokens) ` +
        'go into one nine-section summary, inserted as a user message behind a continuation note.',
      ...(trimmed > 0
        ? [claudeCodeTrimmedText(trimmed, sumTokens(tokens, headEnd, sentStart), config.contextLength)]
        : []),
      files.length === 0
        ? 'No file was read or written in the conversation, so nothing is re-attached after the summary.'
        : `Then re-attaches the ${formatCount(files.length)} most recently read or edited ${files.length === 1 ? 'file' : 'files'}` +
          ` (up to ${formatCount(maxFiles)}): ${formatCount(withContent)} with ${withContent === 1 ? 'its' : 'their'} content, ` +
          `${formatCount(files.length - withContent)} by path only (over ${formatCount(fileTokens)} tokens or no whole copy).`,
      `Auto-compact fires at ${formatCount(trigger.thresholdTokens)} tokens: ${trigger.rule}.`,
    ],
    hermes: null,
  };
}

async function compactClaudeCode(input: CompactInput, deps: CompactDeps): Promise<StrategyCompaction> {
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
  const sentStart = claudeCodeRequestStart(messages, headEnd, tokens, config.contextLength);
  fates.fill(FATE.dropped, headEnd, sentStart);
  fates.fill(FATE.summarized, sentStart, count);
  const fileTokens = optionValue(config, FILE_TOKENS);
  const files = chooseFiles(
    messages,
    preparedOf(messages, input.prepared).accesses,
    optionValue(config, MAX_FILES),
    fileTokens,
  );
  const override = input.summaryOverrides?.[0];
  const written = await writeSummary(
    {
      turns: messages.slice(sentStart),
      preset: HOST_PRESET,
      textCache: input.summaryTextCache,
      instructions: INSTRUCTIONS,
      template: TEMPLATE,
      budgetTokens: summaryBudget(sumTokens(tokens, sentStart, count)),
      // `/compact <instructions>` reaches Claude Code's prompt the way a focus topic reaches ours.
      focusTopic: input.focusTopic ?? null,
      model: config.summaryModel || null,
      ...(override !== undefined ? { override } : {}),
    },
    deps,
  );
  const body = override !== undefined || written.fallback ? written.body : formatSummaryBody(written.body);
  const output: Message[] = [
    ...messages.slice(0, headEnd),
    summaryMessage('user', `${CLAUDE_CODE_CONTINUATION}\n\n${body}\n\n${CONTINUATION_CLOSING}`),
    ...files.map((choice) => reattachedMessage(choice, fileTokens)),
  ];
  const withContent = files.filter((choice) => choice.text !== null).length;
  const notes = [
    sentStart === headEnd
      ? `Summarised all ${formatCount(count - headEnd)} messages after the system prompt into one summary.`
      : `Summarised the last ${formatCount(count - sentStart)} messages into one summary.`,
    files.length === 0
      ? 'No file was read or written, so none was re-attached.'
      : `Re-attached ${formatCount(files.length)} recent ${files.length === 1 ? 'file' : 'files'} after it: ` +
        `${formatCount(withContent)} with content, ${formatCount(files.length - withContent)} by path only.`,
  ];
  if (sentStart > headEnd)
    notes.push(
      claudeCodeTrimmedText(sentStart - headEnd, sumTokens(tokens, headEnd, sentStart), config.contextLength),
    );
  if (input.focusTopic)
    notes.push(`The summary was asked to focus on "${input.focusTopic}" (/compact instructions).`);
  if (written.fallback)
    notes.push(`The summariser failed (${written.error}); a deterministic digest stands in.`);
  return {
    messages: output,
    state: createCompressorState({
      ...input.state,
      compressionCount: input.state.compressionCount + 1,
      previousSummary: body,
      lastSummaryError: written.error,
    }),
    skipped: null,
    notes,
    fates,
    pruned: [],
    summaries: [
      {
        body,
        outputIndex: headEnd,
        span: { start: sentStart, end: count, kind: 'middle' },
        prompt: written.prompt,
        fallback: written.fallback,
      },
    ],
    reattached: files.map((choice) => choice.file),
    tokensBefore,
    tokensAfter: estimateMessagesTokensRough(output, HOST_PRESET, input.sizeCache),
    summarizerCalls: written.calls,
    warning: null,
    hermes: null,
  };
}

export const CLAUDE_CODE_STRATEGY: Strategy = {
  ...CLAUDE_CODE_PROFILE,
  ...liveLoopHooks(HOST_PRESET),
  trigger: claudeCodeTrigger,
  prepare: (messages, _tools, shared) => withSharedCaches(prepareClaudeCode(messages), HOST_PRESET, shared),
  plan: planClaudeCode,
  compact: compactClaudeCode,
};
