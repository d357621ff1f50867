import {
  buildContentSecurityPolicy,
  type ConnectPolicy,
} from '../../core/security/content-security-policy.ts';

/**
 * Adds the policy as a `<meta http-equiv>` tag. Browsers enforce a meta policy from the moment it
 * is inserted, so this runs before any provider request; once installed it cannot be loosened.
 */
export function installContentSecurityPolicy(document: Document, policy: ConnectPolicy): void {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = buildContentSecurityPolicy(policy);
  document.head.prepend(meta);
}
