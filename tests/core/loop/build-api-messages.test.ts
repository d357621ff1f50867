import { describe, expect, it } from 'vitest';
import { resolveCachePolicy } from '#core/caching/cache-policy.ts';
import { buildApiMessages } from '#core/loop/build-api-messages.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const policy = resolveCachePolicy(
  { provider: 'anthropic', model: 'claude-sonnet-4', baseUrl: '', apiMode: 'anthropic_messages' },
  HERMES_2026_04,
);

const history: Message[] = [
  { role: 'user', content: 'one', _db_persisted: true },
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search_sessions', arguments: '{}' } }],
  },
  { role: 'user', content: 'two', _compressed_summary: false },
];

describe('buildApiMessages', () => {
  it('puts the system prompt first, marks system + last 3, strips _ keys and stubs missing results', () => {
    const { messages, cacheMarkersApplied } = buildApiMessages(history, {
      systemPrompt: 'Be brief.',
      cachePolicy: policy,
      cacheTtl: '5m',
      preset: HERMES_2026_04,
    });
    expect(cacheMarkersApplied).toBe(true);
    expect(messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    });
    expect(JSON.stringify(messages)).not.toMatch(/"_/);
    // The sanitiser's stub comes after caching, so it never carries a marker.
    const stub = messages.find((message) => message.role === 'tool')!;
    expect(stub).toEqual({
      role: 'tool',
      content: '[Result unavailable — see context summary above]',
      tool_call_id: 'call_1',
    });
    expect(messages.filter((message) => JSON.stringify(message).includes('cache_control'))).toHaveLength(4);
  });

  it('sends no markers without a policy, and no system message without a prompt', () => {
    const { messages, cacheMarkersApplied } = buildApiMessages([history[0]!], {
      systemPrompt: '',
      cachePolicy: null,
      cacheTtl: '1h',
      preset: HERMES_2026_07,
    });
    expect(cacheMarkersApplied).toBe(false);
    expect(messages).toEqual([{ role: 'user', content: 'one' }]);
  });
});
