import { describe, expect, it } from 'vitest';
import { BROWSER_TOOL_SCHEMAS } from '#core/tools/browser-tool-schemas.ts';
import { describeBrowserToolCallError, parseBrowserToolCall } from '#core/tools/parse-browser-tool-call.ts';
import type { ToolCall } from '#core/transcript/message.ts';

const call = (name: string, args: string): ToolCall => ({
  id: 'c1',
  type: 'function',
  function: { name, arguments: args },
});

describe('parseBrowserToolCall', () => {
  it('reads a persisted-output call by path or name, with defaults', () => {
    expect(
      parseBrowserToolCall(call('read_persisted_output', '{"file":"indexeddb://x/persisted-outputs/a.txt"}')),
    ).toEqual({
      ok: true,
      value: { tool: 'read_persisted_output', fileName: 'a.txt', offset: 0, limit: 20_000 },
    });
    // The <persisted-output> note tells the model to use read_file; that name is accepted too.
    expect(
      parseBrowserToolCall(call('read_file', '{"path":"a.txt","offset":"100","limit":50}')),
    ).toMatchObject({
      ok: true,
      value: { fileName: 'a.txt', offset: 100, limit: 50 },
    });
  });

  it('reads a search call and caps its limit', () => {
    expect(parseBrowserToolCall(call('search_sessions', '{"query":" auth bug ","limit":500}'))).toEqual({
      ok: true,
      value: { tool: 'search_sessions', query: 'auth bug', limit: 20 },
    });
  });

  it('turns bad calls into errors the model can read', () => {
    const unknown = parseBrowserToolCall(call('rm_rf', '{}'));
    expect(unknown.ok || describeBrowserToolCallError(unknown.error)).toBe(
      'Error: there is no tool named "rm_rf".',
    );
    const notJson = parseBrowserToolCall(call('search_sessions', '{query'));
    expect(notJson.ok || describeBrowserToolCallError(notJson.error)).toMatch(/not JSON/);
    expect(parseBrowserToolCall(call('search_sessions', '{}'))).toMatchObject({ ok: false });
    expect(parseBrowserToolCall(call('read_persisted_output', '{"file":"a","offset":-1}'))).toMatchObject({
      ok: false,
    });
  });

  it('offers both tools as function schemas', () => {
    expect(BROWSER_TOOL_SCHEMAS.map((schema) => (schema.function as { name: string }).name)).toEqual([
      'read_persisted_output',
      'search_sessions',
    ]);
  });
});
