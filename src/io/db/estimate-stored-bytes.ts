import type { Message } from '../../core/transcript/message.ts';

/**
 * Bytes a stored character costs, roughly: the message row (one or two bytes per character in
 * IndexedDB's serialisation) plus its search postings and the store's own overhead. An estimate
 * for the room check before a large write, not an accounting.
 */
const STORED_BYTES_PER_CHAR = 3;
/** Nesting deeper than this is not walked; such values are rare and the figure only a guide. */
const MAXIMUM_WALK_DEPTH = 16;

/** About how many bytes of browser storage storing `messages` takes. */
export function estimateStoredBytes(messages: readonly Message[]): number {
  let characters = 0;
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'string') characters += value.length;
    else if (typeof value === 'number' || typeof value === 'boolean') characters += 8;
    else if (value !== null && typeof value === 'object' && depth < MAXIMUM_WALK_DEPTH) {
      for (const [key, child] of Object.entries(value)) {
        characters += key.length;
        walk(child, depth + 1);
      }
    }
  };
  for (const message of messages) walk(message, 0);
  return characters * STORED_BYTES_PER_CHAR;
}
