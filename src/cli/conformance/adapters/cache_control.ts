import { applyCacheControl } from '../../../core/caching/apply-cache-control.ts';
import type { Message } from '../../../core/transcript/message.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface CacheControlInput {
  messages: Message[];
  cache_ttl: string;
  native_anthropic: boolean;
}

export const adapter: VectorAdapter = {
  inputKeys: () => ['messages', 'cache_ttl', 'native_anthropic'],
  run(testCase, preset) {
    const input = testCase.input as CacheControlInput;
    return applyCacheControl(
      input.messages,
      { ttl: input.cache_ttl, nativeLayout: input.native_anthropic },
      preset,
    );
  },
};
