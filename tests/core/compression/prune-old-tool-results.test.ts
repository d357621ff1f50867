import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/tool_result_pruning.ts';
import { pruneOldToolResults } from '#core/compression/prune-old-tool-results.ts';
import type { Message } from '#core/transcript/message.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const call = (id: string, name: string, args: string): Message => ({
  role: 'assistant',
  content: '',
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
});
const result = (id: string, content: Message['content']): Message => ({
  role: 'tool',
  tool_call_id: id,
  content,
});
const longOutput = 'line\n'.repeat(100);

/** An old terminal call, an old screenshot, an old big write, then a short protected tail. */
const session = (): Message[] => [
  { role: 'user', content: 'start' },
  call('t1', 'terminal', '{"command": "npm test"}'),
  result('t1', `{"exit_code": 1}\n${longOutput}`),
  call('s1', 'browser_vision', '{}'),
  result('s1', [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }]),
  call('w1', 'write_file', JSON.stringify({ path: 'big.md', content: 'C'.repeat(600) })),
  result('w1', 'ok'),
  { role: 'user', content: 'now' },
  { role: 'assistant', content: 'done' },
];

describe('pruneOldToolResults', () => {
  it.each(hermesVectorRuns('tool_result_pruning.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('replaces an old output with its one-liner and records it', () => {
    const pruned = pruneOldToolResults(
      session(),
      { protectTailCount: 2, protectTailTokens: null },
      HERMES_2026_04,
    );
    expect(pruned.messages[2]!.content).toBe('[terminal] ran `npm test` -> exit 1, 102 lines output');
    expect(pruned.pruned[0]).toEqual({
      index: 2,
      kind: 'one-liner',
      toolName: 'terminal',
      originalChars: 17 + longOutput.length,
      replacement: '[terminal] ran `npm test` -> exit 1, 102 lines output',
    });
  });

  it('strips old screenshots in 2026-07 only, counting them as pruned', () => {
    const april = pruneOldToolResults(
      session(),
      { protectTailCount: 2, protectTailTokens: null },
      HERMES_2026_04,
    );
    const july = pruneOldToolResults(
      session(),
      { protectTailCount: 2, protectTailTokens: null },
      HERMES_2026_07,
    );
    expect(Array.isArray(april.messages[4]!.content) && april.messages[4]!.content[0]!.type).toBe(
      'image_url',
    );
    expect(july.messages[4]!.content).toEqual([
      { type: 'text', text: '[screenshot removed to save context]' },
    ]);
    expect(july.prunedCount).toBe(april.prunedCount + 1);
  });

  it('shrinks huge arguments outside the tail without counting them', () => {
    const pruned = pruneOldToolResults(
      session(),
      { protectTailCount: 2, protectTailTokens: null },
      HERMES_2026_07,
    );
    const args = pruned.messages[5]!.tool_calls![0]!.function.arguments;
    expect(args).toBe(`{"path": "big.md", "content": "${'C'.repeat(200)}...[truncated]"}`);
    expect(pruned.pruned.filter((entry) => entry.kind === 'arguments')).toHaveLength(1);
    expect(pruned.prunedCount).toBe(2);
  });

  it('never mutates its input and keeps count and roles', () => {
    const input = session();
    const snapshot = structuredClone(input);
    const pruned = pruneOldToolResults(input, { protectTailCount: 1, protectTailTokens: 10 }, HERMES_2026_07);
    expect(input).toEqual(snapshot);
    expect(pruned.messages.map((message) => message.role)).toEqual(input.map((message) => message.role));
    expect(pruned.messages[0]).toBe(input[0]);
  });

  it('protects the smaller set in 2026-04 when the budget would protect more (the index-space max)', () => {
    const messages: Message[] = [...session(), { role: 'user', content: 'x' }];
    const options = { protectTailCount: 3, protectTailTokens: 100_000 };
    expect(pruneOldToolResults(messages, options, HERMES_2026_04).pruneBoundary).toBe(messages.length - 3);
    expect(pruneOldToolResults(messages, options, HERMES_2026_07).pruneBoundary).toBe(0);
  });

  it('walks the token budget back from the end in 2026-07', () => {
    const messages: Message[] = Array.from({ length: 10 }, (_, index) => ({
      role: 'user',
      content: `${index}`.repeat(40),
    }));
    // Each message weighs 40 // 4 + 10 = 20 tokens: 3 fit in 70, and the walk stops on (and protects) the 4th.
    expect(
      pruneOldToolResults(messages, { protectTailCount: 1, protectTailTokens: 70 }, HERMES_2026_07)
        .pruneBoundary,
    ).toBe(6);
    expect(
      pruneOldToolResults(messages, { protectTailCount: 5, protectTailTokens: 70 }, HERMES_2026_07)
        .pruneBoundary,
    ).toBe(5);
  });

  it('returns an empty result for no messages', () => {
    expect(pruneOldToolResults([], { protectTailCount: 3, protectTailTokens: 10 }, HERMES_2026_07)).toEqual({
      messages: [],
      prunedCount: 0,
      pruneBoundary: 0,
      pruned: [],
      raised: null,
    });
  });

  describe('an old tool result whose 2026-04 one-liner raises', () => {
    /** Two old terminal results Hermes 2026-04 cannot summarise (a bool command), then a tail. */
    const crashing = (): Message[] => [
      { role: 'user', content: 'start' },
      call('ok', 'terminal', '{"command": "npm test"}'),
      result('ok', `ok\n${longOutput}`),
      call('b1', 'terminal', '{"command": true}'),
      result('b1', `b1\n${longOutput}`),
      call('b2', 'execute_code', '{"code": 5}'),
      result('b2', `b2\n${longOutput}`),
      { role: 'user', content: 'now' },
      { role: 'assistant', content: 'done' },
    ];

    it('2026-04 reports the first raise before the boundary and leaves that result as it was', () => {
      const pruned = pruneOldToolResults(
        crashing(),
        { protectTailCount: 2, protectTailTokens: null },
        HERMES_2026_04,
      );
      expect(pruned.raised).toEqual({
        type: 'HermesRaised',
        function: '_summarize_tool_result',
        exception: "TypeError: object of type 'bool' has no len()",
        index: 4,
      });
      expect(pruned.messages[4]).toEqual(crashing()[4]);
      expect(pruned.pruned.map((item) => item.index)).toEqual([2]);
    });

    it('2026-04 does not raise for a result inside the protected tail', () => {
      const pruned = pruneOldToolResults(
        crashing(),
        { protectTailCount: 6, protectTailTokens: null },
        HERMES_2026_04,
      );
      expect(pruned.pruneBoundary).toBe(3);
      expect(pruned.raised).toBeNull();
    });

    it('2026-07 never raises', () => {
      const pruned = pruneOldToolResults(
        crashing(),
        { protectTailCount: 2, protectTailTokens: null },
        HERMES_2026_07,
      );
      expect(pruned.raised).toBeNull();
      expect(pruned.messages[4]!.content).toBe('[terminal] ran `True` -> exit ?, 102 lines output');
    });
  });
});
