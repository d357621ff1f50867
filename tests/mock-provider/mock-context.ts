import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PromptCacheState } from '#core/caching/simulate-prompt-cache.ts';
import type { MockScriptStep } from './mock-script.ts';

/** Settings changeable at run time (`POST /__config`) and at start. */
export interface MockProviderConfig {
  /** The model window in (mock) tokens; bigger prompts get the provider's overflow error. */
  contextWindow: number;
  /** Anthropic route: reject `input + max_tokens > window` with the output-cap 400. */
  enforceOutputCap: boolean;
  /** When set, any other key gets a 401. By default any non-empty key is accepted. */
  requiredApiKey: string | null;
  /**
   * How the OpenAI route reports cache usage: OpenAI's `prompt_tokens_details` (`cached_tokens`,
   * `cache_write_tokens`), or the top-level Anthropic-style `cache_read_input_tokens` /
   * `cache_creation_input_tokens` that proxies in front of Claude (LiteLLM and the like) send.
   */
  openAiCacheUsage: 'prompt-tokens-details' | 'anthropic-fields';
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names, as node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body is JSON, else the raw text (empty for GET/OPTIONS). */
  body: unknown;
}

/** What the route handlers share: the clock, the script queue, the cache and counters. */
export interface MockContext {
  config: MockProviderConfig;
  nowMs(): number;
  nextStep(): MockScriptStep | undefined;
  /** Prompt-cache state per API and model, as a real provider keeps it per model. */
  cacheStates: Map<string, PromptCacheState>;
  nextId(prefix: string): string;
  /** Responses held open by a `timeout` step, released when the client goes away. */
  hanging: Set<ServerResponse>;
}

export type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  context: MockContext,
) => void;
