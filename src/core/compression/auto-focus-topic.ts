/**
 * The automatic focus topic (2026-07, hermes-reference §5.6): without a manual `/compress
 * <focus>`, every compaction still asks the summariser to prioritise the latest few things the
 * user said, taken from the whole list including the protected tail.
 */
import type { Preset } from '../presets/preset.ts';
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';
import type { Message } from '../transcript/message.ts';
import { contentTextForContains } from './content-text.ts';
import { collapseWhitespace, pythonRStrip, pythonStrip } from './python-text.ts';
import { isSummaryMessage } from './real-user-message.ts';
import { redactCompactionText } from './redact-sensitive-text.ts';

export const AUTO_FOCUS_MAX_TURNS = 3;
export const AUTO_FOCUS_TURN_MAX_CHARS = 260;
export const AUTO_FOCUS_MAX_CHARS = 700;

/** `text[:limit - 1].rstrip() + "…"` when longer than `limit`. */
function ellipsize(text: string, limit: number): string {
  if (pythonLength(text) <= limit) return text;
  return pythonRStrip(pythonSlice(text, 0, limit - 1)) + '…';
}

/** `Recent user focus:\n- a\n- b\n- c` (oldest first), or null when no user spoke. */
export function deriveAutoFocusTopic(messages: readonly Message[], preset: Preset): string | null {
  const candidates: string[] = [];
  for (let index = messages.length - 1; index >= 0 && candidates.length < AUTO_FOCUS_MAX_TURNS; index--) {
    const message = messages[index]!;
    if (message.role !== 'user' || isSummaryMessage(message, preset)) continue;
    const text = redactCompactionText(pythonStrip(contentTextForContains(message.content)));
    if (!text) continue;
    candidates.push(ellipsize(collapseWhitespace(text), AUTO_FOCUS_TURN_MAX_CHARS));
  }
  if (candidates.length === 0) return null;
  candidates.reverse();
  const focus = 'Recent user focus:\n' + candidates.map((item) => `- ${item}`).join('\n');
  return ellipsize(focus, AUTO_FOCUS_MAX_CHARS);
}
