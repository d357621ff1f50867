import { describe, expect, it } from 'vitest';
import { createAnthropicClient } from '#io/llm/anthropic-client.ts';
import { isLlmError } from '#io/llm/llm-error.ts';
import { createLlmSummarizer } from '#io/llm/llm-summarizer.ts';
import { createOpenAiCompatibleClient } from '#io/llm/openai-compatible-client.ts';
import { useMockProvider } from './mock-provider-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const provider = useMockProvider();

function mainClient() {
  return createAnthropicClient({
    apiKey: 'sk-ant-summary-key',
    baseUrl: provider.mock().url,
    model: 'claude-main',
    preset: HERMES_2026_04,
  });
}

const models = (): unknown[] =>
  provider.mock().requests.map((request) => (request.body as { model: string }).model);

describe('createLlmSummarizer', () => {
  it("returns the model's summary for the prompt, sent as one user message", async () => {
    provider.mock().script([{ kind: 'reply', text: '## Goal\nFinish the port.' }]);
    const summarizer = createLlmSummarizer({ client: mainClient() });
    expect(summarizer.offline).toBe(false);
    expect(summarizer.label).toBe('Anthropic claude-main');
    await expect(
      summarizer.summarize({ prompt: 'Summarise these turns', maxTokens: 2600, model: null }),
    ).resolves.toBe('## Goal\nFinish the port.');
    expect(provider.mock().requests[0]!.body).toMatchObject({
      model: 'claude-main',
      max_tokens: 2600,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise these turns' }] }],
    });
  });

  it('uses the model the compressor asked for, without a fallback of its own', async () => {
    provider.mock().script([{ kind: 'server-error' }]);
    const summarizer = createLlmSummarizer({ client: mainClient(), auxiliaryModel: 'claude-aux' });
    await expect(
      summarizer.summarize({ prompt: 'p', maxTokens: null, model: 'claude-override' }, undefined),
    ).rejects.toSatisfy(isLlmError);
    expect(models()).toEqual(['claude-override']);
  });

  it('tries the auxiliary model first and falls back to the main model on failure, with a notice', async () => {
    provider.mock().script([{ kind: 'server-error' }, { kind: 'reply', text: 'summary from main' }]);
    const notices: string[] = [];
    const summarizer = createLlmSummarizer({
      client: mainClient(),
      auxiliaryModel: 'claude-aux',
      onNotice: (notice) => notices.push(notice),
    });
    await expect(summarizer.summarize({ prompt: 'p', maxTokens: null, model: null })).resolves.toBe(
      'summary from main',
    );
    expect(models()).toEqual(['claude-aux', 'claude-main']);
    expect(notices).toEqual([expect.stringContaining('The summary model claude-aux failed')]);
    expect(provider.mock().requests[1]!.body).toMatchObject({ max_tokens: 16_384 });
  });

  it('times out after the configured deadline with a timeout LlmError', async () => {
    provider.mock().script([{ kind: 'timeout' }]);
    const summarizer = createLlmSummarizer({ client: mainClient(), timeoutMs: 150 });
    const error: unknown = await summarizer
      .summarize({ prompt: 'p', maxTokens: 100, model: null })
      .catch((thrown: unknown) => thrown);
    expect(isLlmError(error) && error.kind).toBe('timeout');
    expect((error as Error).message).toBe('Summary request timed out after 150 ms (model claude-main)');
  });

  it('warns when the summary model window is smaller than the request', async () => {
    const notices: string[] = [];
    const client = createOpenAiCompatibleClient({
      apiKey: 'sk-or-key-1234',
      baseUrl: `${provider.mock().url}/v1`,
      model: 'small-model',
      preset: HERMES_2026_07,
    });
    const summarizer = createLlmSummarizer({
      client,
      contextLengthOf: () => 1_000,
      onNotice: (notice) => notices.push(notice),
    });
    await summarizer.summarize({ prompt: 'x'.repeat(8_000), maxTokens: 500, model: null });
    expect(notices).toEqual([
      expect.stringContaining(
        "The summary model's context window (1,000 tokens) is smaller than the summary request (~2,500 tokens)",
      ),
    ]);
  });
});
