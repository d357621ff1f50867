/**
 * The workspace's map of a live chat says when the chat will compact: planned on the request
 * context the chat sends (system prompt first, its tool schemas) with its compressor state, the
 * map fires before a turn exactly when the loop compacts in that turn, by the check the plan
 * names, and its trigger count is the count the pre-request check judges.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { planOnce } from '#core/lab/create-planner.ts';
import { requestPressureTokens } from '#core/loop/pre-api-compression-check.ts';
import { requestMessages } from '#core/loop/request-messages.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import type { Preset } from '#core/presets/preset.ts';
import { findStrategy } from '#core/strategies/strategy-registry.ts';
import type { Strategy } from '#core/strategies/strategy.ts';
import { BROWSER_TOOL_SCHEMAS } from '#core/tools/browser-tool-schemas.ts';
import type { Message } from '#core/transcript/message.ts';
import type { CompactionReason } from '#core/loop/conversation-event.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import { createRuntimeFixture, hermesStrategyOf, noAbort, type RuntimeFixture } from './runtime-fixture.ts';

const provider = useMockProvider();
const WINDOW_TOKENS = 32_000;
const SYSTEM_PROMPT = 'You are a careful reviewer of ledger code. Answer briefly.';

/** The check a plan names, as the runtime reports the compaction it ran. */
const REASON_OF_CHECK: Record<string, CompactionReason> = {
  hygiene: 'hygiene',
  preflight: 'preflight',
  'pre-request': 'pre-api',
};

/** The map's plan of the conversation as it stands with the next user message stored. */
function planBeforeTurn(fixture: RuntimeFixture, strategy: Strategy, next: Message) {
  const runtime = fixture.runtime;
  const conversation = [...runtime.messages, next];
  const config = {
    ...fixture.settings.compression,
    contextLength: runtime.contextLengthFor(fixture.settings),
  };
  return planOnce(
    strategy,
    requestMessages(runtime.systemPrompt || fixture.settings.systemPrompt, conversation),
    {
      config,
      state: runtime.compressorState,
      estimator: 'rough',
      nowMs: Date.now(),
      live: { lastSessionPromptTokens: runtime.lastSessionPromptTokens },
    },
    { tools: BROWSER_TOOL_SCHEMAS },
  );
}

async function chatUntilCompactions(
  wanted: number,
  strategy: Strategy,
  label: string,
  contextLength = WINDOW_TOKENS,
): Promise<number> {
  const fixture = createRuntimeFixture({
    label,
    mock: provider.mock(),
    strategy,
    contextLength,
    systemPrompt: SYSTEM_PROMPT,
  });
  let compactions = 0;
  for (let turn = 1; turn <= 60 && compactions < wanted; turn++) {
    const text = `Turn ${turn}: review ledger module ${turn}. ${'The module writes ledger rows. '.repeat(120)}`;
    const plan = planBeforeTurn(fixture, strategy, { role: 'user', content: text });
    const before = fixture.eventsOf('compaction-end').length;
    const result = await fixture.runtime.sendUserMessage(text, noAbort());
    expect(result.outcome).toBe('completed');
    const ran = fixture.eventsOf('compaction-end').slice(before);
    // The map fired before the turn exactly when the loop compacted in it, by the check it named.
    expect({ turn, fires: plan.wouldCompress }).toEqual({ turn, fires: ran.length > 0 });
    if (ran.length > 0) {
      expect(ran[0]!.reason).toBe(REASON_OF_CHECK[plan.live!.firedBy!]);
      // What the compaction started from is the request the map drew (the preflight's count).
      expect(ran[0]!.tokensBefore).toBe(plan.live!.preflightTokens);
      compactions += 1;
    }
  }
  return compactions;
}

describe('the live map fires when the chat compacts', () => {
  it.each<[string, Preset]>([
    // 2026-04's trigger is at least 64K, above a 32K window: hygiene at 85% of it compacts.
    ['hermes-2026-04', HERMES_2026_04],
    // 2026-07 triggers at 85% of a window the 64K minimum would swallow: the pre-request check.
    ['hermes-2026-07', HERMES_2026_07],
  ])('%s on a 32K window, turn by turn through two compactions', async (name, preset) => {
    expect(await chatUntilCompactions(2, hermesStrategyOf(preset), `live-plan-${name}`)).toBe(2);
  });

  it('judges another tool’s trigger on the loop’s count too (Claude Code under 2026-07, 64K)', async () => {
    // 64K − 20K output − 13K: Claude Code fires at 31,000 (on 32K its trigger would be 0); it keeps
    // only the summary, so one compaction is as far as 60 turns go.
    expect(await chatUntilCompactions(1, findStrategy('claude-code')!, 'live-plan-claude-code', 64_000)).toBe(
      1,
    );
  });
});

describe('the live plan counts what the pre-request check counts', () => {
  it.each<[string, Preset]>([
    ['hermes-2026-04', HERMES_2026_04],
    ['hermes-2026-07', HERMES_2026_07],
  ])('%s: the trigger count is the request pressure, in both estimators', (_name, preset) => {
    const conversation: Message[] = [
      { role: 'user', content: 'Where are ledger rows written?' },
      { role: 'assistant', content: 'In ledger/write.py, one row per posting.' },
      { role: 'user', content: `Show me. ${'x'.repeat(4_001)}` },
    ];
    const messages = requestMessages(SYSTEM_PROMPT, conversation);
    const pressure = requestPressureTokens(messages, BROWSER_TOOL_SCHEMAS, preset);
    // Exact counts of another size than the rough ones: the trigger and the map ignore them.
    const exact = { encoding: 'o200k_base' as const, perMessage: messages.map(() => 7), toolsTokens: 300 };
    for (const estimator of ['rough', 'o200k_base'] as const) {
      const plan = planOnce(
        hermesStrategyOf(preset),
        messages,
        {
          config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: WINDOW_TOKENS },
          estimator,
          exact: estimator === 'rough' ? null : exact,
          live: { lastSessionPromptTokens: 0 },
        },
        { tools: BROWSER_TOOL_SCHEMAS },
      );
      expect(plan.triggerTokens).toBe(pressure);
      expect(plan.triggerBasis).toBe('rough');
      expect(plan.counts.rough).toBe(pressure);
      expect(plan.live?.requestTokens).toBe(pressure);
      // Drawn in the loop's counting too; the exact count is given beside it.
      expect(plan.tokenBasis).toBe('rough');
      expect(plan.counts.exact).toBe(estimator === 'rough' ? null : 7 * messages.length + 300);
    }
  });
});
