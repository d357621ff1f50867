import { assessmentRoute } from '../io/llm/assessment-route.ts';
import { describeCacheStatus, resolveCachePolicy } from '../core/caching/cache-policy.ts';
import type { Summarizer } from '../core/compression/summarizer.ts';
import { normalizeCacheTtl, type CacheTtl } from '../core/config/compression-config.ts';
import { maskApiKey } from '../core/lab/mask-api-key.ts';
import type { AssessmentRoute } from '../core/lab/assess-compaction.ts';
import { lookupModel } from '../core/models/model-catalog.ts';
import { modelPickerOptions, type ModelPickerOption } from '../core/models/model-picker-options.ts';
import type { Preset } from '../core/presets/preset.ts';
import type { ChatClient, ChatProvider, ChatResponse } from '../io/llm/chat-client.ts';
import {
  DEFAULT_BASE_URLS,
  effectiveOrigin,
  hermesProviderName,
  type ProviderSettings,
} from '../io/llm/provider-settings.ts';
import { connectBlockedMessage } from '../io/security/connect-policy-guard.ts';
import type { SettingsRepository } from '../io/db/settings-repository.ts';

export const PROVIDER_SETTING_KEY = 'provider';
/**
 * Keys are stored per provider and, within it, per origin (`{ "https://api.anthropic.com": key }`),
 * so switching back and forth keeps each, and a key is only ever sent to the origin it was saved for.
 */
export const apiKeySettingKey = (provider: ChatProvider): string => `api-key:${provider}`;

/** Origin → key, one provider's stored keys. */
type KeysByOrigin = Record<string, string>;

export const CHAT_PROVIDERS = ['anthropic', 'openai-compatible'] as const satisfies readonly ChatProvider[];
export const PROVIDER_LABELS: Readonly<Record<ChatProvider, string>> = {
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible',
};
/**
 * Anthropic's default is the cheapest current Claude with a 200K window: in a compaction lab
 * summaries cost little and compaction fires within a few dozen turns, and the demo (~95K
 * tokens) shows a head, a middle and a tail. The model's window is the one setting the map,
 * plan, replay, comparison and chat share, so a 1M-window default would draw the demo as all
 * tail. Any model can be picked, and any model's window set.
 */
const DEFAULT_MODELS: Readonly<Record<ChatProvider, string>> = {
  anthropic: 'claude-haiku-4-5',
  'openai-compatible': 'gpt-5.4',
};

/** Everything about the provider connection except the key. */
export interface ProviderConfig {
  provider: ChatProvider;
  baseUrl: string;
  model: string;
  /** Hermes' auxiliary compression model; '' means the main model summarises. */
  auxiliaryModel: string;
  cacheTtl: CacheTtl;
  /**
   * Windows the user set, by model id, where they know better than the catalog. One window per
   * model, read by the map, the plan, the replay, the comparison and the chat alike.
   */
  contextWindows: Readonly<Record<string, number>>;
}

const DEFAULT_PROVIDER_CONFIG: Readonly<ProviderConfig> = Object.freeze({
  provider: 'anthropic',
  baseUrl: DEFAULT_BASE_URLS.anthropic,
  model: DEFAULT_MODELS.anthropic,
  auxiliaryModel: '',
  cacheTtl: '5m',
  contextWindows: {},
});

const isChatProvider = (value: unknown): value is ChatProvider =>
  (CHAT_PROVIDERS as readonly unknown[]).includes(value);

function isProviderConfig(value: unknown): value is ProviderConfig {
  if (!value || typeof value !== 'object') return false;
  const config = value as Record<string, unknown>;
  return (
    isChatProvider(config.provider) &&
    typeof config.baseUrl === 'string' &&
    typeof config.model === 'string' &&
    typeof config.auxiliaryModel === 'string' &&
    (config.cacheTtl === '5m' || config.cacheTtl === '1h') &&
    isContextWindows(config.contextWindows)
  );
}

const isWindow = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_CONTEXT_WINDOW;

function isContextWindows(value: unknown): value is Record<string, number> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(isWindow)
  );
}

