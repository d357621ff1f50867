import { describe, expect, it } from 'vitest';
import type { Summarizer } from '#core/compression/summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import type { AssessmentRoute } from '#core/lab/assess-compaction.ts';
import { roughMessageCounting } from '#core/simulation/message-counting.ts';
import { simulateSession } from '#core/simulation/simulate-session.ts';
import { HOST_PRESET } from '#core/strategies/strategy-kit.ts';
import { findStrategy, STRATEGIES } from '#core/strategies/strategy-registry.ts';
import type { Message } from '#core/transcript/message.ts';

/**
 * A 40-turn chat without tools, sized in the host's rough estimate (Python-repr characters / 4,
 * rounded up per message):
 *   system: `{'role': 'system', 'content': '…'}` = 33 + 367 chars → 100 tokens
 *   user ask: `{'role': 'user', 'content': '…'}` = 31 + 769 chars → 200 tokens
 *   assistant reply: `{'role': 'assistant', 'content': '…'}` = 36 + 95,964 chars → 24,000 tokens
 * A turn (ask + reply) is 24,200 tokens. The request before reply k (k = 1…40) holds the system
 * prompt, k − 1 whole turns and ask k: 300 + (k − 1) × 24,200 tokens, as long as nothing compacted.
 */
const SYSTEM_TOKENS = 100;
const ASK_TOKENS = 200;
const REPLY_TOKENS = 24_000;
const TURNS = 40;

const filled = (opening: string, length: number): string => opening + 'x'.repeat(length - opening.length);
const twoDigits = (turn: number): string => String(turn).padStart(2, '0');

function chatTranscript(): Message[] {
  const messages: Message[] = [{ role: 'system', content: filled('You are a helpful agent. ', 367) }];
  for (let turn = 1; turn <= TURNS; turn++) {
    messages.push({ role: 'user', content: filled(`Task ${twoDigits(turn)}: write part ${turn}. `, 769) });
    messages.push({ role: 'assistant', content: filled(`Part ${twoDigits(turn)} written. `, 95_964) });
  }
  return messages;
}

/** A summariser with a fixed short answer, so every summary is a few hundred tokens at most. */
const fixedSummarizer: Summarizer = {
  label: 'fixed',
  offline: true,
  summarize: () =>
    Promise.resolve(
      'The user asked for the parts of a document one turn at a time; each part was written in full. Continue with the next part the user asks for.',
    ),
};

const ROUTE: AssessmentRoute = {
  model: 'claude-sonnet-4-6',
  provider: 'anthropic',
  baseUrl: '',
  apiMode: 'anthropic_messages',
  cacheTtl: '5m',
  promptCaching: true,
};

// Hermes' head and tail floors shrunk so its kept set is the rule, not the floor:
// protect_first_n 1, protect_last_n 3 (tail floor max(3, min(3, 8)) = 3 messages).
const CONFIG: CompressionConfig = {
  ...DEFAULT_COMPRESSION_CONFIG,
  contextLength: 200_000,
  protectFirstN: 1,
  protectLastN: 3,
};

