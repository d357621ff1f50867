/**
 * Lossless Context Management as lossless-claw (OpenClaw) and hermes-lcm implement it (facts as
 * of 2026-10 in peers.md §2.8): every message stays stored, and the context is assembled as
 * `[system][summaries…][fresh tail]`. A sweep fires at 75% of the window; the fresh tail (the
 * last 64 messages or 24,000 tokens, whichever keeps less) stays raw; the history outside it is
 * cut into leaf chunks of up to 20,000 tokens, each summarised once (a leaf, depth 0); and when
 * eight depth-0 summaries stand in a row, the condensed pass turns them into one depth-1 summary.
 *
 * Summaries this strategy wrote earlier are recognised by their wrapper and stay nodes of the
 * DAG: only raw messages are cut into new leaves, and earlier leaves join the condensed pass.
 */
import { liveLoopHooks } from './live-loop-hooks.ts';
import {
  LCM_PROFILE,
  CONTEXT_THRESHOLD,
  FRESH_TAIL_COUNT,
  FRESH_TAIL_TOKENS,
  LEAF_CHUNK_TOKENS,
  LEAF_MIN_FANOUT,
  LEAF_TARGET_TOKENS,
  SWEEP_MAX_DEPTH,
} from './lcm-profile.ts';
import { createCompressorState } from '../compression/compressor-state.ts';
import { pythonStrip } from '../compression/python-text.ts';
import type { SummaryTemplate } from '../compression/summary-template.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import { estimateMessagesTokensRough } from '../tokens/estimate-messages-tokens-rough.ts';
import { withSharedCaches } from './shared-message-caches.ts';
import type { Message } from '../transcript/message.ts';
import {
  optionValue,
  type CompactDeps,
  type CompactInput,
  type CompactionSummary,
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
  nothingToCompact,
  percentText,
  roughTokensBefore,
  summaryMessage,
  tokensFor,
} from './strategy-kit.ts';
import {
  CONDENSED_TARGET_TOKENS,
  layoutLcm,
  leafBudget,
  prepareLcm,
  type LcmLayout,
  type LcmPrepared,
  type LcmSettings,
  type PrefixNode,
} from './lcm-layout.ts';
import { formatLcmSummary, parseLcmSummary } from './lcm-summary-wrapper.ts';
import { writeSummary, type WrittenSummary } from './write-summary.ts';
import { plural } from '../shared/plural.ts';

/** About what the wrapper's attributes and footer add to each summary. */
const WRAPPER_TOKENS = 60;

const LEAF_INSTRUCTIONS =
  'You are writing one leaf summary for the lossless memory of an agent session. The chunk of messages below ' +
  'stays stored word for word; your summary takes its place in the context and must tell the agent what ' +
  'happened in it and what it could look up there. Write a dense account in order. Keep timestamps, ids, file ' +
  'paths, commands, exact values, and every decision with its reason. Add nothing that is not in the chunk.';

const CONDENSED_INSTRUCTIONS =
  'You are condensing several leaf summaries of one agent session into a single depth-1 summary for its ' +
  'lossless memory; the leaf summaries and the messages beneath them stay stored. PREVIOUS SUMMARY holds the ' +
  'leaf summaries merged section by section, oldest first; NEW TURNS TO INCORPORATE holds the requests the ' +
  'user made in the same span, word for word. Keep the arc of the work, the decisions and their reasons, and ' +
  'every path, id and value likely to matter later; leave out step-by-step detail. Add nothing that is not there.';

/** Shared by both depths, so a condensed summary can build on its leaves section by section. */
const HEADINGS = {
  requests: '## Requests',
  happened: '## What happened',
  decisions: '## Decisions',
  files: '## Files and identifiers',
  commands: '## Commands',
  errors: '## Errors',
  open: '## Still open',
} as const;

const LEAF_TEMPLATE: SummaryTemplate = {
  sections: [
    {
      heading: HEADINGS.requests,
      content: 'user-messages',
      guidance: 'Every request the user made in this chunk, quoted, with its time when given.',
    },
    {
      heading: HEADINGS.happened,
      content: 'progress',
      guidance: 'Each step the agent took and what came of it, in order, with timestamps, ids and paths.',
    },
    { heading: HEADINGS.decisions, content: 'decisions', guidance: 'Each choice made, and why.' },
    {
      heading: HEADINGS.files,
      content: 'files',
      guidance: 'File paths, functions, ids and other names, exactly as written.',
    },
    { heading: HEADINGS.commands, content: 'commands', guidance: 'Commands run, exactly as written.' },
    { heading: HEADINGS.errors, content: 'errors', guidance: 'Errors met and what was done about them.' },
    {
      heading: HEADINGS.open,
      content: 'pending',
      guidance: 'What was still open or being asked for when the chunk ends.',
    },
  ],
};

