import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeForSummary, serializeMessageForSummary } from '#core/compression/serialize-for-summary.ts';
import type { Message } from '#core/transcript/message.ts';
import { assistant, toolCall, toolResult, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('serializeForSummary', () => {
  it('labels roles and joins entries with blank lines', () => {
    const text = serializeForSummary(
      [user('hi'), assistant('hello'), { role: 'system', content: 's' }],
      HERMES_2026_07,
    );
    expect(text).toBe('[USER]: hi\n\n[ASSISTANT]: hello\n\n[SYSTEM]: s');
  });

  it('lists tool calls with their arguments and labels results by call id', () => {
    const text = serializeForSummary(
      [assistant('', [toolCall('c1', 'terminal', { command: 'ls' })]), toolResult('c1', 'a.txt')],
      HERMES_2026_04,
    );
    expect(text).toBe(
      '[ASSISTANT]: \n[Tool calls:\n  terminal({"command":"ls"})\n]\n\n[TOOL RESULT c1]: a.txt',
    );
  });

  it('keeps the first 4000 and last 1500 code points of bodies over 6000', () => {
    const body = '😀'.repeat(3000) + 'a'.repeat(3001);
    const text = serializeMessageForSummary(user(body), HERMES_2026_07);
    expect(text).toBe(
      `[USER]: ${'😀'.repeat(3000)}${'a'.repeat(1000)}\n...[truncated]...\n${'a'.repeat(1500)}`,
    );
  });

  it('cuts tool arguments over 1500 characters to 1200 plus an ellipsis', () => {
    const text = serializeMessageForSummary(
      assistant('x', [toolCall('c', 'write_file', { content: 'z'.repeat(2000) })]),
      HERMES_2026_07,
    );
    const line = text.split('\n')[2]!;
    expect(line).toBe(`  write_file(${JSON.stringify({ content: 'z'.repeat(2000) }).slice(0, 1200)}...)`);
  });

  it('flattens part lists in 2026-07, labelling images and unknown parts', () => {
    const message: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'input_audio' },
      ],
    };
    expect(serializeMessageForSummary(message, HERMES_2026_07)).toBe(
      '[USER]: look\n[image: https://example.com/a.png]\n[image]\n[input_audio]',
    );
  });

  it('renders part lists with Python str() in 2026-04', () => {
    const message: Message = { role: 'user', content: [{ type: 'text', text: 'look' }] };
    expect(serializeMessageForSummary(message, HERMES_2026_04)).toBe(
      "[USER]: [{'type': 'text', 'text': 'look'}]",
    );
  });

  it('strips think blocks from assistant turns and MEDIA directives in 2026-07 only', () => {
    const message = assistant('<think>scratch</think>Done. MEDIA:/tmp/x.png');
    expect(serializeMessageForSummary(message, HERMES_2026_07)).toBe('[ASSISTANT]: Done. [media attachment]');
    expect(serializeMessageForSummary(message, HERMES_2026_04)).toBe(
      '[ASSISTANT]: <think>scratch</think>Done. MEDIA:/tmp/x.png',
    );
    expect(serializeMessageForSummary(user('<think>kept</think>'), HERMES_2026_07)).toBe(
      '[USER]: <think>kept</think>',
    );
  });

  it('redacts secrets in bodies and tool arguments', () => {
    const text = serializeForSummary(
      [
        user('my key is sk-abcdefghijklmnopqrstuvwx'),
        assistant('', [toolCall('c', 'terminal', { command: 'export TOKEN=abcdefghijklmnopqrstuvwxyz' })]),
      ],
      HERMES_2026_07,
    );
    expect(text).not.toContain('abcdefghijklmnopqrstuvwx');
    expect(text).toContain('sk-abc...uvwx');
  });
});

const RUNS = Number(process.env.PROPERTY_RUNS ?? 500);

/** Texts with and without secrets, near misses, and non-ASCII, as a message's body or arguments. */
const piece = fc.constantFrom(
  'sk-abcdefghijklmnopqrstuvwx',
  'export TOKEN=abcdefghijklmnopqrstuvwxyz',
  '"api_key": "abcdefghijklmnop"',
  'https://user:pass@example.com/x',
  'task_id',
  'a-b=c:d',
  '<think>scratch</think>',
  'MEDIA:/tmp/a.png',
  'café — 😀',
  '\n',
);
const body = fc
  .array(fc.oneof(piece, fc.string({ maxLength: 8 })), { maxLength: 6 })
  .map((parts) => parts.join(' '));
const call = fc.oneof(
  fc.record({
    id: fc.constant('c'),
    type: fc.constant('function'),
    function: fc.record({ name: fc.constantFrom('terminal', 'read_file'), arguments: body }),
  }),
  // Malformed calls are listed as `?(...)` and have no arguments to redact.
  fc.constant(null),
  fc.constant({ id: 'c', type: 'function' }),
);
const message: fc.Arbitrary<Message> = fc.oneof(
  body.map((content) => user(content)),
  fc
    .tuple(fc.option(body, { nil: null }), fc.array(call, { maxLength: 3 }))
    .map(([content, calls]) => ({ role: 'assistant', content, tool_calls: calls }) as unknown as Message),
  body.map((content) => toolResult('c', content)),
  fc
    .array(
      fc.oneof(
        body.map((text) => ({ type: 'text', text })),
        fc.constant({ type: 'image_url', image_url: { url: 'https://x/y.png' } }),
      ),
      { maxLength: 3 },
    )
    .map((content): Message => ({ role: 'user', content })),
);

describe('serializeForSummary of many messages at once', () => {
  it('is each message serialised on its own, joined by blank lines (screened together, redacted alike)', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 12 }),
        fc.constantFrom(HERMES_2026_04, HERMES_2026_07),
        (turns, preset) => {
          const expected = turns.map((turn) => serializeMessageForSummary(turn, preset)).join('\n\n');
          expect(serializeForSummary(turns, preset)).toBe(expected);
          // A second pass through a cache gives the same text.
          const cache = new WeakMap<Message, string>();
          serializeForSummary(turns.slice(0, turns.length >> 1), preset, cache);
          expect(serializeForSummary(turns, preset, cache)).toBe(expected);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