/**
 * A stored config: today's shape, or round 1's with one `contextWindowOverride` for the model of
 * the time (kept as that model's window).
 */
function isStoredProviderConfig(value: unknown): value is ProviderConfig | LegacyProviderConfig {
  if (isProviderConfig(value)) return true;
  if (!value || typeof value !== 'object') return false;
  const { contextWindowOverride, ...rest } = value as Record<string, unknown>;
  return (
    (contextWindowOverride === null || isWindow(contextWindowOverride)) &&
    isProviderConfig({ ...rest, contextWindows: {} })
  );
}

interface LegacyProviderConfig extends Omit<ProviderConfig, 'contextWindows'> {
  contextWindowOverride: number | null;
}

function upgradeProviderConfig(stored: ProviderConfig | LegacyProviderConfig): ProviderConfig {
  if ('contextWindows' in stored) return stored;
  const { contextWindowOverride, ...rest } = stored;
  return {
    ...rest,
    contextWindows: contextWindowOverride === null ? {} : { [rest.model]: contextWindowOverride },
  };
}

/** The largest window a user can set (10M tokens: beyond every model in the catalog). */
export const MAX_CONTEXT_WINDOW = 10_000_000;

const isKey = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** Stored keys: by origin, or a bare key as stored before keys were bound to origins. */
const isStoredKeys = (value: unknown): value is KeysByOrigin | string =>
  isKey(value) ||
  (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isKey));

export interface SummarizerHooks {
  /** Each streamed piece of the summary as it arrives. */
  onDelta(text: string): void;
  /** Notices from the summariser: the window check, an auxiliary model that failed. */
  onNotice(notice: string): void;
  /** Each whole provider response (its usage), for callers that record what was billed. */
  onResponse?(response: ChatResponse): void;
}

/**
 * The provider connection: which API, where, which model, and the user's key. The key stays in
 * this browser's IndexedDB and in this object; the UI only ever sees a masked hint of it
 * (SPEC §8), and it goes only to the provider it was saved for.
 */
export class ProviderState {
  readonly #repository: SettingsRepository;
  #config = $state.raw<ProviderConfig>(DEFAULT_PROVIDER_CONFIG);
  /** Not reactive and never exposed: only hints leave this class. */
  #keys: Partial<Record<ChatProvider, KeysByOrigin>> = {};
  #keyHints = $state<Partial<Record<ChatProvider, KeysByOrigin>>>({});

  /** Catalog models offered in pickers, with their known windows. */
  readonly modelOptions: readonly ModelPickerOption[] = modelPickerOptions();

  constructor(repository: SettingsRepository) {
    this.#repository = repository;
  }

  get config(): ProviderConfig {
    return this.#config;
  }

  get provider(): ChatProvider {
    return this.#config.provider;
  }

