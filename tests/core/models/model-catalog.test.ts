import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FALLBACK_CONTEXT_TOKENS,
  lookupModel,
  MINIMUM_CONTEXT_LENGTH_TOKENS,
  normalizeModelId,
} from '#core/models/model-catalog.ts';

describe('lookupModel', () => {
  it('finds Claude models by dated id, OpenRouter id and dotted version', () => {
    expect(lookupModel('claude-sonnet-4-5-20250929')).toMatchObject({
      contextLength: 200_000,
      known: true,
      family: 'claude',
    });
    expect(lookupModel('anthropic/claude-sonnet-4.5').contextLength).toBe(200_000);
    expect(lookupModel('claude-opus-4-6').maxOutputTokens).toBe(128_000);
  });

  it('selects the 1M window for a [1m] long-context id', () => {
    expect(lookupModel('claude-sonnet-4-5-20250929[1m]').contextLength).toBe(1_000_000);
  });

  it('prefers the longest matching family', () => {
    expect(lookupModel('gpt-4.1-mini').contextLength).toBe(1_047_576);
    expect(lookupModel('gpt-4o-mini').contextLength).toBe(128_000);
    expect(lookupModel('gpt-4').contextLength).toBe(8192);
    expect(lookupModel('o3-mini')).toMatchObject({ contextLength: 200_000, family: 'o-series' });
  });

  it('caps GPT-5.5 on the Codex subscription route', () => {
    expect(lookupModel('gpt-5.5').contextLength).toBe(1_050_000);
    expect(lookupModel('gpt-5.5', 'codex').contextLength).toBe(272_000);
  });

  it('finds open-weight models behind vendor prefixes', () => {
    expect(lookupModel('meta-llama/Meta-Llama-3.1-8B-Instruct')).toMatchObject({
      contextLength: 131_072,
      family: 'llama',
    });
    expect(lookupModel('qwen/qwen3-coder:free')).toMatchObject({ contextLength: 262_144, family: 'qwen' });
    expect(lookupModel('deepseek-chat').family).toBe('deepseek');
  });

  it('falls back to 256K for an unknown model', () => {
    expect(lookupModel('my-local-model')).toMatchObject({
      contextLength: DEFAULT_FALLBACK_CONTEXT_TOKENS,
      known: false,
    });
    expect(DEFAULT_FALLBACK_CONTEXT_TOKENS).toBeGreaterThan(MINIMUM_CONTEXT_LENGTH_TOKENS);
  });

  it('does not match a family inside a longer number', () => {
    expect(lookupModel('o10-experimental').known).toBe(false);
  });
});

describe('normalizeModelId', () => {
  it('lowercases, drops the vendor and routing suffix, and dashes Claude versions', () => {
    expect(normalizeModelId('Anthropic/Claude-Opus-4.6:beta')).toBe('claude-opus-4-6');
  });
});
