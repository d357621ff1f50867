import type { Preset } from '../presets/preset.ts';
import type { CacheTtl } from './apply-cache-control.ts';

export type ApiMode = 'anthropic_messages' | 'chat_completions' | 'codex_responses';

export interface CacheRoute {
  /** Provider id as Hermes spells it: 'anthropic', 'openrouter', 'openai', 'custom', 'minimax', … */
  provider: string;
  model: string;
  baseUrl: string;
  apiMode: ApiMode | (string & {});
}

export interface CachePolicy {
  shouldCache: boolean;
  /** Markers on inner content blocks (Anthropic wire) rather than on the OpenAI-wire envelope. */
  nativeLayout: boolean;
  /** For an enabled policy, the source Hermes prints (`native Anthropic`, …); else why it is off. */
  description: string;
}

/**
 * Whether to send Anthropic `cache_control` markers and in which layout
 * (`anthropic_prompt_cache_policy`, hermes-reference §8). The first matching rule wins.
 *
 * Hermes knows OpenRouter by its base URL; a route with no base URL whose provider is
 * `openrouter` is treated the same, because the app may describe routes by provider alone.
 */
export function resolveCachePolicy(route: CacheRoute, preset: Preset): CachePolicy {
  const provider = route.provider.trim().toLowerCase();
  const model = route.model.toLowerCase();
  const baseUrl = route.baseUrl.trim();
  const host = hostnameOf(baseUrl);
  const isClaude = model.includes('claude');
  const isAnthropicWire = route.apiMode === 'anthropic_messages';
  const isOpenRouter = hostMatches(host, 'openrouter.ai') || (baseUrl === '' && provider === 'openrouter');
  const isNativeAnthropic = isAnthropicWire && (provider === 'anthropic' || host === 'api.anthropic.com');
  const isQwen = model.includes('qwen');
  const isAlibabaFamily = ['opencode', 'opencode-zen', 'opencode-go', 'alibaba'].includes(provider);

  const claudeRoutesOnly = preset.caching.policy === 'claude-routes';
  if (isNativeAnthropic) return enabled(true, provider === 'anthropic' || claudeRoutesOnly);
  if (claudeRoutesOnly) {
    if (isOpenRouter && isClaude) return enabled(false, false);
    if (isAnthropicWire && isClaude) return enabled(true, true);
    if (isAlibabaFamily && isQwen) return enabled(false, false);
    return disabled(route);
  }
  const isNousPortal = baseUrl.toLowerCase().includes('nousresearch');
  const isKimi = model.includes('kimi') || model.includes('moonshot');
  if ((isOpenRouter || isNousPortal) && (isClaude || isKimi)) return enabled(false, false);
  if (isNousPortal && isQwen) return enabled(false, false);
  if (isAnthropicWire && isClaude) return enabled(true, false);
  if (isAnthropicWire) {
    const isMiniMax =
      provider === 'minimax' ||
      provider === 'minimax-cn' ||
      hostMatches(host, 'api.minimax.io') ||
      hostMatches(host, 'api.minimaxi.com');
    if (isMiniMax) return enabled(true, false);
  }
  if (isAlibabaFamily && isQwen) return enabled(false, false);
  return disabled(route);
}

/**
 * The startup status line Hermes prints (without its 💾 prefix), e.g.
 * `Prompt caching: ENABLED (Claude via OpenRouter, 5m TTL)`. Hermes prints nothing when caching
 * is off; the app shows `Prompt caching: DISABLED (<why>)` instead.
 */
export function describeCacheStatus(policy: CachePolicy, ttl: CacheTtl, routeLabel?: string): string {
  const label = routeLabel ?? policy.description;
  return policy.shouldCache
    ? `Prompt caching: ENABLED (${label}, ${ttl} TTL)`
    : `Prompt caching: DISABLED (${label})`;
}

/**
 * Hermes names the source from the layout: native layout on provider `anthropic` is
 * `native Anthropic`, other native-layout routes are an `Anthropic-compatible endpoint`
 * (2026-07; 2026-04 called every native route `native Anthropic`), and envelope routes print
 * `Claude via OpenRouter` whatever the model.
 */
function enabled(nativeLayout: boolean, nativeAnthropic: boolean): CachePolicy {
  const description = !nativeLayout
    ? 'Claude via OpenRouter'
    : nativeAnthropic
      ? 'native Anthropic'
      : 'Anthropic-compatible endpoint';
  return { shouldCache: true, nativeLayout, description };
}

function disabled(route: CacheRoute): CachePolicy {
  const who = route.model === '' ? 'this model' : route.model;
  const where = route.provider === '' ? 'this route' : route.provider;
  return {
    shouldCache: false,
    nativeLayout: false,
    description: `${who} on ${where} does not take cache_control markers`,
  };
}

/** Lowercased host of a URL-ish string; '' when there is none. Tolerates a missing scheme. */
export function hostnameOf(baseUrl: string): string {
  const trimmed = baseUrl.trim().toLowerCase();
  if (trimmed === '') return '';
  const withoutScheme = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const authority = withoutScheme.split(/[/?#]/, 1)[0] ?? '';
  const hostAndPort = authority.includes('@') ? authority.slice(authority.lastIndexOf('@') + 1) : authority;
  if (hostAndPort.startsWith('[')) return hostAndPort.slice(0, hostAndPort.indexOf(']') + 1);
  return hostAndPort.split(':', 1)[0] ?? '';
}

/** True for the host itself or any subdomain of it. */
export function hostMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}