  get label(): string {
    return PROVIDER_LABELS[this.#config.provider];
  }

  /** Where requests go now: the base URL's origin, or the provider's default. */
  get origin(): string {
    return effectiveOrigin(this.#config) ?? '';
  }

  /** True when a key is stored for the current provider and base URL origin. */
  get hasKey(): boolean {
    return this.#keyHints[this.#config.provider]?.[this.origin] !== undefined;
  }

  /** `sk-ant-…9f2c`, or '' when no key is stored for the current provider and origin. */
  get keyHint(): string {
    return this.#keyHints[this.#config.provider]?.[this.origin] ?? '';
  }

  /**
   * Origins this provider has a key for, other than the current one: the base URL changed since
   * the key was saved, and the key stays with the origin it was saved for.
   */
  get keyOrigins(): string[] {
    return Object.keys(this.#keyHints[this.#config.provider] ?? {}).filter(
      (origin) => origin !== this.origin,
    );
  }

  /** "Reload to allow HOST" when the page's security policy, set at load, blocks the base URL. */
  get reloadNeeded(): string | null {
    return connectBlockedMessage(this.#config.baseUrl.trim() || DEFAULT_BASE_URLS[this.#config.provider]);
  }

  /** The catalog's window for the model. */
  get catalogWindow(): number {
    return lookupModel(this.#config.model).contextLength;
  }

  /** The model's window: the one the user set for it, or the catalog's. */
  get contextWindow(): number {
    return this.contextWindowFor(this.#config.model);
  }

  /** Any model's window: the one the user set for it, or the catalog's (a stored chat's model). */
  contextWindowFor(model: string): number {
    return this.#config.contextWindows[model] ?? lookupModel(model).contextLength;
  }

  /** The user set this model's window themselves. */
  get contextWindowOverridden(): boolean {
    return this.#config.contextWindows[this.#config.model] !== undefined;
  }

  /**
   * Sets the current model's window; the catalog's own value (or null) clears the override.
   * Returns false for a value that is not a whole number of tokens in range.
   */
  async setContextWindow(tokens: number | null): Promise<boolean> {
    if (tokens !== null && !isWindow(tokens)) return false;
    const { [this.#config.model]: _previous, ...others } = this.#config.contextWindows;
    const contextWindows =
      tokens === null || tokens === this.catalogWindow ? others : { ...others, [this.#config.model]: tokens };
    await this.#save({ ...this.#config, contextWindows });
    return true;
  }

  /**
   * What compaction settings take from the provider: the window, the summary model, the cache TTL.
   * The window is the current model's, or `model`'s (a stored chat recorded with another one).
   */
  compressionRoute(model?: string): { contextLength: number; summaryModel: string; cacheTtl: CacheTtl } {
    return {
      contextLength: model === undefined ? this.contextWindow : this.contextWindowFor(model),
      summaryModel: this.#config.auxiliaryModel,
      cacheTtl: this.#config.cacheTtl,
    };
  }

  /** Hermes' startup line for this route, e.g. `Prompt caching: ENABLED (native Anthropic, 5m TTL)`. */
  cacheStatus(preset: Preset): string {
    const config = this.#config;
    const policy = resolveCachePolicy(
      {
        provider: hermesProviderName(config),
        model: config.model,
        baseUrl: config.baseUrl,
        apiMode: config.provider === 'anthropic' ? 'anthropic_messages' : 'chat_completions',
      },
      preset,
    );
    return describeCacheStatus(policy, config.cacheTtl);
  }

  /**
   * Where a replayed or compared compaction is priced: this model on this route, with prompt
   * caching on, as Hermes sends it by default — or, for a transcript recorded with another model,
   * that model on its usual route.
   */
  assessmentRoute(recordedModel?: string | null): AssessmentRoute {
    const config = this.#config;
    return assessmentRoute({ ...config, promptCaching: true }, recordedModel);
  }

  /** The connection for a client, or null without a key (the offline summariser is used then). */
  providerSettings(): ProviderSettings | null {
    const keyOrigin = this.origin;
    const apiKey = this.#keys[this.#config.provider]?.[keyOrigin];
    if (!apiKey) return null;
    const { provider, baseUrl, model } = this.#config;
    return { provider, baseUrl, model, apiKey, keyOrigin };
  }

  async load(): Promise<void> {
    const config = upgradeProviderConfig(
      await this.#repository.get<ProviderConfig | LegacyProviderConfig>(
        PROVIDER_SETTING_KEY,
        DEFAULT_PROVIDER_CONFIG,
        isStoredProviderConfig,
      ),
    );
    const hints: Partial<Record<ChatProvider, KeysByOrigin>> = {};
    for (const provider of CHAT_PROVIDERS) {
      const stored = await this.#repository.get<KeysByOrigin | string>(
        apiKeySettingKey(provider),
        {},
        isStoredKeys,
      );
      let keys: KeysByOrigin;
      if (typeof stored === 'string') {
        // A key saved before keys were bound to origins: it belongs to the base URL in use then.
        const origin = effectiveOrigin(config.provider === provider ? config : { provider, baseUrl: '' });
        keys = origin === null ? {} : { [origin]: stored.trim() };
        await this.#repository.set(apiKeySettingKey(provider), keys);
      } else keys = stored;
      this.#keys[provider] = { ...keys };
      hints[provider] = Object.fromEntries(
        Object.entries(keys).map(([origin, key]) => [origin, maskApiKey(key)]),
      );
    }
    this.#config = { ...config, cacheTtl: normalizeCacheTtl(config.cacheTtl) };
    this.#keyHints = hints;
  }

  /** Switching provider moves a default base URL and model to the new provider's defaults. */
  async setProvider(provider: ChatProvider): Promise<void> {
    const current = this.#config;
    if (current.provider === provider) return;
    const baseUrl =
      current.baseUrl === '' || current.baseUrl === DEFAULT_BASE_URLS[current.provider]
        ? DEFAULT_BASE_URLS[provider]
        : current.baseUrl;
    const model =
      current.model === DEFAULT_MODELS[current.provider] ? DEFAULT_MODELS[provider] : current.model;
    await this.#save({ ...current, provider, baseUrl, model });
  }

  async update(patch: Partial<Omit<ProviderConfig, 'provider'>>): Promise<void> {
    const next = { ...this.#config, ...patch };
    if (!isProviderConfig(next)) return;
    await this.#save(next);
  }

  /** Stores the key for the current provider and origin. Returns false for an empty key. */
  async saveKey(key: string): Promise<boolean> {
    const trimmed = key.trim();
    const origin = this.origin;
    if (trimmed === '' || origin === '') return false;
    const provider = this.#config.provider;
    const keys = { ...this.#keys[provider], [origin]: trimmed };
    this.#keys[provider] = keys;
    this.#keyHints = {
      ...this.#keyHints,
      [provider]: { ...this.#keyHints[provider], [origin]: maskApiKey(trimmed) },
    };
    await this.#repository.set(apiKeySettingKey(provider), keys);
    return true;
  }

  /** Removes the key of the current provider and origin. */
  async removeKey(): Promise<void> {
    const provider = this.#config.provider;
    const origin = this.origin;
    const keys = { ...this.#keys[provider] };
    delete keys[origin];
    this.#keys[provider] = keys;
    const hints = { ...this.#keyHints[provider] };
    delete hints[origin];
    this.#keyHints = { ...this.#keyHints, [provider]: hints };
    if (Object.keys(keys).length === 0) await this.#repository.delete(apiKeySettingKey(provider));
    else await this.#repository.set(apiKeySettingKey(provider), keys);
  }

  /**
   * The provider's summariser with streaming reported to `hooks`, or null without a key. The
   * LLM code loads on first use, so it stays out of the first screen's bundle.
   */
  async createSummarizer(preset: Preset, hooks: SummarizerHooks): Promise<Summarizer | null> {
    const [client, { createLlmSummarizer }] = await Promise.all([
      this.createChatClient(preset),
      import('../io/llm/llm-summarizer.ts'),
    ]);
    if (!client) return null;
    // The summariser asks for a streamed reply but passes no handlers: tap the text deltas.
    const streaming: ChatClient = {
      provider: client.provider,
      model: client.model,
      send: async (request, handlers, signal) => {
        const response = await client.send(
          request,
          {
            ...handlers,
            onTextDelta: (text) => {
              handlers?.onTextDelta?.(text);
              hooks.onDelta(text);
            },
          },
          signal,
        );
        hooks.onResponse?.(response);
        return response;
      },
    };
    return createLlmSummarizer({
      client: streaming,
      auxiliaryModel: this.#config.auxiliaryModel || null,
      contextLengthOf: (model) => lookupModel(model).contextLength,
      onNotice: (notice) => hooks.onNotice(notice),
    });
  }

  /** A client for the main model, or null without a key; the LLM code loads on first use. */
  async createChatClient(preset: Preset): Promise<ChatClient | null> {
    const settings = this.providerSettings();
    if (!settings) return null;
    const { createChatClient } = await import('../io/llm/create-chat-client.ts');
    return createChatClient(settings, { preset });
  }

  async #save(config: ProviderConfig): Promise<void> {
    this.#config = config;
    await this.#repository.set(PROVIDER_SETTING_KEY, config);
  }
}
