import { describe, expect, it } from 'vitest';
import { estimateToolsTokensRough, toolsChars } from '#core/tokens/estimate-tools-tokens-rough.ts';
import type { ToolSchema } from '#core/transcript/transcript.ts';

const terminal: ToolSchema = {
  type: 'function',
  function: {
    name: 'terminal',
    description: 'Run it',
    parameters: { type: 'object', required: ['command'] },
  },
};

describe('estimateToolsTokensRough', () => {
  it('counts name, description and compact parameter JSON in 2026-07', () => {
    expect(toolsChars([terminal], 'hermes-2026-07')).toBe(
      'terminal'.length + 'Run it'.length + '{"type":"object","required":["command"]}'.length,
    );
  });

  it('reads a bare schema without a function wrapper', () => {
    expect(toolsChars([{ name: 'f', description: 'd', parameters: {} }], 'hermes-2026-07')).toBe(4);
  });

  it('counts len(str(tools)) in 2026-04', () => {
    expect(toolsChars([{ name: 'f' }], 'hermes-2026-04')).toBe("[{'name': 'f'}]".length);
  });

  it('is zero without tools', () => {
    expect(estimateToolsTokensRough(null, 'hermes-2026-07')).toBe(0);
    expect(estimateToolsTokensRough([], 'hermes-2026-04')).toBe(0);
  });
});
