import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/token_estimates.ts';
import {
  estimateMessagesTokensRough,
  estimateMessagesTokensRoughCapped,
  estimateMessageTokensRough,
  roughMessageSize,
  type RoughSizeCache,
} from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '#core/transcript/message.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const screenshot: Message = {
  role: 'user',
  content: [
    { type: 'text', text: 'look' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(4000)}` } },
  ],
};

describe('estimateMessagesTokensRough', () => {
  it.each(
    hermesVectorRuns('token_estimates.json').filter(
      (run) => run.testCase.function === 'estimate_messages_tokens_rough',
    ),
  )('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('counts a base64 screenshot in full in 2026-04 and at a flat 1500 tokens in 2026-07', () => {
    expect(estimateMessagesTokensRough([screenshot], HERMES_2026_04)).toBeGreaterThan(1000);
    const shadowTokens = estimateMessagesTokensRough([screenshot], HERMES_2026_07) - 1500;
    expect(shadowTokens).toBeGreaterThan(0);
    expect(shadowTokens).toBeLessThan(40);
  });

  describe('a message whose image part is a data URL', () => {
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const imageUrl: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      ],
    };
    const inputImage: Message = {
      role: 'user',
      content: [{ type: 'input_image', image_url: `data:image/jpeg;base64,/9j/${'A'.repeat(400)}` }],
    };
    const anthropicImage: Message = {
      role: 'tool',
      tool_call_id: 'c1',
      content: [
        { type: 'text', text: 'screenshot' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      ],
    };

    // len(str(msg)), the image-stripped shadow's length, and the tokens, from Python 3.
    it.each([
      ['image_url', imageUrl, 239, 118],
      ['input_image', inputImage, 498, 77],
      ['Anthropic image block', anthropicImage, 275, 133],
    ] as const)(
      '%s: 2026-04 measures the payload, 2026-07 a [stripped] stand-in plus 1500',
      (_kind, message, full, shadow) => {
        expect(roughMessageSize(message, HERMES_2026_04)).toEqual({ chars: full, images: 0 });
        expect(roughMessageSize(message, HERMES_2026_07)).toEqual({ chars: shadow, images: 1 });
        expect(estimateMessageTokensRough(message, HERMES_2026_04)).toBe(Math.floor((full + 3) / 4));
        expect(estimateMessageTokensRough(message, HERMES_2026_07)).toBe(Math.floor((shadow + 3) / 4) + 1500);
      },
    );

    it('rounds once over all messages', () => {
      const messages = [imageUrl, inputImage, anthropicImage];
      expect(estimateMessagesTokensRough(messages, HERMES_2026_04)).toBe(
        Math.floor((239 + 498 + 275 + 3) / 4),
      );
      expect(estimateMessagesTokensRough(messages, HERMES_2026_07)).toBe(
        Math.floor((118 + 77 + 133 + 3) / 4) + 3 * 1500,
      );
    });
  });

  it('reduces a _multimodal envelope to its text summary and counts its images (2026-07)', () => {
    const message: Message = {
      role: 'tool',
      content: { _multimodal: true, text_summary: 'a page', content: [{ type: 'image', source: {} }] },
    };
    expect(roughMessageSize(message, HERMES_2026_07)).toEqual({
      chars: "{'role': 'tool', 'content': 'a page'}".length,
      images: 1,
    });
  });

  it('drops the Anthropic block stash from the measured shadow but counts its images (2026-07)', () => {
    const message: Message = {
      role: 'assistant',
      content: 'x',
      _anthropic_content_blocks: [{ type: 'image' }],
    };
    expect(roughMessageSize(message, HERMES_2026_07)).toEqual({
      chars: "{'role': 'assistant', 'content': 'x'}".length,
      images: 1,
    });
  });

  it('rounds once over the summed characters, not per message', () => {
    // Each message is 33 characters: 9 tokens alone, but 17 (not 18) together.
    const messages: Message[] = [
      { role: 'user', content: 'ab' },
      { role: 'user', content: 'cd' },
    ];
    const perMessage = messages.map((message) => estimateMessageTokensRough(message, HERMES_2026_04));
    expect(perMessage).toEqual([9, 9]);
    expect(estimateMessagesTokensRough(messages, HERMES_2026_04)).toBe(17);
  });

  it('reuses cached sizes for messages it has seen', () => {
    const cache: RoughSizeCache = new WeakMap();
    const message: Message = { role: 'user', content: 'hello' };
    estimateMessagesTokensRough([message], HERMES_2026_07, cache);
    cache.set(message, { chars: 400, images: 0 });
    expect(estimateMessagesTokensRough([message], HERMES_2026_07, cache)).toBe(100);
  });
});

describe('estimateMessagesTokensRoughCapped', () => {
  const messages: Message[] = Array.from({ length: 50 }, () => ({ role: 'user', content: 'x'.repeat(400) }));

  it('returns the cap once the estimate reaches it', () => {
    expect(estimateMessagesTokensRoughCapped(messages, HERMES_2026_07, 1000)).toBe(1000);
  });

  it('returns the full estimate when it stays under the cap', () => {
    const full = estimateMessagesTokensRough(messages, HERMES_2026_07);
    expect(estimateMessagesTokensRoughCapped(messages, HERMES_2026_07, full + 1)).toBe(full);
  });
});
