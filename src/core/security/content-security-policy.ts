/**
 * The page's Content-Security-Policy (SPEC §8): scripts only from the app itself, no third-party
 * anything, and network connections only to the app and the LLM providers the user configured.
 *
 * A policy delivered in a `<meta>` tag can be tightened later but never loosened, so the app
 * installs it once at start with the configured provider origins; changing the provider's base
 * URL reloads the page to install a policy naming the new origin.
 */
export function buildContentSecurityPolicy(providerBaseUrls: readonly string[]): string {
  const origins = [
    ...new Set(providerBaseUrls.map(originOf).filter((origin): origin is string => origin !== null)),
  ];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    // Svelte sets style attributes for layout (widths of map regions); no inline <script> is allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${["'self'", ...origins].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');
}

/** `https://api.anthropic.com/v1` → `https://api.anthropic.com`; null for anything not http(s). */
export function originOf(url: string): string | null {
  const match = /^(https?):\/\/([^/?#\s]+)/i.exec(url.trim());
  if (!match) return null;
  return `${match[1]!.toLowerCase()}://${match[2]!.toLowerCase()}`;
}
