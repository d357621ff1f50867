import { describe, expect, it } from 'vitest';
import {
  buildContentSecurityPolicy,
  connectPolicyFor,
  isConnectAllowed,
  originOf,
} from '#core/security/content-security-policy.ts';

describe('originOf', () => {
  it('keeps scheme, host and port and drops the path', () => {
    expect(originOf('https://api.anthropic.com/v1/messages')).toBe('https://api.anthropic.com');
    expect(originOf('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(originOf('HTTPS://OpenRouter.ai/api/v1')).toBe('https://openrouter.ai');
  });

  it('rejects anything that is not an http(s) URL', () => {
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('api.openai.com')).toBeNull();
  });
});

describe('buildContentSecurityPolicy', () => {
  it('allows connections only to the app, the configured providers and loopback', () => {
    const policy = buildContentSecurityPolicy(
      connectPolicyFor(['https://api.anthropic.com/v1', 'https://api.anthropic.com', 'nonsense']),
    );
    expect(policy).toContain(
      "connect-src 'self' https://api.anthropic.com http://localhost:* http://127.0.0.1:*;",
    );
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("object-src 'none'");
  });

  it("lets the app's own service worker and web app manifest load, and nothing from elsewhere", () => {
    const directives = new Map(
      buildContentSecurityPolicy(connectPolicyFor(['https://api.openai.com/v1']))
        .split('; ')
        .map((directive) => {
          const [name, ...sources] = directive.split(' ');
          return [name!, sources] as const;
        }),
    );
    // Service worker registration is checked against worker-src (then script-src).
    expect(directives.get('worker-src')).toEqual(["'self'"]);
    // Scripts only from the app; WebAssembly compiled from its own bytes, no JavaScript eval.
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    // No manifest-src: the manifest falls back to default-src.
    expect(directives.has('manifest-src')).toBe(false);
    expect(directives.get('default-src')).toEqual(["'self'"]);
  });

  it('allows only the app itself when no provider is configured and loopback is off', () => {
    expect(buildContentSecurityPolicy(connectPolicyFor([], false))).toContain("connect-src 'self';");
  });
});

describe('isConnectAllowed', () => {
  const policy = { origins: ['https://api.anthropic.com', 'https://openrouter.ai'], allowLoopback: true };

  it('allows the listed origins and loopback servers over http on any port', () => {
    expect(isConnectAllowed(policy, 'https://api.anthropic.com/v1/messages')).toBe(true);
    expect(isConnectAllowed(policy, 'https://OpenRouter.ai/api/v1')).toBe(true);
    expect(isConnectAllowed(policy, 'http://localhost:11434/v1')).toBe(true);
    expect(isConnectAllowed(policy, 'http://127.0.0.1:8787')).toBe(true);
  });

  it('refuses other hosts, other schemes of the same host, and loopback when it is not allowed', () => {
    expect(isConnectAllowed(policy, 'http://evil.example')).toBe(false);
    expect(isConnectAllowed(policy, 'http://api.anthropic.com')).toBe(false);
    expect(isConnectAllowed(policy, 'https://localhost:8443')).toBe(false);
    expect(isConnectAllowed(policy, 'http://localhost.evil.example')).toBe(false);
    expect(isConnectAllowed({ ...policy, allowLoopback: false }, 'http://localhost:11434')).toBe(false);
    expect(isConnectAllowed(policy, 'not a url')).toBe(false);
  });
});
