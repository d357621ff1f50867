import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/cache_control.ts';
import { applyCacheControl, cacheMarker } from '#core/caching/apply-cache-control.ts';
import type { Message } from '#core/transcript/message.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const conversation = (count: number): Message[] => [
  { role: 'system', content: 'sys' },
  ...Array.from({ length: count }, (_, index): Message => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `message ${index}`,
  })),
];

const markedIndexes = (messages: Message[]): number[] =>
  messages.flatMap((message, index) => {
    const onPart =
      Array.isArray(message.content) &&
      message.content.some((part) => typeof part === 'object' && part !== null && 'cache_control' in part);
    return onPart || message.cache_control !== undefined ? [index] : [];
  });

describe('cacheMarker', () => {
  it('adds a ttl only for the one-hour lifetime', () => {
    expect(cacheMarker('1h')).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(cacheMarker('5m')).toEqual({ type: 'ephemeral' });
  });

  it('falls back to the five-minute marker for an unknown ttl', () => {
    expect(cacheMarker('10m')).toEqual({ type: 'ephemeral' });
  });
});

describe('applyCacheControl', () => {
  it.each(hermesVectorRuns('cache_control.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('marks the system message and the last three others, four breakpoints in all', () => {
    const marked = applyCacheControl(conversation(10), { ttl: '5m', nativeLayout: true }, HERMES_2026_07);
    expect(markedIndexes(marked)).toEqual([0, 8, 9, 10]);
  });

  it('uses four breakpoints on the last four messages when there is no system message', () => {
    const marked = applyCacheControl(
      conversation(6).slice(1),
      { ttl: '5m', nativeLayout: true },
      HERMES_2026_04,
    );
    expect(markedIndexes(marked)).toEqual([2, 3, 4, 5]);
  });

  it('never mutates its input', () => {
    const input = conversation(4);
    const snapshot = structuredClone(input);
    applyCacheControl(input, { ttl: '1h', nativeLayout: false }, HERMES_2026_07);
    expect(input).toEqual(snapshot);
  });

  it('does not spend an envelope breakpoint on an empty assistant turn in 2026-07', () => {
    const input: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'user', content: 'c' },
      { role: 'assistant', content: '' },
    ];
    expect(
      markedIndexes(applyCacheControl(input, { ttl: '5m', nativeLayout: false }, HERMES_2026_07)),
    ).toEqual([0, 1, 2, 3]);
    expect(
      markedIndexes(applyCacheControl(input, { ttl: '5m', nativeLayout: false }, HERMES_2026_04)),
    ).toEqual([0, 2, 3, 4]);
  });

  it('puts the native tool marker on the message itself, not on a content part', () => {
    const input: Message[] = [{ role: 'tool', tool_call_id: 't', content: 'result' }];
    const [tool] = applyCacheControl(input, { ttl: '5m', nativeLayout: true }, HERMES_2026_07);
    expect(tool).toEqual({
      role: 'tool',
      tool_call_id: 't',
      content: 'result',
      cache_control: { type: 'ephemeral' },
    });
  });
});
