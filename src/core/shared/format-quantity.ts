import { formatCount } from './format-count.ts';

/**
 * A count with its noun, singular for one: `1 message`, `2,048 messages`. `plural` defaults to
 * the noun plus "s".
 *
 * @example formatQuantity(1, 'duplicate') // '1 duplicate'
 */
export function formatQuantity(count: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : plural}`;
}
