import type { ToolSchema } from '../transcript/transcript.ts';

// The tool schemas a Hermes-like coding agent offers, in OpenAI function format. Their
// argument names are the ones Hermes' one-line summaries read (command, path, offset,
// pattern, target, mode, query), so pruning the demo gives informative lines.

export const terminalToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: 'terminal',
    description:
      'Run a shell command in the project environment and return its combined stdout/stderr and exit code. ' +
      'Commands run in a persistent shell; use background=true for servers and watchers. ' +
      'Prefer read_file, search_files and patch over cat, grep and sed.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command to execute (bash syntax).' },
        background: {
          type: 'boolean',
          description: 'Start the command in the background and return immediately.',
          default: false,
        },
        timeout: {
          type: 'integer',
          description: 'Seconds to wait before the command is killed.',
          default: 180,
          minimum: 1,
          maximum: 3600,
        },
        workdir: { type: 'string', description: 'Directory to run in (default: the session directory).' },
      },
      required: ['command'],
    },
  },
};

export const readFileToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: 'read_file',
    description:
      "Read a text file with line numbers ('LINE|content'). Use offset and limit to page through large files. " +
      'Reads larger than about 100K characters are refused.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, absolute or relative to the working directory.' },
        offset: { type: 'integer', description: 'First line to read (1-indexed).', default: 1, minimum: 1 },
        limit: { type: 'integer', description: 'Maximum number of lines.', default: 500, maximum: 2000 },
      },
      required: ['path'],
    },
  },
};

export const writeFileToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: 'write_file',
    description:
      'Write a whole file, replacing any existing content. Parent directories are created. ' +
      'Use patch for targeted edits to existing files.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path to write.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
    },
  },
};

export const searchFilesToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: 'search_files',
    description:
      "Search inside files with a regular expression (target='content') or find files by glob (target='files'). " +
      'Results are JSON with total_count and the matches.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regex for content search, glob for file search.' },
        target: {
          type: 'string',
          enum: ['content', 'files'],
          description: 'What to search.',
          default: 'content',
        },
        path: { type: 'string', description: 'Directory or file to search in.', default: '.' },
        file_glob: { type: 'string', description: "Only search files matching this glob, e.g. '*.py'." },
        limit: { type: 'integer', description: 'Maximum number of matches returned.', default: 50 },
      },
      required: ['pattern'],
    },
  },
};

export const patchToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: 'patch',
    description:
      "Edit a file in place. mode='replace' swaps one unique occurrence of old_string for new_string " +
      "(or all of them with replace_all); mode='patch' applies a unified diff. Returns the resulting diff.",
    parameters: {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['replace', 'patch'], default: 'replace' },
        path: { type: 'string', description: 'File to edit (replace mode).' },
        old_string: { type: 'string', description: 'Exact text to find; must be unique unless replace_all.' },
        new_string: { type: 'string', description: 'Replacement text; empty to delete.' },
        replace_all: { type: 'boolean', default: false },
        patch: { type: 'string', description: 'A unified diff (patch mode).' },
      },
      required: ['mode'],
    },
  },
};

export const webSearchToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: 'web_search',
    description: 'Search the web and return the top results with titles, URLs and short descriptions.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The search query.' },
      },
      required: ['query'],
    },
  },
};

/** The five tools of the built-in demo session. */
export const demoToolSchemas: readonly ToolSchema[] = [
  terminalToolSchema,
  readFileToolSchema,
  writeFileToolSchema,
  searchFilesToolSchema,
  patchToolSchema,
];
