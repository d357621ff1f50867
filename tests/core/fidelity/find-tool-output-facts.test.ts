import { describe, expect, it } from 'vitest';
import { findToolOutputFacts } from '#core/fidelity/find-tool-output-facts.ts';
import { SCAN_HEAD_CHARACTERS, SCAN_TAIL_CHARACTERS } from '#core/fidelity/scan-windows.ts';
import { shown, testCollector, texts } from './fact-sink.ts';

function factsOf(output: string): string[] {
  const sink = testCollector();
  findToolOutputFacts(output, sink);
  return shown(sink.facts());
}

describe('findToolOutputFacts', () => {
  it('takes a Python traceback: its project frames and its final error line', () => {
    expect(
      factsOf(
        [
          'Traceback (most recent call last):',
          '  File "/home/dev/api/app/main.py", line 12, in <module>',
          '    run()',
          '  File "/home/dev/api/.venv/lib/python3.12/site-packages/uvicorn/main.py", line 4, in run',
          '  File "<frozen os>", line 225, in makedirs',
          "PermissionError: [Errno 13] Permission denied: '/app'",
        ].join('\n'),
      ),
    ).toEqual([
      'path: /home/dev/api/app/main.py',
      "error: PermissionError: [Errno 13] Permission denied: '/app'",
    ]);
  });

  it('takes pytest failures by node id, with their file and exception', () => {
    expect(
      factsOf(
        [
          'E       AssertionError: assert 50 == 25',
          'tests/test_api.py:42: AssertionError',
          '=========================== short test summary info ============================',
          'FAILED tests/test_api.py::test_list_users_paginates - assert 50 == 25',
          "FAILED tests/test_api.py::test_create_user - KeyError: 'id'",
        ].join('\n'),
      ),
    ).toEqual([
      'error: AssertionError: assert 50 == 25',
      'path: tests/test_api.py',
      'error: AssertionError',
      'error: FAILED tests/test_api.py::test_list_users_paginates',
      "error: KeyError: 'id'",
      'error: FAILED tests/test_api.py::test_create_user',
    ]);
  });

  it('matches a failing test by its node id', () => {
    const sink = testCollector();
    findToolOutputFacts('FAILED tests/test_api.py::test_create_user', sink);
    expect(texts(sink.facts(), 'error')).toEqual(['tests/test_api.py::test_create_user']);
  });

  it('takes tsc, mypy, rust-style and generic error lines with their files', () => {
    expect(
      factsOf(
        [
          "src/app.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
          'app/models.py:7: error: Incompatible types in assignment',
          'error[E0382]: borrow of moved value: `x`',
          '  --> src/main.rs:4:9',
          'fatal: not a git repository (or any of the parent directories): .git',
          'npm ERR! code ELIFECYCLE',
        ].join('\n'),
      ),
    ).toEqual([
      'path: src/app.ts',
      "error: error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      'path: app/models.py',
      'error: error: Incompatible types in assignment',
      'error: error[E0382]: borrow of moved value: `x`',
      // Shown as written; matched as src/main.rs.
      'path: src/main.rs:4:9',
      'error: fatal: not a git repository (or any of the parent directories): .git',
      'error: npm ERR! code ELIFECYCLE',
    ]);
  });

  it('takes the files of a diff and of a patch', () => {
    expect(
      factsOf(
        [
          'diff --git a/app/crud.py b/app/crud.py',
          '--- a/app/crud.py',
          '+++ b/app/crud.py',
          '@@ -1,3 +1,4 @@',
          '*** Update File: src/server.ts',
          '--- stderr ---',
        ].join('\n'),
      ),
    ).toEqual(['path: app/crud.py', 'path: src/server.ts']);
  });

  it('reads a one-line JSON result across its \\n escapes, without the JSON around the text', () => {
    const output = JSON.stringify({
      output:
        'collected 3 items\nTraceback (most recent call last):\n  File "app/db.py", line 3\nKeyError: "user_id"',
      exit_code: 1,
      error: null,
    });
    expect(factsOf(output)).toEqual(['path: app/db.py', 'error: KeyError: "user_id"']);
  });

  it('takes the last line of a failing program that printed no error line', () => {
    expect(
      factsOf('<returncode>2</returncode>\n<output>\nbuilding...\n3 failed, 12 passed in 1.2s\n</output>'),
    ).toEqual(['error: 3 failed, 12 passed in 1.2s (exit code 2)']);
    expect(
      factsOf(JSON.stringify({ output: 'checking\nmake: *** [Makefile:9: test] Error 2\n', exit_code: 2 })),
    ).toEqual(['error: make: *** [Makefile:9: test] Error 2 (exit code 2)']);
    expect(factsOf('Process exited with code 0\nOutput:\nall good')).toEqual([]);
    // Nothing printed: the exit code report is not a message.
    expect(factsOf('<returncode>1</returncode>\n<output>\n</output>')).toEqual([]);
    expect(
      factsOf('Chunk ID: 9d5e71\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n'),
    ).toEqual([]);
    expect(factsOf('Chunk ID: 9d5e71\nProcess exited with code 2\nOutput:\nrg: src/x: No such file')).toEqual(
      ['error: rg: src/x: No such file (exit code 2)'],
    );
  });

  it('does not take a line of code for an error message', () => {
    expect(factsOf('  error: vi.fn(),\n  warning: DeprecationWarning')).toEqual([]);
  });

  it('reads only the start and the end of a long output, and no line cut by a window edge', () => {
    const middle = 'ValueError: in the middle\n'.repeat(1_000);
    const output = [
      'ImportError: at the start',
      'x'.repeat(SCAN_HEAD_CHARACTERS),
      middle,
      'y'.repeat(SCAN_TAIL_CHARACTERS),
      'KeyError: at the end',
    ].join('\n');
    expect(factsOf(output)).toEqual(['error: ImportError: at the start', 'error: KeyError: at the end']);
  });

  it('does not stall on a 10 MB unbroken string', () => {
    expect(factsOf(`Error: ${'z'.repeat(10_000_000)}`)).toEqual([]);
  });
});
