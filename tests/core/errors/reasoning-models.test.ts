import { describe, expect, it } from 'vitest';
import { isReasoningModel } from '#core/errors/reasoning-models.ts';

describe('isReasoningModel', () => {
  it('matches reasoning slugs after a vendor prefix', () => {
    expect(isReasoningModel('openai/o3-mini')).toBe(true);
    expect(isReasoningModel('deepseek/deepseek-r1-0528')).toBe(true);
    expect(isReasoningModel('claude-opus-4-6')).toBe(true);
  });

  it('anchors the slug so look-alikes do not match', () => {
    expect(isReasoningModel('olmo-1')).toBe(false);
    expect(isReasoningModel('llama-4-70b-o1-preview')).toBe(false);
    expect(isReasoningModel('gpt-4o')).toBe(false);
    expect(isReasoningModel('')).toBe(false);
  });
});
