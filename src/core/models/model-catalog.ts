/**
 * Built-in context windows and output caps, for when a provider does not report them.
 * Values are the providers' published limits; unknown models fall back to Hermes'
 * `DEFAULT_FALLBACK_CONTEXT` (the first 2026-07 probe tier).
 */
export const DEFAULT_FALLBACK_CONTEXT_TOKENS = 256_000;
/** Hermes refuses models below this window: too little room for tool-calling work. */
export const MINIMUM_CONTEXT_LENGTH_TOKENS = 64_000;
const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
const ONE_MILLION_TOKENS = 1_000_000;

export type ModelFamily =
  | 'claude'
  | 'gpt'
  | 'o-series'
  | 'gemini'
  | 'llama'
  | 'qwen'
  | 'deepseek'
  | 'mistral'
  | 'kimi'
  | 'glm'
  | 'other';

export interface ModelInfo {
  contextLength: number;
  maxOutputTokens: number;
  /** False when the fallback was used. */
  known: boolean;
  family: ModelFamily;
}

type Limits = readonly [contextLength: number, maxOutputTokens: number];

/**
 * Keys are lowercase id prefixes; the longest key that prefixes the (normalised) id wins, so
 * `gpt-4.1-mini` beats `gpt-4.1` beats `gpt-4`.
 */
const CATALOG: Readonly<Record<string, Limits>> = {
  // Anthropic. Sonnet 4/4.5 take a 1M window with the long-context beta (the `[1m]` suffix).
  'claude-opus-4-7': [ONE_MILLION_TOKENS, 128_000],
  'claude-opus-4-6': [ONE_MILLION_TOKENS, 128_000],
  'claude-opus-4-5': [200_000, 64_000],
  'claude-opus-4-1': [200_000, 32_000],
  'claude-opus-4': [200_000, 32_000],
  'claude-sonnet-4-6': [ONE_MILLION_TOKENS, 64_000],
  'claude-sonnet-4-5': [200_000, 64_000],
  'claude-sonnet-4': [200_000, 64_000],
  'claude-haiku-4-5': [200_000, 64_000],
  'claude-3-7-sonnet': [200_000, 64_000],
  'claude-3-5-sonnet': [200_000, 8192],
  'claude-3-5-haiku': [200_000, 8192],
  'claude-3-opus': [200_000, 4096],
  'claude-3-haiku': [200_000, 4096],
  claude: [200_000, 8192],
  // OpenAI.
  'gpt-5.5': [1_050_000, 128_000],
  'gpt-5.4-mini': [400_000, 128_000],
  'gpt-5.4-nano': [400_000, 128_000],
  'gpt-5.4': [1_050_000, 128_000],
  'gpt-5.3-codex-spark': [128_000, 32_000],
  'gpt-5.1-chat': [128_000, 16_384],
  'gpt-5-chat': [128_000, 16_384],
  'gpt-5': [400_000, 128_000],
  'gpt-4.1': [1_047_576, 32_768],
  'gpt-4o': [128_000, 16_384],
  'gpt-4-turbo': [128_000, 4096],
  'gpt-4': [8192, 8192],
  'gpt-3.5-turbo': [16_385, 4096],
  'gpt-oss': [131_072, 131_072],
  'o1-mini': [128_000, 65_536],
  o1: [200_000, 100_000],
  o3: [200_000, 100_000],
  'o4-mini': [200_000, 100_000],
  // Google.
  'gemini-3': [1_048_576, 65_536],
  'gemini-2.5': [1_048_576, 65_536],
  'gemini-2.0': [1_048_576, 8192],
  'gemini-1.5-pro': [2_097_152, 8192],
  'gemini-1.5-flash': [1_048_576, 8192],
  gemini: [1_048_576, 8192],
  // Open-weight families, at their common hosted limits.
  'llama-4-maverick': [1_048_576, 16_384],
  'llama-4-scout': [327_680, 16_384],
  'llama-3.3': [131_072, 8192],
  'llama-3.2': [131_072, 8192],
  'llama-3.1': [131_072, 8192],
  'llama-3': [8192, 8192],
  llama: [131_072, 8192],
  'qwen3-coder': [262_144, 65_536],
  'qwen3-235b-a22b-2507': [262_144, 32_768],
  qwen3: [131_072, 32_768],
  'qwen2.5': [131_072, 8192],
  qwq: [131_072, 32_768],
  qwen: [131_072, 8192],
  'deepseek-reasoner': [128_000, 64_000],
  'deepseek-r1': [128_000, 32_768],
  'deepseek-chat': [128_000, 8192],
  'deepseek-v3': [128_000, 8192],
  deepseek: [128_000, 8192],
  'mistral-large': [128_000, 8192],
  'mistral-small': [128_000, 8192],
  codestral: [256_000, 8192],
  mistral: [32_768, 8192],
  'kimi-k2': [262_144, 16_384],
  'glm-4.5': [131_072, 16_384],
  'glm-4.6': [204_800, 131_072],
};

