import type { ContextCategory } from '../../core/lab/categorize-context.ts';
import { assertNever } from '../../core/shared/assert-never.ts';

/**
 * The colour of a category in the category view. Each tool's results are a shade of the tool
 * colour, lighter with rank, so the largest tool stands out and the rest stay recognisable.
 */
export function categoryColor(category: ContextCategory, toolRank: number): string {
  switch (category.kind) {
    case 'system':
      return 'var(--role-system)';
    case 'tool-schemas':
      return 'var(--region-tools)';
    case 'tool-results':
      return `color-mix(in srgb, var(--role-tool) ${Math.max(35, 100 - toolRank * 15)}%, var(--surface))`;
    case 'thinking':
      return 'var(--category-thinking)';
    case 'user':
      return 'var(--role-user)';
    case 'assistant':
      return 'var(--role-assistant)';
    case 'summaries':
      return 'var(--marker-foreign)';
    case 'other':
      return 'var(--role-other)';
    case 'free-space':
      return 'transparent';
    default:
      return assertNever(category.kind);
  }
}
