/**
 * What Hermes' phases 1–2 need to know about one transcript that does not depend on the
 * settings, computed at most once and only when first asked for: each message's rough size
 * (the Python-repr length of up to 100 KB of text) and what pruning would make of each tool
 * output. The lab's planner keeps one per open transcript and preset, so a settings change on
 * 10,000 messages re-walks two boundaries instead of re-measuring and re-pruning everything;
 * `compress()` takes the same document, so a compaction after a plan measures nothing twice.
 */
import type { Preset } from '../presets/preset.ts';
import {
  estimateMessagesTokensRough,
  roughMessageSize,
  roughTokensFromSizes,
  type RoughSizeCache,
} from '../tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '../tokens/estimate-request-tokens-rough.ts';
import { estimateToolsTokensRough } from '../tokens/estimate-tools-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { prepareToolPruning, type ToolPruning } from './prune-old-tool-results.ts';
import type { SummaryTextCache } from './serialize-for-summary.ts';

export interface HermesDocument {
  readonly preset: Preset;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSchema[];
  /** Per-message sizes by message identity; pruned copies are measured into it as needed. */
  readonly sizeCache: RoughSizeCache;
  /** Each message (pruned copies included) as the summariser reads it under this preset. */
  readonly summaryTextCache: SummaryTextCache;
  /** Each message's rough tokens on its own. */
  roughTokens(): Int32Array;
  /** `estimate_messages_tokens_rough(messages)`. */
  roughMessagesTokens(): number;
  /** `estimate_request_tokens_rough(messages, '', tools)`: the trigger's count in the lab. */
  roughRequestTokens(): number;
  /** The tool schemas' rough tokens. */
  roughToolsTokens(): number;
  pruning(): ToolPruning;
  /** Rough tokens pruning reclaims at `index` when the message is old (below the boundary) or not. */
  savedRoughTokens(index: number, old: boolean): number;
}

/**
 * Whether `document` measured exactly these messages under this preset: the same message
 * objects in the same order (identity, not equality). A copy of the list qualifies, so the
 * planner's document still serves a compaction that was handed `[...messages]`.
 */
export function isDocumentFor(
  document: HermesDocument | undefined,
  messages: readonly Message[],
  preset: Preset,
): document is HermesDocument {
  if (document === undefined || !Object.is(document.preset, preset)) return false;
  const measured = document.messages;
  if (measured === messages) return true;
  if (measured.length !== messages.length) return false;
  for (let index = 0; index < messages.length; index++) if (measured[index] !== messages[index]) return false;
  return true;
}

export function createHermesDocument(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  preset: Preset,
  sizeCache: RoughSizeCache = new WeakMap(),
  summaryTextCache: SummaryTextCache = new WeakMap(),
): HermesDocument {
  let sizes: { chars: number; images: number; tokens: Int32Array } | null = null;
  let requestTokens: number | null = null;
  let toolsTokens: number | null = null;
  let pruning: ToolPruning | null = null;

  const measure = () => {
    if (sizes) return sizes;
    const tokens = new Int32Array(messages.length);
    let chars = 0;
    let images = 0;
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      let size = sizeCache.get(message);
      if (!size) {
        size = roughMessageSize(message, preset);
        sizeCache.set(message, size);
      }
      tokens[index] = roughTokensFromSizes(size.chars, size.images);
      chars += size.chars;
      images += size.images;
    }
    sizes = { chars, images, tokens };
    return sizes;
  };
  // Savings are measured per message when first asked for: the planner asks only for the
  // messages pruning replaces at its boundary, so the protected tail is never pruned for them.
  const savedOld = new Map<number, number>();
  const savedDedupe = new Map<number, number>();
  const savedBy = (index: number, variant: Message): number => {
    const after = estimateMessagesTokensRough([variant], preset, sizeCache);
    return Math.max(0, measure().tokens[index]! - after);
  };
  const dedupeSaving = (index: number): number => {
    let saved = savedDedupe.get(index);
    if (saved === undefined) {
      const variants = document.pruning();
      saved = variants.isDuplicate(index) ? savedBy(index, variants.dedupeOnly[index]!) : 0;
      savedDedupe.set(index, saved);
    }
    return saved;
  };
  // An old message saves what pruning it as old saves; a duplicate stays a duplicate below the
  // boundary too.
  const oldSaving = (index: number): number => {
    let saved = savedOld.get(index);
    if (saved === undefined) {
      const variant = document.pruning().oldVariant(index);
      saved = variant.replaced ? savedBy(index, variant.message) : dedupeSaving(index);
      savedOld.set(index, saved);
    }
    return saved;
  };

  const document: HermesDocument = {
    preset,
    messages,
    tools,
    sizeCache,
    summaryTextCache,
    roughTokens: () => measure().tokens,
    roughMessagesTokens: () => {
      const { chars, images } = measure();
      return roughTokensFromSizes(chars, images);
    },
    roughRequestTokens: () => {
      measure();
      requestTokens ??= estimateRequestTokensRough(messages, '', tools, preset, sizeCache);
      return requestTokens;
    },
    roughToolsTokens: () => (toolsTokens ??= estimateToolsTokensRough(tools, preset)),
    pruning: () => (pruning ??= prepareToolPruning(messages, preset)),
    savedRoughTokens: (index, old) => (old ? oldSaving(index) : dedupeSaving(index)),
  };
  return document;
}