async function simulate(name: string, config: CompressionConfig = CONFIG) {
  const messages = chatTranscript();
  const strategy = findStrategy(name)!;
  const result = await simulateSession(
    {
      strategy,
      messages,
      tools: [],
      config,
      counting: roughMessageCounting(messages, [], HOST_PRESET),
      route: ROUTE,
    },
    { summarizer: fixedSummarizer },
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/**
 * When each strategy compacts, by hand. Request k (1-based) is before reply k; uncompacted it
 * holds 300 + (k − 1) × 24,200 tokens; after a compaction at request k the context is S and
 * request k + j holds S + j × 24,200 (each turn appends reply k and ask k + 1). Summaries are the
 * fixed answer plus each tool's prefix: s ≤ 1,000 tokens, far inside every margin below.
 */
const EXPECTED: Record<string, { threshold: number; requests: number[] }> = {
  // threshold max(50% × 200,000, 64,000) = 100,000. Request 5 holds 97,100, request 6 121,300: first at 6.
  // Head [system]; tail walk (budget 20,000, soft 30,000): ask k 200, reply k−1 24,200, ask k−1
  // 24,400, reply k−2 would make 48,400 → stop; tail = [ask k−1, reply k−1, ask k] = 24,400.
  // S = 100 + s + 24,400 ∈ [24,500, 25,500]: S + 3 × 24,200 ≤ 98,100 < 100,000, S + 4 × 24,200 ≥
  // 121,300: every 4 requests → 6, 10, 14, 18, 22, 26, 30, 34, 38 (42 is past the end).
  'hermes-2026-04': { threshold: 100_000, requests: [6, 10, 14, 18, 22, 26, 30, 34, 38] },
  // threshold max(50%, 75% floor under 512K) × 200,000 = 150,000. Request 7 holds 145,500, 8 169,700.
  // First: head [system, ask 1] (1 + protect_first_n), tail as above (soft 45,000 still stops at
  // reply k−2): S = 24,700 + s. Later the head decays to [system]: S = 24,500 + s. Either way
  // S + 5 × 24,200 ≤ 146,700 < 150,000 and S + 6 × 24,200 ≥ 169,700: every 6 → 8, 14, 20, 26, 32, 38.
  'hermes-2026-07': { threshold: 150_000, requests: [8, 14, 20, 26, 32, 38] },
  // threshold 90% × 200,000 = 180,000. Request 8 holds 169,700, 9 193,900: first at 9. Codex keeps
  // the system prompt and every ask (all fit its 20,000-token user budget): after a compaction at
  // request k, S = 100 + k × 200 + s. At k = 9: S + 7 × 24,200 = 171,200 + s < 180,000, + 8 turns fires → 17;
  // k = 17: 172,900 + s < 180,000 → 25; k = 25: 174,500 + s → 33; k = 33: 176,100 + s → 41, past the end.
  'codex-cli': { threshold: 180_000, requests: [9, 17, 25, 33] },
  // threshold 200,000 − min(max output, 20,000) − 13,000 = 167,000. Request 7 holds 145,500, 8 169,700.
  // Claude Code keeps the system prompt and the summary (no files were read): S = 100 + s.
  // S + 6 × 24,200 ≤ 146,300 < 167,000, S + 7 × 24,200 ≥ 169,500: every 7 → 8, 15, 22, 29, 36.
  'claude-code': { threshold: 167_000, requests: [8, 15, 22, 29, 36] },
  // threshold = usable = 200,000 − min(20,000, max output) = 180,000: first at 9, as Codex. Nothing to
  // prune (no tool output); the tail keeps ask k (200 fits the 8,000-token budget; the turn before,
  // 24,200, does not, and no assistant message in it fits either): S = 100 + 200 + s.
  // S + 7 × 24,200 ≤ 170,700 < 180,000, S + 8 × 24,200 ≥ 193,900: every 8 → 9, 17, 25, 33.
  opencode: { threshold: 180_000, requests: [9, 17, 25, 33] },
  // threshold 200,000 − 40,000 = 160,000. Request 7 holds 145,500, 8 169,700: first at 8.
  // Cline keeps the first pair (system, ask 1, reply 1 = 24,300) and drops ⌊rest / 4⌋ × 2 of the
  // rest, adding a notice (n ≤ 100 tokens):
  //  at 8, 16 messages, rest 13 → drop 6 (asks and replies 2–4) → kept: first pair, notice, asks
  //   and replies 5–7, ask 8 = 97,100 + n. Requests 9, 10: 121,300, 145,500; 11: 169,700 → fires.
  //  at 11, 17 messages, rest 14 → drop 6 (notice, 5, 6, ask 7) → first pair, notice, reply 7,
  //   turns 8–10, ask 11 = 121,100 + n. Request 12: 145,300; 13: 169,500 → fires.
  //  at 13, 16 messages, rest 13 → drop 6 → first pair, notice, turns 10–12, ask 13 = 97,100 + n:
  //   the state after request 8 again. So +3, +2, +3, +2…: 8, 11, 13, 16, 18, 21, 23, 26, 28, 31,
  //   33, 36, 38 (41 is past the end).
  cline: { threshold: 160_000, requests: [8, 11, 13, 16, 18, 21, 23, 26, 28, 31, 33, 36, 38] },
};

describe('simulateSession on a 40-turn chat', () => {
  it('sizes the hand-made turns as the arithmetic assumes', () => {
    const messages = chatTranscript();
    const counting = roughMessageCounting(messages, [], HOST_PRESET);
    expect(counting.perMessage[0]).toBe(SYSTEM_TOKENS);
    expect(counting.perMessage[1]).toBe(ASK_TOKENS);
    expect(counting.perMessage[2]).toBe(REPLY_TOKENS);
    expect(messages).toHaveLength(1 + 2 * TURNS);
  });

  it.each(Object.entries(EXPECTED))('%s compacts where its trigger says', async (name, expected) => {
    const simulation = await simulate(name);
    expect(simulation.thresholdTokens).toBe(expected.threshold);
    expect(simulation.turns).toBe(TURNS);
    expect(simulation.requests).toBe(TURNS);
    // Request k of the arithmetic is request index k − 1, in turn k.
    expect(simulation.compactions.map((compaction) => compaction.request + 1)).toEqual(expected.requests);
    expect(simulation.compactions.map((compaction) => compaction.turn)).toEqual(expected.requests);
    expect(simulation.compactions.every((compaction) => compaction.cause === 'trigger')).toBe(true);
    expect(simulation.skipped).toEqual([]);
    for (const compaction of simulation.compactions) {
      expect(compaction.tokensBefore).toBeGreaterThanOrEqual(expected.threshold);
      expect(compaction.tokensAfter).toBeLessThan(expected.threshold);
      expect(compaction.messageIndex).toBe(2 * (compaction.request + 1));
    }
    // Without compaction the last request would hold 300 + 39 × 24,200 = 944,100 tokens.
    expect(simulation.peakTokens).toBeLessThan(200_000);
    expect(simulation.overflowRequests).toBe(0);
  });

  it('the first Hermes (2026-04) compaction keeps the system prompt, the summary and a three-message tail', async () => {
    const simulation = await simulate('hermes-2026-04');
    const first = simulation.compactions[0]!;
    // Before: 300 + 5 × 24,200 = 121,300 (the request estimate rounds once, so it may differ by a few).
    expect(Math.abs(first.tokensBefore - 121_300)).toBeLessThanOrEqual(10);
    expect(first.messagesBefore).toBe(12);
    // After: system, summary, ask 5, reply 5, ask 6 (24,500 + the summary).
    expect(first.messagesAfter).toBe(5);
    expect(first.tokensAfter).toBeGreaterThan(24_500);
    expect(first.tokensAfter).toBeLessThan(25_500);
  });

  it('runs every registered strategy through the whole session', async () => {
    // Strategies registered later have no hand-made expectation here, only these invariants.
    for (const strategy of STRATEGIES) {
      const simulation = await simulate(strategy.name);
      expect(simulation.requests, strategy.name).toBe(TURNS);
      expect(simulation.timeline.tokens).toHaveLength(TURNS);
      // 944,100 tokens uncompacted in a 200K window: every strategy compacts at least once.
      expect(simulation.compactions.length, strategy.name).toBeGreaterThan(0);
      for (const compaction of simulation.compactions)
        expect(compaction.tokensAfter, strategy.name).toBeLessThan(compaction.tokensBefore);
      expect(Math.max(...simulation.timeline.tokens), strategy.name).toBe(simulation.peakTokens);
    }
  });

  it('never compacts when the window holds the whole session', async () => {
    const simulation = await simulate('codex-cli', { ...CONFIG, contextLength: 2_000_000 });
    expect(simulation.compactions).toEqual([]);
    // Every request is billed in full: Σ (300 + (k − 1) × 24,200) for k = 1…40.
    expect(simulation.input.tokens).toBe(40 * 300 + 24_200 * ((39 * 40) / 2));
    expect(simulation.peakTokens).toBe(300 + 39 * 24_200);
    expect(simulation.peakRequest).toBe(39);
  });

  it('respects the master switch', async () => {
    const simulation = await simulate('claude-code', { ...CONFIG, enabled: false });
    expect(simulation.compactions).toEqual([]);
    expect(simulation.overflowRequests).toBeGreaterThan(0);
  });
});

describe('simulateSession billing', () => {
  it('reads the previous request from the cache and writes only what was appended', async () => {
    const simulation = await simulate('codex-cli', { ...CONFIG, contextLength: 2_000_000 });
    // Request 1 (300 tokens) is below the 1,024-token cache minimum: uncached. Request 2 (24,500)
    // reads nothing (request 1 was not cached) and writes itself. Every later request k reads
    // request k − 1 whole and writes the 24,200 tokens appended since.
    expect(simulation.input.uncachedTokens).toBe(300);
    expect(simulation.input.cacheWriteTokens).toBe(24_500 + 38 * 24_200);
    expect(simulation.input.cacheReadTokens).toBe(
      simulation.input.tokens - simulation.input.uncachedTokens - simulation.input.cacheWriteTokens,
    );
    // Sonnet: $3 input, $0.30 cache read, $3.75 cache write per million.
    const { tokens, cacheReadTokens, cacheWriteTokens } = simulation.input;
    expect(simulation.input.usdWithoutCaching).toBeCloseTo((tokens * 3) / 1e6, 9);
    expect(simulation.input.usdWithCaching).toBeCloseTo(
      (300 * 3 + cacheReadTokens * 0.3 + cacheWriteTokens * 3.75) / 1e6,
      9,
    );
  });

  it('rewrites the cache after a compaction, beyond the unchanged system prompt', async () => {
    const simulation = await simulate('hermes-2026-04');
    const first = simulation.compactions[0]!;
    // The system prompt (100 tokens) is the only unchanged prefix and is below the 1,024-token
    // cache minimum, so the whole compacted request (~24,900 tokens) is written again.
    expect(first.cacheRewriteTokens).toBe(first.tokensAfter);
    expect(first.ledger.cacheRewriteTokens).toBe(first.tokensAfter);
    expect(simulation.cacheRewriteTokens).toBe(
      simulation.compactions.reduce((sum, compaction) => sum + compaction.cacheRewriteTokens, 0),
    );
    expect(first.ledger.savedTokensPerTurn).toBe(first.tokensBefore - first.tokensAfter);
  });

  it('writes nothing to the cache when the compacted request is below the cache minimum', async () => {
    const simulation = await simulate('claude-code');
    const first = simulation.compactions[0]!;
    // Claude Code keeps the system prompt and a short summary: S = 100 + s < 1,024.
    expect(first.tokensAfter).toBeLessThan(1024);
    expect(first.cacheRewriteTokens).toBe(0);
  });

  it('bills everything as input when the route does not cache', async () => {
    const messages = chatTranscript();
    const result = await simulateSession(
      {
        strategy: findStrategy('codex-cli')!,
        messages,
        tools: [],
        config: CONFIG,
        counting: roughMessageCounting(messages, [], HOST_PRESET),
        route: { ...ROUTE, promptCaching: false },
      },
      { summarizer: fixedSummarizer },
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.input.caching).toBe(false);
    expect(result.value.input.uncachedTokens).toBe(result.value.input.tokens);
    expect(result.value.input.usdWithCaching).toBe(result.value.input.usdWithoutCaching);
  });
});

describe('simulateSession control', () => {
  it('reports progress and stops when cancelled', async () => {
    const messages = chatTranscript();
    const signal = { aborted: false };
    const seen: number[] = [];
    const result = await simulateSession(
      {
        strategy: findStrategy('hermes-2026-07')!,
        messages,
        tools: [],
        config: CONFIG,
        counting: roughMessageCounting(messages, [], HOST_PRESET),
        route: ROUTE,
      },
      {
        summarizer: fixedSummarizer,
        progressEvery: 10,
        onProgress: (done) => {
          seen.push(done);
          if (done >= 30) signal.aborted = true;
        },
        signal,
      },
    );
    expect(seen).toEqual([10, 20, 30]);
    expect(result).toEqual({
      ok: false,
      error: { type: 'Cancelled', message: 'The simulation was cancelled.' },
    });
  });

  it('compacts with the offline summariser by default', async () => {
    const messages = chatTranscript();
    const result = await simulateSession({
      strategy: findStrategy('hermes-2026-07')!,
      messages,
      tools: [],
      config: CONFIG,
      counting: roughMessageCounting(messages, [], HOST_PRESET),
      route: ROUTE,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.summarizer.calls).toBe(result.value.compactions.length);
    expect(result.value.compactions.length).toBeGreaterThan(0);
  });
});

describe('simulateSession with pins', () => {
  it('keeps a pinned message verbatim through every compaction of the session', async () => {
    const messages = chatTranscript();
    // Ask 2 (#3): Claude Code keeps only the system prompt and its summary, so without the pin
    // it would be gone after the first compaction.
    const pinnedAsk = messages[3]!;
    const base = findStrategy('claude-code')!;
    const pinnedAtEachCompaction: Array<Message[]> = [];
    const spy = {
      ...base,
      compact: (input: Parameters<typeof base.compact>[0], deps: Parameters<typeof base.compact>[1]) => {
        pinnedAtEachCompaction.push([...(input.pinned ?? [])].map((index) => input.messages[index]!));
        return base.compact(input, deps);
      },
    };
    const run = (pinned?: readonly number[]) =>
      simulateSession(
        {
          strategy: spy,
          messages,
          tools: [],
          config: CONFIG,
          counting: roughMessageCounting(messages, [], HOST_PRESET),
          route: ROUTE,
          ...(pinned ? { pinned } : {}),
        },
        { summarizer: fixedSummarizer },
      );
    const simulation = await run([3]);
    if (!simulation.ok) throw new Error(simulation.error.message);
    // The pinned ask adds 200 tokens to each compacted context: S + 6 × 24,200 ≤ 146,500 < 167,000,
    // so the points stay those of the unpinned session (8, 15, 22, 29, 36).
    expect(simulation.value.compactions.map((compaction) => compaction.request + 1)).toEqual([
      8, 15, 22, 29, 36,
    ]);
    // Each compaction was told the pin: the ask the first one was given, and after that the one it put back.
    expect(pinnedAtEachCompaction).toHaveLength(5);
    for (const pinned of pinnedAtEachCompaction) expect(pinned).toEqual([pinnedAsk]);

    pinnedAtEachCompaction.length = 0;
    const unpinned = await run();
    if (!unpinned.ok) throw new Error(unpinned.error.message);
    expect(pinnedAtEachCompaction.every((pinned) => pinned.length === 0)).toBe(true);
    expect(unpinned.value.compactions).toHaveLength(5);
  });
});
