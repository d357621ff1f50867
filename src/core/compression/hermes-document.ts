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
  let savedOld: Map<number, number> | null = null;
  let savedDedupe: Map<number, number> | null = null;

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
  const savings = (): { old: Map<number, number>; dedupe: Map<number, number> } => {
    if (savedOld && savedDedupe) return { old: savedOld, dedupe: savedDedupe };
    const variants = document.pruning();
    const tokens = measure().tokens;
    const old = new Map<number, number>();
    const dedupe = new Map<number, number>();
    for (const item of variants.candidates) {
      const target = item.kind === 'duplicate' ? dedupe : old;
      if (target.has(item.index)) continue;
      const variant = item.kind === 'duplicate' ? variants.dedupeOnly : variants.fullyPruned;
      const after = estimateMessagesTokensRough([variant[item.index]!], preset, sizeCache);
      target.set(item.index, Math.max(0, tokens[item.index]! - after));
    }
    // A duplicate stays a duplicate below the boundary too.
    for (const [index, saved] of dedupe) if (!old.has(index)) old.set(index, saved);
    savedOld = old;
    savedDedupe = dedupe;
    return { old, dedupe };
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
    savedRoughTokens: (index, old) => (old ? savings().old : savings().dedupe).get(index) ?? 0,
  };
  return document;
}
