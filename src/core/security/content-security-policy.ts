/**
 * The page's Content-Security-Policy (SPEC §8): scripts only from the app itself, no third-party
 * anything, and network connections only to the app and the LLM providers the user configured.
 *
 * A policy delivered in a `<meta>` tag can be tightened later but never loosened, so the app
 * installs it once at start, naming the configured provider's origin (plus loopback for local
 * servers); a base URL on another host takes effect at the next page load.
 */
export interface ConnectPolicy {
  /** Exact origins, e.g. `https://api.anthropic.com`. */
  origins: string[];
  /** Local model servers on any port (`http://localhost:*`, `http://127.0.0.1:*`). */
  allowLoopback: boolean;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1'] as const;

export function connectPolicyFor(providerBaseUrls: readonly string[], allowLoopback = true): ConnectPolicy {
  const origins = [
    ...new Set(providerBaseUrls.map(originOf).filter((origin): origin is string => origin !== null)),
  ];
  return { origins, allowLoopback };
}

export function buildContentSecurityPolicy(policy: ConnectPolicy): string {
  const loopback = policy.allowLoopback ? LOOPBACK_HOSTS.map((host) => `http://${host}:*`) : [];
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval' lets the app compile its own WebAssembly (the text scans of core/tokens
    // and the secret screen of core/compression, from bytes inside its scripts); it allows no
    // JavaScript eval.
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    // Svelte sets style attributes for layout (widths of map regions); no inline <script> is allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${["'self'", ...policy.origins, ...loopback].join(' ')}`,
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

/**
 * Whether the policy lets the page connect to `url`: its origin is listed, or it is a loopback
 * server over http (any port) and loopback is allowed. The page's own origin is not considered:
 * a provider is never the app itself.
 */
export function isConnectAllowed(policy: ConnectPolicy, url: string): boolean {
  const origin = originOf(url);
  if (origin === null) return false;
  if (policy.origins.includes(origin)) return true;
  if (!policy.allowLoopback || !origin.startsWith('http://')) return false;
  const hostname = origin.slice('http://'.length).replace(/:\d*$/, '');
  return (LOOPBACK_HOSTS as readonly string[]).includes(hostname);
}
