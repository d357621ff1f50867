/**
 * Reasoning models whose streams may think for minutes (`agent/reasoning_timeouts.py`): a
 * disconnect on one is treated as a timeout, never as overflow (hermes-reference §7.1 step 11).
 * Matched as a slug prefix after any `vendor/`, ending at the slug or a `-`, `.` or `_`.
 */
const REASONING_MODEL_SLUGS = [
  'nemotron-3-ultra',
  'nemotron-3-super',
  'nemotron-3-nano',
  'deepseek-r1',
  'deepseek-reasoner',
  'qwq-32b',
  'qwen3',
  'o1-pro',
  'o1-preview',
  'o1-mini',
  'o1',
  'o3-pro',
  'o3-mini',
  'o3',
  'o4-mini',
  'claude-opus-4',
  'claude-sonnet-4.5',
  'claude-sonnet-4.6',
  'grok-4-fast-reasoning',
  'grok-4.20-reasoning',
  'grok-4-fast-non-reasoning',
] as const;

export function isReasoningModel(model: string): boolean {
  const slug = (model.trim().toLowerCase().split('/').pop() ?? '').trim();
  if (slug === '') return false;
  return REASONING_MODEL_SLUGS.some((prefix) => {
    if (!slug.startsWith(prefix)) return false;
    const next = slug.charAt(prefix.length);
    return next === '' || next === '-' || next === '.' || next === '_';
  });
}
