/**
 * The category view (like Claude Code's `/context`): where the context's tokens go, by system
 * prompt, tool schemas, each tool's results, thinking, user, assistant and summaries, and the
 * window's free space. Counted on the plan's token basis, so the categories in use add up to
 * exactly the map's total.
 */
import type { ContextMessageClass, ContextMessageKind } from './classify-context-messages.ts';

export const CONTEXT_CATEGORY_KINDS = [
  'system',
  'tool-schemas',
  'tool-results',
  'thinking',
  'user',
  'assistant',
  'summaries',
  'other',
  'free-space',
] as const;
export type ContextCategoryKind = (typeof CONTEXT_CATEGORY_KINDS)[number];

export interface ContextCategory {
  /** `system`, `tool-schemas`, `tool-results:<tool>` (`tool-results` for unnamed tools), `thinking`, … `free-space`. */
  readonly id: string;
  readonly kind: ContextCategoryKind;
  readonly label: string;
  readonly tokens: number;
  /** Messages with tokens in the category (0 for tool schemas and free space). */
  readonly messages: number;
}

export interface ContextCategories {
  /** Fixed order: system, tool schemas, tool results (largest first), thinking, user, assistant, summaries, other, free space. */
  readonly categories: readonly ContextCategory[];
  /** Tokens in use: every category but free space (= the map's total). */
  readonly usedTokens: number;
  readonly windowTokens: number;
  /** Whether reasoning is part of the basis (the rough estimate measures it; exact counts leave it out). */
  readonly thinkingCounted: boolean;
}

export interface CategorizeRequest {
  readonly classes: readonly ContextMessageClass[];
  /** Tokens per message in the plan's basis. */
  readonly tokensPerMessage: ArrayLike<number>;
  readonly toolsTokens: number;
  readonly windowTokens: number;
  /** Whether the basis measured reasoning: then each message's tokens are split by characters. */
  readonly thinkingCounted: boolean;
}

type MessageBucket = 'system' | 'thinking' | 'user' | 'assistant' | 'summaries' | 'other';

/** The category of a message's tokens that are not reasoning (tool results go by tool). */
const BUCKET_OF_KIND: Readonly<Record<Exclude<ContextMessageKind, 'tool-result'>, MessageBucket>> = {
  system: 'system',
  user: 'user',
  assistant: 'assistant',
  summary: 'summaries',
  other: 'other',
};

const FIXED_LABELS: Readonly<Record<Exclude<ContextCategoryKind, 'tool-results'>, string>> = {
  system: 'System prompt',
  'tool-schemas': 'Tool schemas',
  thinking: 'Thinking',
  user: 'User messages',
  assistant: 'Assistant messages',
  summaries: 'Compaction summaries',
  other: 'Other roles',
  'free-space': 'Free space',
};

/**
 * Splits the plan's per-message tokens into categories. A message with reasoning gives thinking
 * the share of its tokens its reasoning has of its characters (rounded; the rest stays with the
 * message's own category), so every message's tokens are counted once and the sum is exact.
 *
 * @example
 * categorizeContext({ classes, tokensPerMessage: [100, 40], toolsTokens: 60, windowTokens: 1000, thinkingCounted: true })
 * // categories: system 100, tool schemas 60, …, free space 800
 */
export function categorizeContext(request: CategorizeRequest): ContextCategories {
  const { classes, tokensPerMessage, toolsTokens, windowTokens, thinkingCounted } = request;
  const fixed = new Map<MessageBucket, { tokens: number; messages: number }>(
    (['system', 'thinking', 'user', 'assistant', 'summaries', 'other'] as const).map((kind) => [
      kind,
      { tokens: 0, messages: 0 },
    ]),
  );
  const byTool = new Map<string, { tokens: number; messages: number }>();
  let used = toolsTokens;
  for (let index = 0; index < classes.length; index++) {
    const messageClass = classes[index]!;
    const tokens = tokensPerMessage[index] ?? 0;
    used += tokens;
    const characters = messageClass.reasoningChars + messageClass.otherChars;
    const thinking =
      thinkingCounted && characters > 0 ? Math.round((tokens * messageClass.reasoningChars) / characters) : 0;
    if (thinking > 0) add(fixed.get('thinking')!, thinking);
    const rest = tokens - thinking;
    if (messageClass.kind === 'tool-result') {
      let bucket = byTool.get(messageClass.tool);
      if (!bucket) byTool.set(messageClass.tool, (bucket = { tokens: 0, messages: 0 }));
      add(bucket, rest);
    } else add(fixed.get(BUCKET_OF_KIND[messageClass.kind])!, rest);
  }
  const category = (
    kind: Exclude<ContextCategoryKind, 'tool-results'>,
    tokens: number,
    messages: number,
  ) => ({
    id: kind,
    kind,
    label: FIXED_LABELS[kind],
    tokens,
    messages,
  });
  const toolResults: ContextCategory[] = [...byTool]
    .sort(
      ([leftTool, left], [rightTool, right]) =>
        right.tokens - left.tokens || leftTool.localeCompare(rightTool),
    )
    .map(([tool, bucket]) => ({
      id: tool === '' ? 'tool-results' : `tool-results:${tool}`,
      kind: 'tool-results',
      label: tool === '' ? 'Results of an unnamed tool' : `${tool} results`,
      tokens: bucket.tokens,
      messages: bucket.messages,
    }));
  const fixedCategory = (kind: Exclude<MessageBucket, 'other'>): ContextCategory => {
    const bucket = fixed.get(kind)!;
    return category(kind, bucket.tokens, bucket.messages);
  };
  const other = fixed.get('other')!;
  return {
    categories: [
      fixedCategory('system'),
      category('tool-schemas', toolsTokens, 0),
      ...toolResults,
      fixedCategory('thinking'),
      fixedCategory('user'),
      fixedCategory('assistant'),
      fixedCategory('summaries'),
      ...(other.messages > 0 ? [category('other', other.tokens, other.messages)] : []),
      category('free-space', Math.max(0, windowTokens - used), 0),
    ],
    usedTokens: used,
    windowTokens,
    thinkingCounted,
  };
}

function add(bucket: { tokens: number; messages: number }, tokens: number): void {
  if (tokens <= 0) return;
  bucket.tokens += tokens;
  bucket.messages += 1;
}
