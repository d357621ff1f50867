/**
 * What session hygiene hands to the compressor (hermes-reference §4.5). 2026-07 passes the
 * full transcript without system messages, tool results included. 2026-04 passed only user
 * and assistant turns with non-empty text, reduced to `{role, content}`: tool calls and their
 * results did not reach the compacted continuation (they stay in the parent session).
 */
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';

const PRIMARY_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'tool']);

export function hygieneInputMessages(history: readonly Message[], preset: Preset): Message[] {
  if (preset.loop.hygieneInput === 'primary-roles')
    return history.filter((message) => PRIMARY_ROLES.has(message.role));
  const kept: Message[] = [];
  for (const message of history) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    if (!hasContent(message.content)) continue;
    kept.push({ role: message.role, content: message.content });
  }
  return kept;
}

/** Python truthiness of the content: a non-empty string or a non-empty list/dict. */
function hasContent(content: Message['content']): boolean {
  if (typeof content === 'string') return content !== '';
  if (Array.isArray(content)) return content.length > 0;
  if (content && typeof content === 'object') return Object.keys(content).length > 0;
  return false;
}
