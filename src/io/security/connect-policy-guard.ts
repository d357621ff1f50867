import {
  isConnectAllowed,
  originOf,
  type ConnectPolicy,
} from '../../core/security/content-security-policy.ts';

/**
 * What the page's Content-Security-Policy lets it connect to. The page has one policy, installed
 * once at start and never loosened (`installContentSecurityPolicy`), so this is page-wide state.
 * Without a policy (the dev server, unit tests) every connection is allowed here.
 */
let installedPolicy: ConnectPolicy | null = null;
/** Origins the browser reported blocking (`securitypolicyviolation`, `connect-src`). */
const blockedOrigins = new Set<string>();

export function rememberInstalledPolicy(policy: ConnectPolicy): void {
  installedPolicy = policy;
}

/** The part of `Document` used, so tests can pass a fake event target. */
export interface ViolationEventTarget {
  addEventListener(
    type: 'securitypolicyviolation',
    listener: (event: {
      effectiveDirective?: string;
      violatedDirective?: string;
      blockedURI?: string;
    }) => void,
  ): void;
}

/** Records every origin the policy blocked a connection to, as the browser reports them. */
export function watchConnectViolations(target: ViolationEventTarget): void {
  target.addEventListener('securitypolicyviolation', (event) => {
    const directive = event.effectiveDirective ?? event.violatedDirective ?? '';
    if (!directive.startsWith('connect-src')) return;
    const origin = originOf(event.blockedURI ?? '');
    if (origin !== null) blockedOrigins.add(origin);
  });
}

/**
 * Null when the page may connect to `url`; otherwise what to tell the user: the policy was set when
 * the page loaded, so a base URL on another host needs a reload, not a retry.
 */
export function connectBlockedMessage(url: string): string | null {
  const origin = originOf(url);
  if (origin === null) return null;
  const blocked =
    blockedOrigins.has(origin) || (installedPolicy !== null && !isConnectAllowed(installedPolicy, url));
  if (!blocked) return null;
  const host = new URL(origin).host;
  return (
    `Reload the page to allow ${host}: the page's security policy was set when it loaded and only ` +
    'lets it connect to the providers configured then.'
  );
}

/** Forgets the installed policy and the recorded violations (tests). */
export function resetConnectPolicyGuard(): void {
  installedPolicy = null;
  blockedOrigins.clear();
}
