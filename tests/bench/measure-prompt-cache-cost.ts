import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import type { Preset } from '#core/presets/preset.ts';
import { toAnthropicRequest } from '#core/providers/anthropic/to-anthropic-request.ts';
import type { Message } from '#core/transcript/message.ts';
import { costUsdNumber, estimateUsageCost } from '#core/usage/estimate-usage-cost.ts';
import { normalizeUsage } from '#core/usage/normalize-usage.ts';
import { startMockProvider, type MockProvider } from '#tests/mock-provider/mock-provider-server.ts';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome, BenchRow } from './bench-result.ts';
import { benchTranscript } from './bench-transcripts.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const TURNS = 40;
const MODEL = 'claude-sonnet-4-6';
const PRESET: Preset = HERMES_2026_07;
const MAX_OUTPUT_TOKENS = 1024;
/** Time between two requests of the agent loop; well inside the 5-minute cache lifetime. */
const SECONDS_BETWEEN_TURNS = 30;
const TARGET_REDUCTION_PERCENT = 70;
/** The generated session is longer than 40 requests need; its start is the conversation. */
const SOURCE_MESSAGES = 400;

/** Every point where the model speaks next: the history the agent sends at that request. */
function requestHistories(messages: readonly Message[]): Message[][] {
  const histories: Message[][] = [];
  for (let index = 1; index < messages.length && histories.length < TURNS; index++) {
    if (messages[index]!.role === 'assistant' && messages[index - 1]!.role !== 'assistant') {
      histories.push(messages.slice(0, index));
    }
  }
  return histories;
}

interface ConversationCost {
  inputUsd: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  uncachedTokens: number;
}

/** Sends the 40 requests through the mock's prompt cache and prices each usage's input side. */
async function runConversation(
  mock: MockProvider,
  clock: { ms: number },
  histories: readonly Message[][],
  tools: Record<string, unknown>[],
  caching: boolean,
): Promise<ConversationCost> {
  mock.reset();
  const cost: ConversationCost = { inputUsd: 0, cacheReadTokens: 0, cacheWriteTokens: 0, uncachedTokens: 0 };
  for (const history of histories) {
    const messages = caching
      ? applyCacheControl(history, { ttl: '5m', nativeLayout: true }, PRESET)
      : history;
    const { body } = toAnthropicRequest(messages, {
      model: MODEL,
      maxTokens: MAX_OUTPUT_TOKENS,
      tools,
      stream: false,
      cacheMarkersApplied: caching,
    });
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'bench-key' },
      body: JSON.stringify(body),
    });
    const reply = (await response.json()) as { usage?: unknown; error?: { message?: string } };
    if (!response.ok) throw new Error(`mock provider answered ${response.status}: ${reply.error?.message}`);
    const usage = normalizeUsage(
      reply.usage,
      { provider: 'anthropic', apiMode: 'anthropic_messages' },
      PRESET,
    );
    // Input cost only: the replies are the same either way.
    const input = { ...usage, outputTokens: 0, reasoningTokens: 0 };
    const estimate = estimateUsageCost(MODEL, input, { provider: 'anthropic' }, PRESET);
    if (estimate.amountUsd === null) throw new Error(`no price for ${MODEL} under ${PRESET.name}`);
    cost.inputUsd += costUsdNumber(estimate);
    cost.cacheReadTokens += usage.cacheReadTokens;
    cost.cacheWriteTokens += usage.cacheWriteTokens;
    cost.uncachedTokens += usage.inputTokens;
    clock.ms += SECONDS_BETWEEN_TURNS * 1000;
  }
  return cost;
}

const describeCost = (cost: ConversationCost): string =>
  `uncached ${cost.uncachedTokens.toLocaleString('en-US')}, cache write ${cost.cacheWriteTokens.toLocaleString('en-US')}, cache read ${cost.cacheReadTokens.toLocaleString('en-US')} tokens`;

/**
 * Input cost of a 40-request agent conversation with and without prompt caching (SPEC §7:
 * at least 70% lower): the app's request building (applyCacheControl, toAnthropicRequest), the
 * mock provider's prefix cache, normalizeUsage and estimateUsageCost for a Claude model.
 */
export async function measurePromptCacheCost(context: BenchContext): Promise<BenchOutcome> {
  context.log(`prompt caching: ${TURNS} requests with and without cache markers`);
  const transcript = benchTranscript(SOURCE_MESSAGES);
  const histories = requestHistories(transcript.messages);
  if (histories.length < TURNS)
    throw new Error(`the generated session has only ${histories.length} requests`);
  const tools = (transcript.metadata.tools ?? []) as Record<string, unknown>[];
  const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
  const mock = await startMockProvider({
    port: 0,
    contextWindow: 10_000_000,
    enforceOutputCap: false,
    nowMs: () => clock.ms,
  });
  try {
    const cached = await runConversation(mock, clock, histories, tools, true);
    const uncached = await runConversation(mock, clock, histories, tools, false);
    const reduction = ((uncached.inputUsd - cached.inputUsd) / uncached.inputUsd) * 100;
    const last = histories[histories.length - 1]!;
    const rows: BenchRow[] = [
      {
        name: `prompt caching, ${TURNS}-request conversation: input cost without caching`,
        size: last.length,
        value: uncached.inputUsd,
        unit: 'USD',
        target: null,
        met: null,
        note: `${MODEL}, ${PRESET.name} prices; ${describeCost(uncached)}`,
      },
      {
        name: `prompt caching, ${TURNS}-request conversation: input cost with caching`,
        size: last.length,
        value: cached.inputUsd,
        unit: 'USD',
        target: null,
        met: null,
        note: `system_and_3 markers, 5m TTL, ${SECONDS_BETWEEN_TURNS} s between requests; ${describeCost(cached)}`,
      },
      {
        name: `prompt caching, ${TURNS}-request conversation: input cost reduction`,
        size: last.length,
        value: reduction,
        unit: '%',
        target: `≥ ${TARGET_REDUCTION_PERCENT} % lower`,
        met: reduction >= TARGET_REDUCTION_PERCENT,
        note: `$${uncached.inputUsd.toFixed(4)} → $${cached.inputUsd.toFixed(4)}; mock tokens = ceil(chars/4) per block`,
      },
    ];
    return { rows, skips: [] };
  } finally {
    await mock.close();
  }
}
