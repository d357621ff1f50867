import { describe, expect, it } from 'vitest';
import { isContentTool } from '#core/fidelity/is-content-tool.ts';

describe('isContentTool', () => {
  it.each([
    'Read',
    'read_file',
    'functions.read_file',
    'mcp__filesystem__read_file',
    'Grep',
    'WebFetch',
    'web_search',
  ])('%s returns contents', (name) => {
    expect(isContentTool(name)).toBe(true);
  });

  it.each(['Bash', 'terminal', 'exec_command', 'shell', 'Edit', 'patch', 'apply_patch'])(
    '%s reports what happened',
    (name) => {
      expect(isContentTool(name)).toBe(false);
    },
  );
});
