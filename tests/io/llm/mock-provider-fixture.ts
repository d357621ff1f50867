import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startMockProvider, type MockProvider } from '#tests/mock-provider/mock-provider-server.ts';

/** One mock provider per test file, reset before each test; `fetch` records every URL it is asked for. */
export function useMockProvider(): {
  mock: () => MockProvider;
  urls: string[];
  recordingFetch: typeof fetch;
} {
  let mock: MockProvider | undefined;
  const urls: string[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return fetch(input, init);
  };
  beforeAll(async () => {
    mock = await startMockProvider({ port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });
  beforeEach(() => {
    mock?.reset();
    urls.length = 0;
  });
  return {
    mock: () => {
      if (!mock) throw new Error('mock provider not started');
      return mock;
    },
    urls,
    recordingFetch,
  };
}

/** A system prompt well over the 1,024-token minimum a prefix needs to be cached. */
export const LONG_SYSTEM_PROMPT = 'You are a careful coding agent. Follow the house rules. '.repeat(120);