const CONDENSED_TEMPLATE: SummaryTemplate = {
  sections: [
    {
      heading: HEADINGS.requests,
      content: 'user-messages',
      guidance: 'Every request in the span, quoted, oldest first.',
    },
    {
      heading: HEADINGS.happened,
      content: 'progress',
      guidance: 'The arc of the work across the span, in order: milestones rather than every step.',
    },
    { heading: HEADINGS.decisions, content: 'decisions', guidance: 'The choices that still hold, and why.' },
    {
      heading: HEADINGS.files,
      content: 'files',
      guidance: 'Paths, functions and ids that are likely to matter again.',
    },
    {
      heading: HEADINGS.commands,
      content: 'commands',
      guidance: 'Commands that matter for what comes next.',
    },
    { heading: HEADINGS.errors, content: 'errors', guidance: 'Errors met, and whether they were fixed.' },
    { heading: HEADINGS.open, content: 'pending', guidance: 'What was still open at the end of the span.' },
  ],
};

function readSettings(config: CompressionConfig): LcmSettings {
  return {
    thresholdShare: optionValue(config, CONTEXT_THRESHOLD) / 100,
    tailCount: Math.max(1, Math.trunc(optionValue(config, FRESH_TAIL_COUNT))),
    tailTokens: Math.max(0, optionValue(config, FRESH_TAIL_TOKENS)),
    chunkTokens: Math.max(1, optionValue(config, LEAF_CHUNK_TOKENS)),
    leafTarget: Math.max(1, optionValue(config, LEAF_TARGET_TOKENS)),
    condense: optionValue(config, SWEEP_MAX_DEPTH) >= 1,
    fanout: Math.max(2, Math.trunc(optionValue(config, LEAF_MIN_FANOUT))),
  };
}

function lcmTrigger(config: CompressionConfig): StrategyTrigger {
  const share = readSettings(config).thresholdShare;
  const window = config.contextLength;
  return {
    thresholdTokens: Math.trunc(window * share),
    rule: `contextThreshold ${percentText(share)} of the ${formatCount(window)}-token window`,
  };
}

const preparedOf = (input: PlanInput | CompactInput): LcmPrepared => {
  const prepared = input.prepared as Partial<LcmPrepared> | null | undefined;
  return prepared?.depth instanceof Int8Array &&
    prepared.depth.length === input.messages.length &&
    prepared.asks instanceof Uint8Array
    ? (prepared as LcmPrepared)
    : prepareLcm(input.messages);
};

function explain(layout: LcmLayout, settings: LcmSettings, count: number): string[] {
  const tailMessages = count - layout.tailStart;
  const condensed = layout.summaries.filter((summary) => summary.kind === 'condensed').length;
  const tailLimit =
    tailMessages >= settings.tailCount
      ? `the ${formatCount(settings.tailCount)}-message limit`
      : layout.tailOverCap
        ? `the newest message and its tool group, kept even over the ${formatCount(settings.tailTokens)}-token cap`
        : `the ${formatCount(settings.tailTokens)}-token cap kept fewer than ${formatCount(settings.tailCount)} messages`;
  const lines = [
    'Lossless: LCM keeps every message stored and only assembles what the model sees, as [system][summaries…][fresh tail]; the lab never changes the transcript.',
    `Fresh tail: the last ${plural(tailMessages, 'message', 'messages')} (${formatCount(layout.tailTokens)} tokens) stay raw — ${tailLimit}, aligned to whole tool groups.`,
  ];
  const existing =
    layout.existingKept > 0
      ? ` ${plural(layout.existingKept, 'earlier summary stays', 'earlier summaries stay')} as it is.`
      : '';
  lines.push(
    layout.leafCount > 0
      ? `Outside it, ${plural(layout.rawPrefixMessages, 'message', 'messages')} (${formatCount(layout.rawPrefixTokens)} tokens) are cut into ${plural(layout.leafCount, 'leaf chunk', 'leaf chunks')} of up to ${formatCount(settings.chunkTokens)} tokens (a tool group is never split), each becoming one leaf summary of up to ${formatCount(settings.leafTarget)} tokens.${existing}`
      : `No raw messages lie outside the fresh tail, so there are no leaf chunks to summarise.${existing}`,
  );
  lines.push(
    !settings.condense
      ? 'sweepMaxDepth is 0: only the leaf pass runs.'
      : condensed > 0
        ? `Condensed pass: ${plural(condensed, 'run', 'runs')} of ${formatCount(settings.fanout)} depth-0 summaries ${condensed === 1 ? 'becomes one depth-1 summary' : 'become depth-1 summaries'} of about ${formatCount(CONDENSED_TARGET_TOKENS)} tokens.`
        : `Fewer than ${formatCount(settings.fanout)} depth-0 summaries stand in a row, so no condensed pass runs.`,
  );
  return lines;
}

