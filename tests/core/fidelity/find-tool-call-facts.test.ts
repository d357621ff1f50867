import { describe, expect, it } from 'vitest';
import { findToolCallFacts } from '#core/fidelity/find-tool-call-facts.ts';
import type { ToolCall } from '#core/transcript/message.ts';
import { shown, testCollector } from './fact-sink.ts';

const call = (name: string, args: unknown): ToolCall => ({
  id: 'call_1',
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

function factsOf(toolCall: ToolCall): string[] {
  const sink = testCollector();
  findToolCallFacts(toolCall, sink);
  return shown(sink.facts());
}

describe('findToolCallFacts', () => {
  it('takes shell commands and ignores the working directory and description', () => {
    expect(factsOf(call('Bash', { command: 'uv run ty check', description: 'Run type checking' }))).toEqual([
      'command: uv run ty check',
    ]);
    expect(
      factsOf(call('exec_command', { cmd: "sed -n '1,40p' src/utils/config.ts", workdir: '/Users/me/repo' })),
    ).toEqual(["command: sed -n '1,40p' src/utils/config.ts"]);
    expect(factsOf(call('shell', { command: ['bash', '-lc', 'git status --short'] }))).toEqual([
      'command: git status --short',
    ]);
  });

  it('reads Codex freeform arguments wrapped in an input string', () => {
    expect(factsOf(call('shell', { input: '{"command":["ls","-la"]}' }))).toEqual(['command: ls -la']);
  });

  it('takes path arguments as paths, whatever they look like', () => {
    expect(
      factsOf(
        call('Read', { file_path: '/Users/dain/workspace/claude-code-log/test/test_cache.py', offset: 195 }),
      ),
    ).toEqual(['path: /Users/dain/workspace/claude-code-log/test/test_cache.py']);
    expect(
      factsOf(call('search_files', { pattern: 'def create_user', path: 'app/api', file_glob: '*.py' })),
    ).toEqual(['identifier: create_user', 'path: app/api']);
  });

  it('takes declarations from code arguments, and symbols from search patterns', () => {
    expect(
      factsOf(
        call('Edit', {
          file_path: 'app/crud.py',
          old_string: 'def get_user(db, user_id):\n    return db.get(User, user_id)',
          new_string:
            'def get_user(db: Session, user_id: int) -> User | None:\n    return db.get(User, user_id)',
        }),
      ),
    ).toEqual(['path: app/crud.py', 'identifier: get_user']);
    expect(factsOf(call('Grep', { pattern: 'LintResult' }))).toEqual(['identifier: LintResult']);
  });

  it('reads short text values as prose (todo items) and URLs as URLs', () => {
    expect(
      factsOf(
        call('TodoWrite', {
          todos: [{ id: '1', content: 'Fix call-non-callable error for pytest.skip()', status: 'pending' }],
        }),
      ),
    ).toEqual(['identifier: pytest.skip()']);
    expect(factsOf(call('WebFetch', { url: 'https://docs.astral.sh/ty/', prompt: 'summarise' }))).toEqual([
      'url: https://docs.astral.sh/ty/',
    ]);
  });

  it('reads a patch for its files and declarations', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/server.ts\n@@\n+export function startServer(port: number) {\n*** End Patch';
    expect(factsOf(call('apply_patch', patch))).toEqual(['path: src/server.ts', 'identifier: startServer']);
    expect(factsOf(call('apply_patch', { input: patch }))).toEqual([
      'path: src/server.ts',
      'identifier: startServer',
    ]);
  });

  it('reads arguments that are not JSON as prose', () => {
    expect(factsOf(call('notes', 'see src/app/main.py'))).toEqual(['path: src/app/main.py']);
  });
});
