/** Known key prefixes worth showing: they tell the user which kind of key is stored. */
const KEY_PREFIXES = ['sk-ant-', 'sk-or-v1-', 'sk-or-', 'sk-proj-', 'sk-'] as const;
const VISIBLE_SUFFIX_CHARS = 4;
/** Shorter keys show only two trailing characters, so at most a third of them is ever visible. */
const SHORT_KEY_CHARS = 12;

/**
 * A hint that identifies a stored key without revealing it: `sk-ant-…9f2c`. The key itself is
 * never shown again after saving (SPEC §8).
 */
export function maskApiKey(key: string): string {
  const trimmed = key.trim();
  if (trimmed === '') return '';
  if (trimmed.length <= SHORT_KEY_CHARS) return `…${trimmed.slice(-2)}`;
  const prefix = KEY_PREFIXES.find((candidate) => trimmed.startsWith(candidate)) ?? '';
  return `${prefix}…${trimmed.slice(-VISIBLE_SUFFIX_CHARS)}`;
}
