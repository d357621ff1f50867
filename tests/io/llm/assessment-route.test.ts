import { describe, expect, it } from 'vitest';
import { assessmentRoute } from '#io/llm/assessment-route.ts';

const openRouter = {
  provider: 'openai-compatible' as const,
  baseUrl: 'https://openrouter.ai/api/v1',
  model: 'anthropic/claude-sonnet-4.6',
  auxiliaryModel: 'google/gemini-2.5-flash',
  cacheTtl: '1h' as const,
  promptCaching: false,
};

describe('assessmentRoute', () => {
  it("prices on the user's own route, with their summary model, TTL and caching switch", () => {
    expect(assessmentRoute(openRouter)).toEqual({
      model: 'anthropic/claude-sonnet-4.6',
      provider: 'openrouter',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiMode: 'chat_completions',
      cacheTtl: '1h',
      promptCaching: false,
      summaryModel: 'google/gemini-2.5-flash',
    });
  });

  it('prices a transcript recorded with another model as that model ran, on its usual route', () => {
    expect(assessmentRoute(openRouter, 'gpt-5')).toEqual({
      model: 'gpt-5',
      provider: 'openai',
      baseUrl: '',
      apiMode: 'chat_completions',
      cacheTtl: '1h',
      promptCaching: false,
    });
    // The same model (or none recorded) keeps the user's route.
    expect(assessmentRoute(openRouter, 'anthropic/claude-sonnet-4.6').provider).toBe('openrouter');
    expect(assessmentRoute(openRouter, null).provider).toBe('openrouter');
  });
});