function planLcm(input: PlanInput): StrategyPlan {
  const { messages, config, state } = input;
  const tokens = tokensFor(input);
  const settings = readSettings(config);
  const trigger = lcmTrigger(config);
  const layout = layoutLcm(messages, tokens, settings, preparedOf(input));
  let reason: PlanReason = gateReason(config, state, trigger, tokens.request, input.nowMs);
  if (reason === 'ready' && layout.summaries.length === 0) reason = 'no-compressible-window';
  return {
    trigger,
    triggerTokens: tokens.request,
    triggerBasis: tokens.exact ? 'exact' : 'estimate',
    wouldCompress: reason === 'ready',
    reason,
    headEnd: layout.headEnd,
    tailStart: layout.tailStart,
    fates: layout.fates,
    pruned: [],
    prunedSavings: new Map(),
    summaries: layout.summaries.map((summary) => summary.span),
    reattached: [],
    summaryTokens: layout.summaries.reduce((sum, summary) => sum + summary.budget + WRAPPER_TOKENS, 0),
    explanation: explain(layout, settings, messages.length),
    hermes: null,
  };
}

/** What a summary's span holds, from one walk: the user's requests, the turns, the tools called. */
interface SpanContents {
  readonly asks: readonly Message[];
  readonly replies: number;
  readonly results: number;
  /** Calls per tool name, in the order first called. */
  readonly toolCalls: ReadonlyMap<string, number>;
}

function spanContents(
  messages: readonly Message[],
  prepared: LcmPrepared,
  start: number,
  end: number,
): SpanContents {
  const asks: Message[] = [];
  let replies = 0;
  let results = 0;
  const toolCalls = new Map<string, number>();
  for (let index = start; index < end; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') results++;
    else if (message.role === 'assistant') replies++;
    else if (prepared.asks[index] === 1) asks.push(message);
    const calls = message.tool_calls ?? [];
    for (let k = 0; k < calls.length; k++) {
      const name = calls[k]!.function?.name || 'tool';
      toolCalls.set(name, (toolCalls.get(name) ?? 0) + 1);
    }
  }
  return { asks, replies, results, toolCalls };
}

/** "terminal ×3, read_file ×2": the tools called in a span, most used first. */
const toolCallCounts = (toolCalls: ReadonlyMap<string, number>): string =>
  [...toolCalls]
    .sort((left, right) => right[1] - left[1])
    .map(([name, times]) => `${name} ×${times}`)
    .join(', ');

/** "the exact text of messages #a–#b: …": what expanding a summary's span gives back. */
function leafFooter(
  start: number,
  end: number,
  { asks: userAsks, replies, results, toolCalls }: SpanContents,
): string {
  const asks = userAsks.length;
  const tools = toolCallCounts(toolCalls);
  const parts = [
    asks > 0 ? plural(asks, 'user request', 'user requests') : null,
    replies > 0 ? plural(replies, 'assistant turn', 'assistant turns') : null,
    results > 0 ? `${plural(results, 'tool result', 'tool results')}${tools ? ` (${tools})` : ''}` : null,
  ].filter((part): part is string => part !== null);
  return `the exact text of messages #${start}–#${end - 1}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}.`;
}

const timestampOf = (message: Message | undefined): string | null =>
  typeof message?.timestamp === 'string' ? message.timestamp : null;

/**
 * Sections of several summaries joined under their headings, oldest first (text before any
 * heading leads); a line said the same way twice is kept once; blank and "None." lines and
 * empty sections are left out.
 */
