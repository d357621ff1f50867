import { messagePreview } from '../transcript/message-preview.ts';
import type { Message } from '../transcript/message.ts';
import { messageSearchText } from './message-search-text.ts';

const ELLIPSIS = '…';

/** What a search hit says about its message: the excerpt and the preview of the message before. */
export interface SnippetLocation {
  snippet: string;
  contextBefore: string | null;
}

/**
 * The index of the message a search hit's snippet was cut from, or -1: the snippet (whitespace
 * collapsed, `…` at cut ends) is matched against each message's search text. When several
 * messages hold the same text (a continuation repeats its parent's head), the one whose
 * predecessor matches the hit's `contextBefore` wins, then the first.
 */
export function locateSnippetMessage(messages: readonly Message[], hit: SnippetLocation): number {
  let core = hit.snippet;
  if (core.startsWith(ELLIPSIS)) core = core.slice(ELLIPSIS.length);
  if (core.endsWith(ELLIPSIS)) core = core.slice(0, -ELLIPSIS.length);
  core = core.trim();
  if (core === '') return -1;
  let first = -1;
  for (let index = 0; index < messages.length; index++) {
    const text = messageSearchText(messages[index]!).replace(/\s+/g, ' ');
    if (!text.includes(core)) continue;
    const previous = index > 0 ? messagePreview(messages[index - 1]!) : null;
    if (previous === hit.contextBefore) return index;
    if (first < 0) first = index;
  }
  return first;
}
