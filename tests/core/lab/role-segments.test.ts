import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageRoles } from '#core/lab/message-roles.ts';
import { roleSegments, type RoleSegment } from '#core/lab/role-segments.ts';

/** The token bar's segments as TokenBar.svelte computed them before: runs as objects, then buckets. */
function reference(roles: MessageRoles, tokens: number[], total: number, max: number) {
  const runs: RoleSegment[] = [];
  let last: RoleSegment | undefined;
  let lastCode = -1;
  for (let i = 0; i < roles.codes.length; i++) {
    const code = roles.codes[i]!;
    const count = tokens[i] ?? 0;
    if (last !== undefined && code === lastCode) {
      last.end = i + 1;
      last.tokens += count;
    } else {
      last = { role: roles.names[code] ?? '', start: i, end: i + 1, tokens: count };
      lastCode = code;
      runs.push(last);
    }
  }
  let segments = runs;
  if (runs.length > max) {
    const bucketTokens = Math.max(1, total / max);
    segments = [];
    let bucket: { start: number; end: number; tokens: number; byRole: Map<string, number> } | null = null;
    const flush = (): void => {
      if (!bucket) return;
      let role = '';
      let most = -1;
      for (const [candidate, roleTokens] of bucket.byRole)
        if (roleTokens > most) {
          most = roleTokens;
          role = candidate;
        }
      segments.push({ role, start: bucket.start, end: bucket.end, tokens: bucket.tokens });
      bucket = null;
    };
    for (const run of runs) {
      bucket ??= { start: run.start, end: run.end, tokens: 0, byRole: new Map() };
      bucket.end = run.end;
      bucket.tokens += run.tokens;
      bucket.byRole.set(run.role, (bucket.byRole.get(run.role) ?? 0) + run.tokens);
      if (bucket.tokens >= bucketTokens) flush();
    }
    flush();
  }
  const byRole = new Map<string, number>();
  for (const run of runs) byRole.set(run.role, (byRole.get(run.role) ?? 0) + run.tokens);
  return { segments, tokensByRole: [...byRole.entries()] };
}

const NAMES = ['system', 'user', 'assistant', 'tool'];

describe('roleSegments', () => {
  it('gives the segments and role totals the object-per-run version gave, with and without buckets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 500 })), {
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 12 }),
        (messages, max) => {
          // Codes in order of first appearance, as messageRoles numbers them.
          const order: number[] = [];
          for (const [role] of messages) if (!order.includes(role)) order.push(role);
          const roles: MessageRoles = {
            codes: Uint32Array.from(messages, ([role]) => order.indexOf(role)),
            names: order.map((role) => NAMES[role]!),
          };
          const tokens = messages.map(([, count]) => count);
          const total = tokens.reduce((sum, count) => sum + count, 0);
          expect(roleSegments(roles, tokens, total, max)).toEqual(reference(roles, tokens, total, max));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('bounds the segments of 30,000 alternating messages and keeps every token', () => {
    const roles: MessageRoles = {
      codes: Uint32Array.from({ length: 30_000 }, (_, i) => i % 2),
      names: ['assistant', 'tool'],
    };
    const tokens = Array.from({ length: 30_000 }, (_, i) => (i % 2 === 0 ? 1 : 3));
    const { segments, tokensByRole } = roleSegments(roles, tokens, 60_000, 240);
    expect(segments.length).toBeLessThanOrEqual(240);
    expect(segments.reduce((sum, segment) => sum + segment.tokens, 0)).toBe(60_000);
    expect(segments.every((segment) => segment.role === 'tool')).toBe(true);
    expect(tokensByRole).toEqual([
      ['assistant', 15_000],
      ['tool', 45_000],
    ]);
  });
});