function mergeSections(bodies: readonly string[]): string {
  const order: string[] = [];
  const lines = new Map<string, string[]>();
  const seen = new Map<string, Set<string>>();
  for (const body of bodies) {
    for (const block of body.split(/^(?=## )/m)) {
      const newline = block.indexOf('\n');
      const isSection = block.startsWith('## ');
      const heading = isSection ? pythonStrip(newline < 0 ? block : block.slice(0, newline)) : '';
      const text = pythonStrip(isSection ? (newline < 0 ? '' : block.slice(newline + 1)) : block);
      if (!lines.has(heading)) {
        lines.set(heading, []);
        seen.set(heading, new Set());
        order.push(heading);
      }
      for (const line of text.split('\n')) {
        const bare = pythonStrip(line);
        if (!bare || bare === 'None.' || bare === 'None recorded.' || seen.get(heading)!.has(line)) continue;
        seen.get(heading)!.add(line);
        lines.get(heading)!.push(line);
      }
    }
  }
  return order
    .filter((heading) => lines.get(heading)!.length > 0)
    .map((heading) => {
      const text = lines.get(heading)!.join('\n');
      return heading ? `${heading}\n${text}` : text;
    })
    .join('\n\n');
}

async function compactLcm(input: CompactInput, deps: CompactDeps): Promise<StrategyCompaction> {
  const { messages, config } = input;
  const count = messages.length;
  const tokensBefore = roughTokensBefore(input);
  const tokens = tokensFor(input);
  const settings = readSettings(config);
  const prepared = preparedOf(input);
  const layout = layoutLcm(messages, tokens, settings, prepared);
  const base = { pruned: [], reattached: [], tokensBefore, warning: null, hermes: null } as const;
  if (layout.summaries.length === 0) {
    return nothingToCompact(
      input,
      'Every raw message is in the fresh tail and no condensed pass is due: there is nothing to summarise.',
      tokensBefore,
    );
  }

  // Ids stay unique across compactions of the same conversation: c<compaction>-leaf-<n>.
  let compaction = input.state.compressionCount + 1;
  for (const node of layout.nodes) {
    if (node.type !== 'existing') continue;
    const match = /^c(\d+)-/.exec(parseLcmSummary(messages[node.index]!)?.id ?? '');
    if (match) compaction = Math.max(compaction, Number(match[1]) + 1);
  }
  let leafNumber = 0;
  let condensedNumber = 0;
  let calls = 0;
  const model = config.summaryModel || null;

  const writeLeaf = async (start: number, end: number, chunkTokens: number): Promise<WrittenSummary> => {
    const written = await writeSummary(
      {
        turns: messages.slice(start, end),
        preset: HOST_PRESET,
        textCache: input.summaryTextCache,
        instructions: LEAF_INSTRUCTIONS,
        template: LEAF_TEMPLATE,
        budgetTokens: leafBudget(chunkTokens, settings),
        model,
      },
      deps,
    );
    calls += written.calls;
    return written;
  };

  const output: Message[] = messages.slice(0, layout.headEnd);
  const inserted: CompactionSummary[] = [];
  const summaryAt = new Map<number, (typeof layout.summaries)[number]>();
  for (const summary of layout.summaries) summaryAt.set(summary.first, summary);
  let position = 0;
  let overrideIndex = 0;
  let firstError: string | null = null;
  while (position < layout.nodes.length) {
    const node = layout.nodes[position]!;
    const summary = summaryAt.get(position);
    if (!summary) {
      // An earlier summary that is not condensed now stays exactly as it was.
      if (node.type === 'existing') output.push(messages[node.index]!);
      position++;
      continue;
    }
    const override = input.summaryOverrides?.[overrideIndex++];
    const { start, end } = summary.span;
    const contents = spanContents(messages, prepared, start, end);
    let body: string;
    let prompt: string | null;
    let fallback = false;
    let error: string | null = null;
    let id: string;
    let descendants = 0;
    if (summary.kind === 'leaf') {
      const leaf = node as Extract<PrefixNode, { type: 'leaf' }>;
      id = `c${compaction}-leaf-${++leafNumber}`;
      if (override !== undefined) {
        body = pythonStrip(override);
        prompt = null;
      } else {
        const written = await writeLeaf(leaf.start, leaf.end, leaf.tokens);
        ({ body, prompt, fallback, error } = written);
      }
    } else {
      id = `c${compaction}-condensed-${++condensedNumber}`;
      descendants = summary.end - summary.first;
      if (override !== undefined) {
        body = pythonStrip(override);
        prompt = null;
      } else {
        // The leaves first (one call each), then one call condenses them.
        const memberBodies: string[] = [];
        for (let member = summary.first; member < summary.end; member++) {
          const memberNode = layout.nodes[member]!;
          if (memberNode.type === 'existing') {
            memberBodies.push(parseLcmSummary(messages[memberNode.index]!)?.body ?? '');
            continue;
          }
          const written = await writeLeaf(memberNode.start, memberNode.end, memberNode.tokens);
          fallback ||= written.fallback;
          error ??= written.error;
          memberBodies.push(written.body);
        }
        const written = await writeSummary(
          {
            turns: contents.asks,
            preset: HOST_PRESET,
            textCache: input.summaryTextCache,
            instructions: CONDENSED_INSTRUCTIONS,
            template: CONDENSED_TEMPLATE,
            budgetTokens: summary.budget,
            previousSummary: mergeSections(memberBodies) || 'None.',
            model,
          },
          deps,
        );
        calls += written.calls;
        body = written.body;
        prompt = written.prompt;
        fallback ||= written.fallback;
        error ??= written.error;
      }
    }
    const text = formatLcmSummary({
      id,
      kind: summary.kind,
      depth: summary.kind === 'leaf' ? 0 : 1,
      firstMessage: start,
      lastMessage: end - 1,
      descendants,
      earliestAt: timestampOf(messages[start]),
      latestAt: timestampOf(messages[end - 1]),
      body,
      expandFor:
        summary.kind === 'leaf'
          ? leafFooter(start, end, contents)
          : `the ${formatCount(descendants)} depth-0 summaries it condenses, and beneath them ${leafFooter(start, end, contents)}`,
    });
    firstError ??= error;
    inserted.push({
      body,
      outputIndex: output.length,
      span: summary.span,
      prompt,
      fallback,
    });
    output.push(summaryMessage('user', text));
    position = summary.end;
  }
  output.push(...messages.slice(layout.tailStart));

  const leaves = layout.summaries.filter((summary) => summary.kind === 'leaf').length;
  const condensed = layout.summaries.length - leaves;
  const notes = [
    `Leaf pass: ${plural(layout.leafCount, 'leaf chunk', 'leaf chunks')} outside the fresh tail of ${plural(count - layout.tailStart, 'message', 'messages')} ${layout.leafCount === 1 ? 'was' : 'were'} summarised.` +
      (condensed > 0
        ? ` Condensed pass: ${plural(condensed, 'depth-1 summary', 'depth-1 summaries')} now stand${condensed === 1 ? 's' : ''} for ${formatCount(condensed * settings.fanout)} depth-0 summaries; ${plural(leaves, 'leaf stays', 'leaves stay')} at depth 0.`
        : ''),
    'Lossless: the transcript is unchanged — every message stays stored; this is the context LCM would assemble from it.',
  ];
  if (input.focusTopic)
    notes.push(
      "LCM's compaction takes no focus topic (it focuses recall through lcm_expand_query instead); it was not used.",
    );
  const failures = inserted.filter((summary) => summary.fallback).length;
  if (failures > 0)
    notes.push(
      `The summariser failed for ${plural(failures, 'summary', 'summaries')}; a deterministic digest stands in.`,
    );
  const last = inserted[inserted.length - 1]!;
  return {
    ...base,
    messages: output,
    state: createCompressorState({
      ...input.state,
      compressionCount: input.state.compressionCount + 1,
      previousSummary: last.body,
      lastSummaryError: firstError,
    }),
    skipped: null,
    notes,
    fates: layout.fates,
    summaries: inserted,
    tokensAfter: estimateMessagesTokensRough(output, HOST_PRESET, input.sizeCache),
    summarizerCalls: calls,
  };
}

export const LCM_STRATEGY: Strategy = {
  ...LCM_PROFILE,
  ...liveLoopHooks(HOST_PRESET),
  trigger: lcmTrigger,
  prepare: (messages, _tools, shared) => withSharedCaches(prepareLcm(messages), HOST_PRESET, shared),
  plan: planLcm,
  compact: compactLcm,
};
