import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import { messageText, type Message } from '../transcript/message.ts';

/**
 * Everything the model sees after a compaction, as separate pieces of raw text: each message's
 * text content, each tool call's name and the string values of its arguments (decoded, so a
 * path in `{"file_path": "…"}` reads as written and `\n` escapes do not glue words together),
 * and any `texts` shown outside the messages (a summary held apart, re-attached files). Nothing
 * is capped or copied: this is the ground truth a fact is looked up in, and no phrase matches
 * across two pieces.
 *
 * @example collectVisibleTexts([{ role: 'assistant', content: 'ok', tool_calls: [call] }]) // ['ok', 'Bash', 'npm test']
 */
export function collectVisibleTexts(
  messages: readonly Message[],
  texts: readonly string[] = [],
  /** Each message's pieces from earlier calls (the transcript's `MessageCaches.visibleTexts`). */
  cache?: VisibleTextsCache,
): string[] {
  const pieces: string[] = [];
  for (const message of messages) {
    if (cache === undefined) {
      pushMessageTexts(message, pieces);
      continue;
    }
    let own = cache.get(message);
    if (own === undefined) {
      const collected: string[] = [];
      pushMessageTexts(message, collected);
      cache.set(message, collected);
      own = collected;
    }
    for (const piece of own) pieces.push(piece);
  }
  for (const text of texts) if (text !== '') pieces.push(text);
  return pieces;
}

/**
 * Per message, its pieces of visible text: a compacted context mostly repeats the messages the
 * previous one showed, whose tool arguments would otherwise be parsed again each time.
 */
export type VisibleTextsCache = WeakMap<Message, readonly string[]>;

function pushMessageTexts(message: Message, pieces: string[]): void {
  const text = messageText(message);
  if (text !== '') pieces.push(text);
  for (const call of message.tool_calls ?? []) {
    const name = call.function?.name;
    if (typeof name === 'string' && name !== '') pieces.push(name);
    const rawArguments = call.function?.arguments;
    if (typeof rawArguments === 'string' && rawArguments !== '') pushArgumentTexts(rawArguments, pieces);
  }
}

function pushArgumentTexts(rawArguments: string, pieces: string[]): void {
  const parsed = rawArguments.trimStart().startsWith('{') ? safeParseJson(rawArguments) : null;
  if (parsed?.ok) pushStrings(parsed.value, pieces);
  else pieces.push(rawArguments);
}

function pushStrings(value: unknown, pieces: string[]): void {
  if (typeof value === 'string') {
    if (value !== '') pieces.push(value);
  } else if (Array.isArray(value)) {
    // An argument vector (`["git", "status"]`) reads as the command line it is.
    if (value.length > 0 && value.every((item) => typeof item === 'string')) pieces.push(value.join(' '));
    else for (const item of value) pushStrings(item, pieces);
  } else if (isPlainObject(value)) for (const item of Object.values(value)) pushStrings(item, pieces);
  else if (typeof value === 'number' || typeof value === 'boolean') pieces.push(String(value));
}
