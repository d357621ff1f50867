import type { ProviderState } from './provider-state.svelte.ts';

/**
 * Calls `onChange` whenever the saved provider base URL changes (not on the first reading), so
 * the composition root can reinstall the connection policy when it no longer covers the origin.
 * Returns the function that stops watching.
 */
export function watchProviderBaseUrl(
  provider: ProviderState,
  onChange: (baseUrl: string) => void,
): () => void {
  let first = true;
  return $effect.root(() => {
    $effect(() => {
      const baseUrl = provider.config.baseUrl;
      if (first) {
        first = false;
        return;
      }
      onChange(baseUrl);
    });
  });
}
