import {
  buildContentSecurityPolicy,
  type ConnectPolicy,
} from '../../core/security/content-security-policy.ts';
import { rememberInstalledPolicy } from './connect-policy-guard.ts';

/**
 * Adds the policy as a `<meta http-equiv>` tag. Browsers enforce a meta policy from the moment it
 * is inserted, so this runs before any provider request; once installed it cannot be loosened.
 * The guard remembers it, so a request it would block is refused with "reload to allow HOST".
 */
export function installContentSecurityPolicy(document: Document, policy: ConnectPolicy): void {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = buildContentSecurityPolicy(policy);
  document.head.prepend(meta);
  rememberInstalledPolicy(policy);
}
