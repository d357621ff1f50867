import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';

/** A schema's tool name in either shape the converters accept (OpenAI `function.name`, Anthropic `name`). */
function schemaName(schema: ToolSchema): string | null {
  const fn = schema.function;
  if (isPlainObject(fn) && typeof fn.name === 'string') return fn.name;
  return typeof schema.name === 'string' ? schema.name : null;
}

/**
 * The tool definitions a request replaying `messages` must carry: `tools` as given, plus a
 * minimal definition for every tool the history calls that has none (imported transcripts often
 * record calls but not the schemas). Anthropic refuses a history with `tool_use` / `tool_result`
 * blocks and no tool definitions; a request that only wants text sends these with a tool choice
 * of `none`.
 */
export function toolsForHistory(tools: readonly ToolSchema[], messages: readonly Message[]): ToolSchema[] {
  const result = [...tools];
  const defined = new Set(tools.map(schemaName).filter((name): name is string => name !== null));
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      const fn: unknown = isPlainObject(call) ? call.function : undefined;
      const name = isPlainObject(fn) && typeof fn.name === 'string' ? fn.name : null;
      if (name === null || name === '' || defined.has(name)) continue;
      defined.add(name);
      result.push({
        type: 'function',
        function: {
          name,
          description: 'A tool this conversation called earlier; its schema was not recorded.',
          parameters: { type: 'object' },
        },
      });
    }
  }
  return result;
}
