import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LlmCallContext } from '#io/llm/create-llm-error.ts';
import { browserIsOnline, networkFailure } from '#io/llm/network-failure.ts';
import { describeTurnFailure } from '#io/runtime/turn-failure.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const call: LlmCallContext = {
  provider: 'openai-compatible',
  hermesProvider: 'custom',
  model: 'local-model',
  preset: HERMES_2026_07,
  apiKey: 'sk-local-0123456789',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('browserIsOnline', () => {
  it('believes navigator.onLine only when it says false', () => {
    vi.stubGlobal('navigator', { onLine: false });
    expect(browserIsOnline()).toBe(false);
    vi.stubGlobal('navigator', { onLine: true });
    expect(browserIsOnline()).toBe(true);
  });

  it('counts as online where there is no navigator (Node)', () => {
    vi.stubGlobal('navigator', undefined);
    expect(browserIsOnline()).toBe(true);
  });
});

describe('networkFailure', () => {
  it('is a classified, retryable network error while online, the key redacted', () => {
    const error = networkFailure(`connect ECONNREFUSED (key ${call.apiKey})`, call, () => true);
    expect(error.kind).toBe('network');
    expect(error.message).toBe('Connection error: connect ECONNREFUSED (key [redacted])');
    expect(error.classification?.retryable).toBe(true);
    expect(describeTurnFailure(error)).toBe(`Could not reach the provider: ${error.message}`);
  });

  it('is a plain, unclassified offline error when the browser has no network', () => {
    const error = networkFailure('Failed to fetch', call, () => false);
    expect(error.kind).toBe('offline');
    expect(error.classification).toBeUndefined();
    expect(error.isRetryable).toBe(false);
    // The chat shows the message as it is, not as a "provider error".
    expect(describeTurnFailure(error)).toBe(error.message);
    expect(error.message).toBe(
      'You are offline: the OpenAI-compatible endpoint cannot be reached without a network connection.',
    );
  });

  it('uses navigator.onLine when no probe is given', () => {
    vi.stubGlobal('navigator', { onLine: false });
    expect(networkFailure('Failed to fetch', call).kind).toBe('offline');
  });
});
