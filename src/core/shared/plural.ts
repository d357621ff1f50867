import { formatCount } from './format-count.ts';

/**
 * A count with its noun in the right number: `1 message`, `2 messages`, `1,204 summaries`. The
 * one pluralisation of the app, so no label says "1 msgs" or "1 duplicates". Irregular plurals
 * are passed in.
 *
 * @example plural(1, 'duplicate') // '1 duplicate'
 * @example plural(3, 'summary', 'summaries') // '3 summaries'
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
