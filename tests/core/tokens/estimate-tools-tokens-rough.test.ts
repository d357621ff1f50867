import { describe, expect, it } from 'vitest';
import { estimateToolsTokensRough, toolsChars } from '#core/tokens/estimate-tools-tokens-rough.ts';
import type { ToolSchema } from '#core/transcript/transcript.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

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
    expect(toolsChars([terminal], HERMES_2026_07)).toBe(
      'terminal'.length + 'Run it'.length + '{"type":"object","required":["command"]}'.length,
    );
  });

  it('reads a bare schema without a function wrapper', () => {
    expect(toolsChars([{ name: 'f', description: 'd', parameters: {} }], HERMES_2026_07)).toBe(4);
  });

  it('counts len(str(tools)) in 2026-04', () => {
    expect(toolsChars([{ name: 'f' }], HERMES_2026_04)).toBe("[{'name': 'f'}]".length);
  });

  it('is zero without tools', () => {
    expect(estimateToolsTokensRough(null, HERMES_2026_07)).toBe(0);
    expect(estimateToolsTokensRough([], HERMES_2026_04)).toBe(0);
  });
});
