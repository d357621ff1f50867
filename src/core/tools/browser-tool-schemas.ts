/**
 * The tools the chat offers the model, all answered inside the browser: reading back a large
 * tool output that was stored instead of kept in context, and searching the stored sessions.
 * OpenAI function-tool shape; the Anthropic mapping turns it into `{name, description, input_schema}`.
 */
import type { ToolSchema } from '../transcript/transcript.ts';

export const READ_PERSISTED_OUTPUT_TOOL_NAME = 'read_persisted_output';
export const SEARCH_SESSIONS_TOOL_NAME = 'search_sessions';

/** Characters returned by one `read_persisted_output` call when the model gives no limit. */
export const DEFAULT_READ_LIMIT_CHARS = 20_000;
/** Hits returned by `search_sessions` when the model gives no limit, and the most it may ask for. */
export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;

export const READ_PERSISTED_OUTPUT_TOOL: ToolSchema = {
  type: 'function',
  function: {
    name: READ_PERSISTED_OUTPUT_TOOL_NAME,
    description:
      'Read part of a large tool output that was saved instead of being kept in the conversation. ' +
      'A <persisted-output> block names the saved file ("Full output saved to: …"); its "read_file" ' +
      'instruction refers to this tool. Give the file path or name, a character offset and a limit.',
    parameters: {
      type: 'object',
      properties: {
        file: {
          type: 'string',
          description: 'The saved file path or name from the <persisted-output> block.',
        },
        offset: { type: 'integer', minimum: 0, description: 'Character offset to start at (default 0).' },
        limit: {
          type: 'integer',
          minimum: 1,
          description: `Number of characters to return (default ${DEFAULT_READ_LIMIT_CHARS}).`,
        },
      },
      required: ['file'],
    },
  },
};

export const SEARCH_SESSIONS_TOOL: ToolSchema = {
  type: 'function',
  function: {
    name: SEARCH_SESSIONS_TOOL_NAME,
    description:
      'Search every stored conversation in this browser, including turns that were compacted ' +
      'into a summary, and return matching messages with a short snippet.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SEARCH_LIMIT,
          description: `Maximum number of hits (default ${DEFAULT_SEARCH_LIMIT}).`,
        },
      },
      required: ['query'],
    },
  },
};

export const BROWSER_TOOL_SCHEMAS: readonly ToolSchema[] = [READ_PERSISTED_OUTPUT_TOOL, SEARCH_SESSIONS_TOOL];
