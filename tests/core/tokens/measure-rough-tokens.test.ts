import { describe, expect, it } from 'vitest';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { estimateRequestTokensRough } from '#core/tokens/estimate-request-tokens-rough.ts';
import { measureRoughTokens } from '#core/tokens/measure-rough-tokens.ts';
import type { Message } from '#core/transcript/message.ts';
import type { ToolSchema } from '#core/transcript/transcript.ts';

// str(message) = "{'role': 'user', 'content': 'ab'}": 33 characters, (33 + 3) // 4 = 9 tokens alone.
const message: Message = { role: 'user', content: 'ab' };
// 2026-07 counts a tool as name + description + compact parameter JSON: 1 + 1 + 2 = 4 chars, 1 token.
const tool: ToolSchema = { type: 'function', function: { name: 'f', description: 'd', parameters: {} } };

describe('measureRoughTokens', () => {
  it('rounds each message on its own and adds the tool schemas', () => {
    const counts = measureRoughTokens([message, message], [tool], HERMES_2026_07);
    expect([...counts.perMessage]).toEqual([9, 9]);
    expect(counts.toolsTokens).toBe(1);
    expect(counts.requestTokens).toBe(19);
  });

  it('is the sum of its parts, not Hermes’ single rounding over the request', () => {
    // Hermes rounds the 66 characters of both messages once: (66 + 3) // 4 = 17, one fewer.
    expect(estimateRequestTokensRough([message, message], '', [], HERMES_2026_07)).toBe(17);
    expect(measureRoughTokens([message, message], [], HERMES_2026_07).requestTokens).toBe(18);
  });

  it('uses the preset’s estimator', () => {
    // 2026-04 counts len(str(tools)) = "[{'name': 'f'}]": 15 characters, 4 tokens.
    expect(measureRoughTokens([], [{ name: 'f' }], HERMES_2026_04).toolsTokens).toBe(4);
    expect(measureRoughTokens([], [], HERMES_2026_04).requestTokens).toBe(0);
  });
});
