/**
 * The mock's token counter: ceil(characters / 4) of each cache segment's JSON text, markers
 * left out (so marking a message does not change its size). Deterministic and close enough to
 * real tokenizers for the sizes tests need; never compare it with a real provider's counts.
 */
export const MOCK_CHARACTERS_PER_TOKEN = 4;

export function mockTokenCount(text: string): number {
  return Math.ceil(text.length / MOCK_CHARACTERS_PER_TOKEN);
}

/** JSON text of a value without any `cache_control` key, at any depth. */
export function markerFreeJson(value: unknown): string {
  return JSON.stringify(value, (key, entry: unknown) => (key === 'cache_control' ? undefined : entry));
}

/**
 * Tokens of a chat message as if it carried no marker. A marked string content becomes
 * `[{type:'text', text, cache_control}]`; folding it back keeps a message's size the same
 * whether or not this turn marks it, which the prefix keys of the cache simulator rely on.
 */
export function mockMessageTokens(message: Record<string, unknown>): number {
  const json = markerFreeJson(message);
  const content = message.content;
  if (Array.isArray(content) && content.length === 1) {
    const only: unknown = content[0];
    if (typeof only === 'object' && only !== null) {
      const { cache_control: _marker, ...rest } = only as Record<string, unknown>;
      if (rest.type === 'text' && typeof rest.text === 'string' && Object.keys(rest).length === 2) {
        return mockTokenCount(markerFreeJson({ ...message, content: rest.text }));
      }
    }
  }
  return mockTokenCount(json);
}
