import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import {
  estimateMessagesTokensRough,
  estimateMessageTokensRough,
} from '#core/tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '#core/tokens/estimate-request-tokens-rough.ts';
import { estimateToolsTokensRough } from '#core/tokens/estimate-tools-tokens-rough.ts';
import { measureRoughTokens } from '#core/tokens/measure-rough-tokens.ts';
import type { Message } from '#core/transcript/message.ts';
import type { ToolSchema } from '#core/transcript/transcript.ts';
import { arbitraryTranscript } from '#tests/helpers/arbitrary-transcript.ts';

// str(message) = "{'role': 'user', 'content': 'ab'}": 33 characters, (33 + 3) // 4 = 9 tokens alone.
const message: Message = { role: 'user', content: 'ab' };
// 2026-07 counts a tool as name + description + compact parameter JSON: 1 + 1 + 2 = 4 chars, 1 token.
const tool: ToolSchema = { type: 'function', function: { name: 'f', description: 'd', parameters: {} } };

describe('measureRoughTokens', () => {
  it('gives each message its share of one rounding and adds the tool schemas', () => {
    // 33 characters: 9 tokens; 66: (66 + 3) // 4 = 17, so the second message adds 8.
    const counts = measureRoughTokens([message, message], [tool], HERMES_2026_07);
    expect([...counts.perMessage]).toEqual([9, 8]);
    expect(counts.messagesTokens).toBe(17);
    expect(counts.toolsTokens).toBe(1);
    expect(counts.requestTokens).toBe(18);
  });

  it('adds up to Hermes’ single rounding over the request, not to each message rounded alone', () => {
    expect(estimateRequestTokensRough([message, message], '', [tool], HERMES_2026_07)).toBe(18);
    expect(2 * estimateMessageTokensRough(message, HERMES_2026_07) + 1).toBe(19);
  });

  it('adds a flat price for each image to the share of the message that holds it', () => {
    const image: Message = {
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }],
    };
    const counts = measureRoughTokens([message, image], [], HERMES_2026_07);
    expect(counts.perMessage[1]).toBeGreaterThanOrEqual(1500);
    expect(counts.requestTokens).toBe(estimateMessagesTokensRough([message, image], HERMES_2026_07));
  });

  it('rounds 2026-04’s request once over messages and tools, as its preflight does', () => {
    // 2026-04: 33 message characters and len(str(tools)) = "[{'name': 'f'}]", 15: (48 + 3) // 4
    // = 12 for the request, a token under the message's 9 and the tools' 4 added up.
    const tools: ToolSchema[] = [{ name: 'f' }];
    const counts = measureRoughTokens([message], tools, HERMES_2026_04);
    expect(counts.requestTokens).toBe(estimateRequestTokensRough([message], '', tools, HERMES_2026_04));
    expect([counts.messagesTokens, counts.toolsTokens, counts.requestTokens]).toEqual([9, 4, 12]);
  });

  it('uses the preset’s estimator', () => {
    // 2026-04 counts len(str(tools)) = "[{'name': 'f'}]": 15 characters, 4 tokens.
    expect(measureRoughTokens([], [{ name: 'f' }], HERMES_2026_04).toolsTokens).toBe(4);
    expect(measureRoughTokens([], [], HERMES_2026_04).requestTokens).toBe(0);
  });

  it('sums, over any transcript and either preset, to Hermes’ estimate, each share within a token of its message’s own', () => {
    fc.assert(
      fc.property(arbitraryTranscript({ maxTurns: 8 }), fc.boolean(), ({ messages }, legacy) => {
        const preset = legacy ? HERMES_2026_04 : HERMES_2026_07;
        const counts = measureRoughTokens(messages, [tool, tool], preset);
        // The gauge's figure: 2026-04 rounds messages and tools once, 2026-07 each on its own.
        expect(counts.requestTokens).toBe(estimateRequestTokensRough(messages, '', [tool, tool], preset));
        let sum = 0;
        for (let index = 0; index < messages.length; index++) {
          const own = estimateMessageTokensRough(messages[index]!, preset);
          expect(Math.abs(counts.perMessage[index]! - own)).toBeLessThanOrEqual(1);
          sum += counts.perMessage[index]!;
        }
        expect(sum).toBe(estimateMessagesTokensRough(messages, preset));
        expect(counts.messagesTokens).toBe(sum);
        expect(counts.toolsTokens).toBe(estimateToolsTokensRough([tool, tool], preset));
        // Every prefix's shares are that prefix's estimate: the map's offsets are Hermes' counts.
        const half = Math.floor(messages.length / 2);
        let prefix = 0;
        for (let index = 0; index < half; index++) prefix += counts.perMessage[index]!;
        expect(prefix).toBe(estimateMessagesTokensRough(messages.slice(0, half), preset));
      }),
      { seed: 20261203, numRuns: 150 },
    );
  });
});
