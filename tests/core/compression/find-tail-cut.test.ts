import { describe, expect, it } from 'vitest';
import { findTailCut } from '#core/compression/find-tail-cut.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const user = (text: string): Message => ({ role: 'user', content: text });
const reply = (text: string): Message => ({ role: 'assistant', content: text });
const call = (id: string): Message => ({
  role: 'assistant',
  content: '',
  tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }],
});
const result = (id: string, chars: number): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: 'r'.repeat(chars),
});
const system: Message = { role: 'system', content: 'sys' };

describe('findTailCut', () => {
  it('collapses the tail to min_tail when everything after the head fits the budget (2026-04)', () => {
    // Nine messages after the system prompt, 111 tokens each: 999 ≤ the 1,500 soft ceiling.
    const messages = [system, ...Array.from({ length: 9 }, (_, index) => user('x'.repeat(400 + index)))];
    const cut = findTailCut(messages, 1, { tailTokenBudget: 1000, protectLastN: 20 }, HERMES_2026_04);
    expect(cut.steps[0]).toMatchObject({
      kind: 'budget-walk',
      acceptedMessages: 9,
      reachedHead: true,
      cut: 1,
    });
    // Nothing would be left to summarise: the cut moves forward to keep only min_tail = 3.
    expect(cut.steps[1]).toEqual({ kind: 'floor', minTail: 3, from: 1, to: 7 });
    expect(cut.tailStart).toBe(7);
  });

  it('starts with the budget walk, which accepts messages up to 1.5x the budget', () => {
    const messages = [system, ...Array.from({ length: 8 }, (_, index) => user('x'.repeat(400 + index)))];
    const cut = findTailCut(messages, 1, { tailTokenBudget: 200, protectLastN: 3 }, HERMES_2026_04);
    // Each message weighs 111 tokens: two fit in the 300-token soft ceiling.
    expect(cut.steps[0]).toEqual({
      kind: 'budget-walk',
      acceptedMessages: 2,
      acceptedTokens: 222,
      budget: 200,
      softCeiling: 300,
      cut: 7,
      reachedHead: false,
    });
    expect(cut.tailStart).toBe(6);
    expect(cut.steps[1]).toEqual({ kind: 'floor', minTail: 3, from: 7, to: 6 });
  });

  it('moves a cut inside a tool group back to the call (2026-04)', () => {
    const messages = [
      system,
      user('go'),
      reply('a'),
      user('b'),
      call('c'),
      result('c', 4000),
      result('c', 10),
      reply('end'),
    ];
    const cut = findTailCut(messages, 1, { tailTokenBudget: 20, protectLastN: 3 }, HERMES_2026_04);
    expect(cut.steps).toContainEqual({ kind: 'align-backward', from: 5, to: 4 });
    expect(cut.tailStart).toBe(3);
    expect(cut.steps.at(-1)).toEqual({ kind: 'last-user', userIndex: 3, from: 4, to: 3 });
  });

  it('anchors on a handoff summary as the latest user message in 2026-04 but skips it in 2026-07', () => {
    const messages = [
      system,
      user('real ask'),
      reply('x'.repeat(2000)),
      user('[CONTEXT SUMMARY]: old'),
      reply('y'.repeat(2000)),
      reply('z'.repeat(2000)),
      reply('w'.repeat(2000)),
    ];
    const options = { tailTokenBudget: 10, protectLastN: 3 };
    expect(findTailCut(messages, 1, options, HERMES_2026_04).steps).toContainEqual({
      kind: 'last-user',
      userIndex: 3,
      from: 4,
      to: 3,
    });
    expect(findTailCut(messages, 1, options, HERMES_2026_07).steps).toContainEqual({
      kind: 'causal-coupling',
      userIndex: 1,
      pairEnd: 3,
      from: 4,
      to: 3,
    });
  });

  it('summarises a latest user message at the head end together with its reply (causal coupling, 2026-07)', () => {
    const messages = [
      system,
      user('h1'),
      reply('h2'),
      user('h3'),
      user('THE ASK'),
      reply('x'.repeat(2000)),
      call('g'),
      result('g', 2000),
    ];
    const cut = findTailCut(messages, 4, { tailTokenBudget: 50, protectLastN: 20 }, HERMES_2026_07);
    expect(cut.steps).toContainEqual({ kind: 'causal-coupling', userIndex: 4, pairEnd: 6, from: 5, to: 6 });
  });

  it('pulls the cut back to a visible assistant reply that precedes the latest user ask (2026-07)', () => {
    const messages = [
      system,
      user('hi'),
      reply('hello'),
      user('first'),
      reply('VISIBLE'),
      user('next ask'),
      ...['a', 'b', 'c'].flatMap((id) => [call(id), result(id, 1500)]),
    ];
    const options = { tailTokenBudget: 200, protectLastN: 20 };
    const cut = findTailCut(messages, 2, options, HERMES_2026_07);
    expect(cut.steps.at(-1)).toEqual({ kind: 'last-assistant', assistantIndex: 4, from: 5, to: 4 });
    expect(findTailCut(messages, 2, options, HERMES_2026_04).tailStart).toBe(5);
  });

  it('re-walks at the raw budget when everything fitted under the soft ceiling (2026-07)', () => {
    const messages = [
      system,
      ...Array.from({ length: 10 }, (_, index) => (index % 2 ? reply : user)('x'.repeat(400))),
    ];
    // 10 messages × 110 = 1100 tokens: under 1.5 × 800 but over 800.
    const cut = findTailCut(messages, 1, { tailTokenBudget: 800, protectLastN: 3 }, HERMES_2026_07);
    expect(cut.steps[1]).toEqual({
      kind: 'rewalk',
      acceptedMessages: 8,
      acceptedTokens: 880,
      budget: 800,
      cut: 3,
    });
    expect(
      findTailCut(messages, 1, { tailTokenBudget: 800, protectLastN: 3 }, HERMES_2026_04).steps[1]?.kind,
    ).not.toBe('rewalk');
  });

  it('aligns the final cut forward so the progress floor never splits a tool group (2026-07)', () => {
    const messages = [
      system,
      call('a'),
      result('a', 10),
      result('a', 10),
      reply('x'.repeat(4000)),
      reply('y'.repeat(4000)),
    ];
    const cut = findTailCut(messages, 1, { tailTokenBudget: 10, protectLastN: 3 }, HERMES_2026_07);
    expect(cut.tailStart).toBeGreaterThan(3);
    expect(messages[cut.tailStart]?.role).not.toBe('tool');
  });

  it('returns the floor of 2026-07: max(3, min(protect_last_n, 8)), leaving two compressible messages', () => {
    const messages = [system, ...Array.from({ length: 20 }, (_, index) => user(`${index}`))];
    expect(
      findTailCut(messages, 1, { tailTokenBudget: 100_000, protectLastN: 20 }, HERMES_2026_07).minTail,
    ).toBe(8);
    expect(
      findTailCut(messages.slice(0, 7), 1, { tailTokenBudget: 100_000, protectLastN: 20 }, HERMES_2026_07)
        .minTail,
    ).toBe(3);
    expect(
      findTailCut(messages, 1, { tailTokenBudget: 100_000, protectLastN: 20 }, HERMES_2026_04).minTail,
    ).toBe(3);
  });
});
