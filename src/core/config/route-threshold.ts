import type { CompressionConfig } from './compression-config.ts';

/** Which model is served, and through which provider route. */
export interface ModelRoute {
  provider: string | null;
  model: string | null;
  /** An explicit route id; `codex-oauth` marks the ChatGPT Codex OAuth backend like provider `openai-codex`. */
  route?: string | null;
}

export interface RouteThresholdResult {
  thresholdPercent: number;
  /** Why the percentage changed, for the UI; null when no rule applied. */
  reason: string | null;
}

/** The Codex OAuth backend caps these models' windows (gpt-5.5: 272K), so the trigger moves up. */
export const CODEX_OAUTH_TRIGGER_PERCENT = 0.85;

const CODEX_OAUTH_PROVIDER = 'openai-codex';
const CODEX_OAUTH_ROUTE = 'codex-oauth';
const RAISED_FAMILIES = ['gpt-5.4', 'gpt-5.5', 'gpt-5.6'] as const;
const CODEX_SPARK = 'codex-spark';

/** `provider/gpt-5.5` → `gpt-5.5`, lower-cased. */
const bareModel = (model: string): string => model.trim().toLowerCase().split('/').pop() ?? '';

/** Context variants (`-900k`) get the full window and keep the global threshold. */
const isContextVariant = (bare: string): boolean => bare.endsWith('-900k') || bare.includes(':900k');

function raisedFamily(bare: string): string | null {
  if (isContextVariant(bare)) return null;
  for (const family of RAISED_FAMILIES) {
    if (bare === family || bare.startsWith(`${family}-`) || bare.startsWith(`${family}.`)) return family;
  }
  return bare.includes(CODEX_SPARK) ? bare : null;
}

const isCodexOauthRoute = (route: ModelRoute): boolean =>
  (route.provider ?? '').trim().toLowerCase() === CODEX_OAUTH_PROVIDER ||
  (route.route ?? '').trim().toLowerCase() === CODEX_OAUTH_ROUTE;

const percentText = (fraction: number): string => `${Math.round(fraction * 100)}%`;

/**
 * The `codex_gpt55_autoraise` rule: on the ChatGPT Codex OAuth route, gpt-5.4/5.5/5.6 and
 * codex-spark trigger at 85%. The raise only ever increases the percentage and can be switched
 * off with `compression.codex_gpt55_autoraise: false`.
 */
export function applyRouteThresholdRules(
  thresholdPercent: number,
  route: ModelRoute,
  config: Pick<CompressionConfig, 'codexGpt55Autoraise'>,
): RouteThresholdResult {
  const unchanged = { thresholdPercent, reason: null };
  if (!config.codexGpt55Autoraise || !isCodexOauthRoute(route) || !route.model) return unchanged;
  const family = raisedFamily(bareModel(route.model));
  if (family === null || CODEX_OAUTH_TRIGGER_PERCENT <= thresholdPercent) return unchanged;
  return {
    thresholdPercent: CODEX_OAUTH_TRIGGER_PERCENT,
    reason:
      `${family} on the Codex OAuth route: trigger raised from ${percentText(thresholdPercent)} ` +
      `to ${percentText(CODEX_OAUTH_TRIGGER_PERCENT)} (compression.codex_gpt55_autoraise)`,
  };
}