/** ChatGPT-subscription (Codex OAuth) routes cap GPT-5.5 at 272K tokens. */
const CODEX_ROUTE_CONTEXT: Readonly<Record<string, number>> = { 'gpt-5.5': 272_000, 'gpt-5.4': 272_000 };

const SORTED_KEYS = Object.keys(CATALOG).sort((first, second) => second.length - first.length);

/**
 * Limits for a model id in any of its spellings: exact, OpenRouter `vendor/model`, dotted
 * Anthropic versions (`claude-sonnet-4.5`), dated snapshots (`-20250929`), then the longest
 * family prefix. A `[1m]` suffix selects the 1M-token long-context window. `route: 'codex'`
 * applies the ChatGPT-subscription cap.
 */
export function lookupModel(modelId: string, route: 'api' | 'codex' = 'api'): ModelInfo {
  const longContext = /\[1m\]$/i.test(modelId.trim());
  const normalized = normalizeModelId(modelId);
  const key =
    SORTED_KEYS.find((candidate) => normalized === candidate || startsFamily(normalized, candidate)) ??
    SORTED_KEYS.find((candidate) => containsFamily(normalized, candidate));
  if (key === undefined) {
    return {
      contextLength: longContext ? ONE_MILLION_TOKENS : DEFAULT_FALLBACK_CONTEXT_TOKENS,
      maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
      known: false,
      family: familyOf(normalized),
    };
  }
  const [contextLength, maxOutputTokens] = CATALOG[key]!;
  const codexCap = route === 'codex' ? CODEX_ROUTE_CONTEXT[key] : undefined;
  return {
    contextLength: codexCap ?? (longContext ? Math.max(contextLength, ONE_MILLION_TOKENS) : contextLength),
    maxOutputTokens,
    known: true,
    family: familyOf(normalized),
  };
}

/** Lowercase, no `vendor/` prefix, no `[1m]` or `:free`-style suffix, Anthropic dots as dashes. */
export function normalizeModelId(modelId: string): string {
  let id = modelId
    .trim()
    .toLowerCase()
    .replace(/\[1m\]$/, '');
  id = id.split('/').pop() ?? id;
  id = id.replace(/:[a-z0-9-]+$/, '');
  if (id.startsWith('claude')) id = id.replace(/(\d)\.(\d)/g, '$1-$2');
  return id;
}

/** A prefix only counts at a segment boundary: `o1` matches `o1-preview`, not `o10`. */
function startsFamily(id: string, key: string): boolean {
  if (!id.startsWith(key)) return false;
  const next = id.charAt(key.length);
  return next === '-' || next === '.' || next === '_' || next === ':' || next === '@' || /[a-z]/.test(next);
}

/** Second pass for prefixed ids such as `meta-llama-3.1-8b-instruct`: the key after a `-`. */
function containsFamily(id: string, key: string): boolean {
  let from = id.indexOf(`-${key}`);
  while (from !== -1) {
    if (startsFamily(id.slice(from + 1), key) || id.length === from + 1 + key.length) return true;
    from = id.indexOf(`-${key}`, from + 1);
  }
  return false;
}

function familyOf(id: string): ModelFamily {
  if (id.startsWith('claude')) return 'claude';
  if (/^o\d/.test(id)) return 'o-series';
  if (id.startsWith('gpt')) return 'gpt';
  if (id.startsWith('gemini')) return 'gemini';
  if (id.includes('llama')) return 'llama';
  if (id.startsWith('qwen') || id.startsWith('qwq')) return 'qwen';
  if (id.startsWith('deepseek')) return 'deepseek';
  if (id.startsWith('mistral') || id.startsWith('codestral') || id.startsWith('magistral')) return 'mistral';
  if (id.startsWith('kimi')) return 'kimi';
  if (id.startsWith('glm')) return 'glm';
  return 'other';
}
