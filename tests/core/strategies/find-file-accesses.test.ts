import { describe, expect, it } from 'vitest';
import { fileCopyText, findFileAccesses } from '#core/strategies/find-file-accesses.ts';
import type { Message } from '#core/transcript/message.ts';
import { calls, result, user } from '#tests/helpers/strategy-fixtures.ts';

const summary = (messages: Message[]) =>
  findFileAccesses(messages).map(
    ({ kind, path, toolName, callIndex, callPosition, resultIndex, writtenContent }) => ({
      kind,
      path,
      toolName,
      callIndex,
      callPosition,
      resultIndex,
      writtenContent,
    }),
  );

describe('findFileAccesses', () => {
  it("reads Claude Code's tools by file_path and pairs a read with its result", () => {
    const messages: Message[] = [
      user('go'),
      calls([
        ['a', 'Read', { file_path: '/src/a.ts' }],
        ['b', 'Write', { file_path: '/src/b.ts', content: 'export {}' }],
      ]),
      result('a', 'const a = 1;'),
      result('b', 'File created'),
      calls([
        ['c', 'Edit', { file_path: '/src/a.ts', old_string: '1', new_string: '2' }],
        ['d', 'MultiEdit', { file_path: '/src/b.ts', edits: [] }],
        ['e', 'NotebookEdit', { notebook_path: '/nb.ipynb', new_source: 'x' }],
      ]),
      result('c', 'ok'),
      result('d', 'ok'),
      result('e', 'ok'),
    ];
    expect(summary(messages)).toEqual([
      {
        kind: 'read',
        path: '/src/a.ts',
        toolName: 'Read',
        callIndex: 1,
        callPosition: 0,
        resultIndex: 2,
        writtenContent: null,
      },
      {
        kind: 'write',
        path: '/src/b.ts',
        toolName: 'Write',
        callIndex: 1,
        callPosition: 1,
        resultIndex: -1,
        writtenContent: 'export {}',
      },
      {
        kind: 'edit',
        path: '/src/a.ts',
        toolName: 'Edit',
        callIndex: 4,
        callPosition: 0,
        resultIndex: -1,
        writtenContent: null,
      },
      {
        kind: 'edit',
        path: '/src/b.ts',
        toolName: 'MultiEdit',
        callIndex: 4,
        callPosition: 1,
        resultIndex: -1,
        writtenContent: null,
      },
      {
        kind: 'edit',
        path: '/nb.ipynb',
        toolName: 'NotebookEdit',
        callIndex: 4,
        callPosition: 2,
        resultIndex: -1,
        writtenContent: null,
      },
    ]);
    expect(fileCopyText(messages, findFileAccesses(messages)[0]!)).toBe('const a = 1;');
    expect(fileCopyText(messages, findFileAccesses(messages)[1]!)).toBe('export {}');
    expect(fileCopyText(messages, findFileAccesses(messages)[2]!)).toBeNull();
  });

  it('reads the generic agent tools, Cline’s tools and the text editor tool by path', () => {
    const messages: Message[] = [
      calls([
        ['a', 'read_file', { path: 'a.py', offset: 1 }],
        ['b', 'write_file', { path: 'b.py', content: 'B' }],
        ['c', 'str_replace', { path: 'c.py', old_str: 'x', new_str: 'y' }],
        ['d', 'patch', { mode: 'replace', path: 'd.py' }],
        ['e', 'write_to_file', { path: 'e.py', content: 'E' }],
        ['f', 'replace_in_file', { path: 'f.py', diff: '…' }],
        ['g', 'str_replace_based_edit_tool', { command: 'view', path: 'g.py' }],
        ['h', 'str_replace_based_edit_tool', { command: 'create', path: 'h.py', file_text: 'H' }],
        ['i', 'str_replace_based_edit_tool', { command: 'insert', path: 'i.py', insert_line: 1 }],
      ]),
      ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((id) => result(id, `${id} done`)),
    ];
    expect(
      findFileAccesses(messages).map((access) => [
        access.kind,
        access.path,
        access.resultIndex,
        access.writtenContent,
      ]),
    ).toEqual([
      ['read', 'a.py', 1, null],
      ['write', 'b.py', -1, 'B'],
      ['edit', 'c.py', -1, null],
      ['edit', 'd.py', -1, null],
      ['write', 'e.py', -1, 'E'],
      ['edit', 'f.py', -1, null],
      ['read', 'g.py', 7, null],
      ['write', 'h.py', -1, 'H'],
      ['edit', 'i.py', -1, null],
    ]);
    expect(findFileAccesses(messages).find((access) => access.path === 'h.py')?.contentKey).toBe('file_text');
  });

  it('ignores other tools, calls without a path, malformed arguments and failed reads', () => {
    const messages: Message[] = [
      calls([
        ['a', 'terminal', { command: 'cat a.py' }],
        ['b', 'patch', { mode: 'patch', patch: '*** Begin Patch' }],
        ['c', 'read_file', { path: 'missing.py' }],
        ['d', 'Read', { file_path: 'denied.py' }],
        ['e', 'read_file', { path: 'never-answered.py' }],
      ]),
      result('a', 'print(1)'),
      result('b', 'ok'),
      result('c', '{"error": "File not found: missing.py"}'),
      result('d', 'Permission denied', { is_error: true }),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'Read', arguments: '{not json' } }],
      },
    ];
    expect(findFileAccesses(messages).map((access) => [access.path, access.resultIndex])).toEqual([
      ['missing.py', -1],
      ['denied.py', -1],
      ['never-answered.py', -1],
    ]);
  });

  it('matches a result by the Responses-style call_id too', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'fc_1',
            call_id: 'call_1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a.py"}' },
          },
        ],
      },
      result('call_1', 'A'),
    ];
    expect(findFileAccesses(messages)[0]!.resultIndex).toBe(1);
  });
});
