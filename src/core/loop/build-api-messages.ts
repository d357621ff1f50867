/**
 * The message list of one provider request, in Hermes' order (hermes-reference §8 "Where it
 * runs"): the system prompt becomes `messages[0]`, cache markers are applied, and only then
 * does the wire sanitiser run, so stubs it inserts never carry a marker. In-process `_` keys
 * are removed here too (the clients drop them again; the request must never depend on that).
 */
import { applyCacheControl, type CacheTtl } from '../caching/apply-cache-control.ts';
import type { CachePolicy } from '../caching/cache-policy.ts';
import { sanitizeApiMessages } from '../compression/sanitize-api-messages.ts';
import type { Preset } from '../presets/preset.ts';
import { stripInProcessKeys } from '../providers/strip-in-process-keys.ts';
import type { Message } from '../transcript/message.ts';

export interface ApiMessagesOptions {
  readonly systemPrompt: string;
  /** Null when caching is switched off for this conversation. */
  readonly cachePolicy: CachePolicy | null;
  readonly cacheTtl: CacheTtl;
  readonly preset: Preset;
}

export interface ApiMessages {
  readonly messages: Message[];
  /** True when cache markers were applied (the client keeps them; otherwise it strips any). */
  readonly cacheMarkersApplied: boolean;
}

export function buildApiMessages(history: readonly Message[], options: ApiMessagesOptions): ApiMessages {
  const withSystem: Message[] = [
    ...(options.systemPrompt ? [{ role: 'system', content: options.systemPrompt }] : []),
    ...history.map((message) => stripInProcessKeys(message)),
  ];
  const caching = options.cachePolicy?.shouldCache === true;
  const marked = caching
    ? applyCacheControl(
        withSystem,
        { ttl: options.cacheTtl, nativeLayout: options.cachePolicy.nativeLayout },
        options.preset,
      )
    : withSystem;
  return { messages: sanitizeApiMessages(marked, options.preset), cacheMarkersApplied: caching };
}
