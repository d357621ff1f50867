import { compareStrategies } from '#core/comparison/compare-strategies.ts';
import type { Comparison } from '#core/comparison/comparison.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { roughMessageCounting } from '#core/simulation/message-counting.ts';

/** Codex CLI and Claude Code on the demo in a 64K window, both firing, with the simulation. */
export async function demoComparison(): Promise<Comparison> {
  const demo = buildDemoTranscript();
  const tools = demo.metadata.tools ?? [];
  const result = await compareStrategies({
    messages: demo.messages,
    tools,
    config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 },
    entries: [{ strategy: 'codex-cli' }, { strategy: 'claude-code' }],
    counting: roughMessageCounting(demo.messages, tools),
    exact: null,
    route: {
      model: 'claude-sonnet-4-6',
      provider: 'anthropic',
      baseUrl: '',
      apiMode: 'anthropic_messages',
      cacheTtl: '5m',
      promptCaching: true,
    },
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
