import type { Message, ToolCall } from '../transcript/message.ts';
import type { Transcript } from '../transcript/transcript.ts';
import {
  demoReadmeMd,
  demoConfigPy,
  demoCrudPy,
  demoDatabasePy,
  demoMainPy,
  demoModelsPy,
  demoPyprojectToml,
  demoRequirementsTxt,
  demoSchemasPy,
  demoSecurityPy,
} from './demo-files.ts';
import { LEFTOVER_ROWS_QUERY, leftoverRowsOutput } from './demo-leftover-rows.ts';
import {
  collectNodeIds,
  lineNumberOf,
  pipInstallLog,
  pytestAllPassedLog,
  pytestDeleteFailuresLog,
  pytestFixtureFailuresLog,
  uvicornSmokeTestOutput,
} from './demo-logs.ts';
import {
  crudDeleteAfter,
  crudDeleteBefore,
  mainDeleteAfter,
  mainDeleteBefore,
  mainImportAfter,
  mainImportBefore,
} from './demo-patches.ts';
import { demoSystemPrompt } from './demo-system-prompt.ts';
import { demoConftestFixedPy, demoConftestPy, demoTestApiPy, demoTestCrudPy } from './demo-test-files.ts';
import { demoToolSchemas } from './demo-tool-schemas.ts';
import {
  patchResult,
  readFileResult,
  searchFilesResult,
  terminalResult,
  writeFileResult,
  type SearchMatch,
} from './hermes-tool-results.ts';
import { toPythonJson, type PythonJsonValue } from './python-json.ts';
import { makeToolCallId } from './anthropic-ids.ts';
import { unifiedDiffForReplace } from './unified-diff.ts';

const TEST_FILES = [
  { path: 'tests/test_api.py', content: demoTestApiPy },
  { path: 'tests/test_crud.py', content: demoTestCrudPy },
];

const PINNED_PACKAGES =
  "fastapi==0.115.6 'uvicorn[standard]==0.34.0' SQLAlchemy==2.0.36 pydantic==2.10.4 pydantic-settings==2.7.1 email-validator==2.2.0 pytest==8.3.4 httpx==0.28.1 ruff==0.8.6 mypy==1.14.1";

const SMOKE_TEST_COMMAND = [
  'touch app/__init__.py && (.venv/bin/uvicorn app.main:app --port 8000 > /tmp/uvicorn.log 2>&1 &) && sleep 2',
  "echo '--- GET /health' && curl -s localhost:8000/health && echo",
  `echo '--- POST /users (new)' && curl -s -X POST localhost:8000/users -H 'Content-Type: application/json' -d '{"email": "ada@example.com", "full_name": "Ada Lovelace", "password": "analytical-engine-1843", "role": "admin", "timezone": "Europe/London"}' && echo`,
  `echo '--- POST /users (same email, different case)' && curl -s -X POST localhost:8000/users -H 'Content-Type: application/json' -d '{"email": "ADA@example.com", "full_name": "Ada Again", "password": "analytical-engine-1843"}' && echo`,
  `echo '--- POST /users (invalid)' && curl -s -X POST localhost:8000/users -H 'Content-Type: application/json' -d '{"email": "not-an-email", "full_name": "", "password": "x"}' | python3 -m json.tool`,
  `echo '--- POST /users x2 (status only)' && for body in '{"email": "grace@example.com", "full_name": "Grace Hopper", "password": "cobol-compiler-1959", "role": "viewer", "timezone": "America/New_York"}' '{"email": "alan@example.com", "full_name": "Alan Turing", "password": "enigma-bombe-1940"}'; do curl -s -o /dev/null -w '%{http_code}\\n' -X POST localhost:8000/users -H 'Content-Type: application/json' -d "$body"; done`,
  "echo '--- GET /users?page_size=5' && curl -s 'localhost:8000/users?page_size=5' | python3 -m json.tool",
  "echo '--- GET /users/stats' && curl -s localhost:8000/users/stats && echo",
  "echo '--- GET /users/lookup?email=GRACE@example.com' && curl -s 'localhost:8000/users/lookup?email=GRACE@example.com' && echo",
  "echo '--- GET /users/export.csv' && curl -s localhost:8000/users/export.csv",
  "echo '--- GET /openapi.json' && curl -s localhost:8000/openapi.json && echo",
  "kill $(lsof -t -i :8000); sleep 1; echo '--- server log' && cat /tmp/uvicorn.log",
].join(' && ');

interface PlannedCall {
  name: string;
  args: { readonly [key: string]: PythonJsonValue };
  result: string;
}

/**
 * The built-in demo: a Hermes-style coding session that sets up a FastAPI users API, in the
 * spirit of the "Before/After Example" in Hermes' context-compression docs: 49 messages and
 * about 95K tokens by a rough characters / 4 estimate over each message's JSON (the closest
 * analogue of Hermes' len(str(message)) / 4). Counting only message text and tool arguments
 * gives about 87K; o200k_base counts about 106K.
 *
 * What it exercises: large write_file arguments (argument shrinking), long pytest and pip
 * logs (pruning into one-liners), the same file read twice (deduplication), parallel tool
 * calls, two user interruptions mid-task, and a last user message that is still unanswered.
 *
 * Deterministic: every call returns an equal, freshly built transcript.
 */
export function buildDemoTranscript(): Transcript {
  const messages: Message[] = [{ role: 'system', content: demoSystemPrompt }];
  const testCount = collectNodeIds(TEST_FILES).length;
  let callCount = 0;

  const user = (content: string): void => {
    messages.push({ role: 'user', content });
  };
  const say = (content: string): void => {
    messages.push({ role: 'assistant', content });
  };
  const act = (content: string, calls: readonly PlannedCall[]): void => {
    const toolCalls: ToolCall[] = calls.map((call) => ({
      id: makeToolCallId(`context-lab-demo-${++callCount}`),
      type: 'function',
      function: { name: call.name, arguments: toPythonJson(call.args) },
    }));
    messages.push({ role: 'assistant', content, tool_calls: toolCalls });
    calls.forEach((call, index) => {
      messages.push({
        role: 'tool',
        tool_call_id: toolCalls[index]?.id ?? '',
        name: call.name,
        content: call.result,
      });
    });
  };

  user(
    'Help me set up a FastAPI project here with a users API (create, list, get, update, delete), SQLite through SQLAlchemy, and a proper pytest suite.',
  );

  act(
    text(
      "I'll build it in this directory. Plan:",
      '',
      '1. A virtualenv with pinned dependencies (FastAPI, SQLAlchemy 2.0, Pydantic v2, pytest, httpx for the TestClient, ruff and mypy).',
      '2. An `app/` package, one module per concern: settings, database, the `User` model, Pydantic schemas, password hashing, CRUD functions and the FastAPI app.',
      '3. A smoke test with uvicorn and curl, to see real responses before writing tests.',
      '4. `tests/` with HTTP-level tests through TestClient plus unit tests for the CRUD layer.',
      '',
      'Choices I am making unless you say otherwise: SQLite file `users.db` for development, passwords hashed with PBKDF2 from the standard library (no native dependency), emails unique and case-insensitive, `PATCH` for partial updates.',
      '',
      'Starting with the environment.',
    ),
    [terminal(`python3.12 -m venv .venv && .venv/bin/pip install ${PINNED_PACKAGES}`, pipInstallLog(), 0)],
  );
  act(
    text(
      'Dependencies are in (FastAPI 0.115.6, SQLAlchemy 2.0.36, Pydantic 2.10.4). Now the application, written in one go since the modules only depend on each other in one direction (config -> database -> models -> schemas/security -> crud -> main):',
      '',
      '- `requirements.txt` with the exact versions just installed',
      '- `app/config.py`: settings read from `USERS_API_*` environment variables',
      '- `app/database.py`: engine, session factory and the `get_db` dependency',
      '- `app/models.py`: the `User` table',
      '- `app/schemas.py`: request/response models with validation',
      '- `app/security.py`: password hashing and verification',
      '- `app/crud.py`: all database access',
      '- `app/main.py`: the routes',
    ),
    [
      writeFile('requirements.txt', demoRequirementsTxt, false),
      writeFile('app/config.py', demoConfigPy, true),
      writeFile('app/database.py', demoDatabasePy, false),
      writeFile('app/models.py', demoModelsPy, false),
      writeFile('app/schemas.py', demoSchemasPy, false),
      writeFile('app/security.py', demoSecurityPy, false),
      writeFile('app/crud.py', demoCrudPy, false),
      writeFile('app/main.py', demoMainPy, false),
    ],
  );
  act(
    'Before writing tests, a smoke test: start the server, exercise creation, the duplicate check, validation and listing with curl, fetch the OpenAPI schema, then stop the server. A README while I am at it.',
    [writeFile('README.md', demoReadmeMd, false), terminal(SMOKE_TEST_COMMAND, uvicornSmokeTestOutput(), 0)],
  );
  act(
    text(
      'The smoke test behaves:',
      '',
      '- `/health` reports the database as reachable.',
      '- Creating a user returns 201, and the body has no password or hash field.',
      '- The same email in different case is rejected with 409.',
      '- Invalid input gives a single 422 that lists all three problems (email, name, password).',
      '- The OpenAPI schema has every route, including `/users/lookup`, `/users/stats` and the CSV export.',
      '',
      'Now the tests:',
      '',
      '- `pyproject.toml`: pytest settings (`pythonpath`, `-ra`, INFO-level log capture) plus ruff and mypy config',
      '- `tests/conftest.py`: a separate `test.db` so tests never touch `users.db`, a TestClient with `get_db` overridden, and a `make_user` factory that uses random emails',
      '- `tests/test_api.py`: HTTP-level tests for every route, including the validation rules, pagination maths, filters, sorting, CSV export and error statuses',
      '- `tests/test_crud.py`: unit tests for the CRUD layer directly against a session',
    ),
    [
      writeFile('pyproject.toml', demoPyprojectToml, false),
      writeFile('tests/conftest.py', demoConftestPy, true),
      writeFile('tests/test_api.py', demoTestApiPy, false),
      writeFile('tests/test_crud.py', demoTestCrudPy, false),
    ],
  );
  act('Running the whole suite.', [
    terminal(
      'touch tests/__init__.py && .venv/bin/python -m pytest --tb=short',
      pytestDeleteFailuresLog({
        testFiles: TEST_FILES,
        testApi: demoTestApiPy,
        main: demoMainPy,
        crud: demoCrudPy,
      }),
      1,
    ),
  ]);
  say(
    text(
      `The project is in place and ${testCount - 2} of ${testCount} tests pass: creation and validation, lookups, stats, CSV export, pagination, filters, sorting, updates, activation and the CRUD unit tests.`,
      '',
      'The two failures are both on delete:',
      '',
      '```',
      "FAILED tests/test_api.py::test_delete_user - sqlalchemy.exc.InvalidRequestError: Instance '<User at 0x7f3a5c1e2b90>' is not persistent within this Session",
      'FAILED tests/test_api.py::test_delete_user_twice_returns_404 - (same error)',
      '```',
      '',
      'The traceback ends in `crud.delete_user` -> `db.refresh(user)` -> `Session._validate_persistent` while handling `DELETE /users/{id}`; the request never reaches the response serialisation. `test_delete_user_not_found` and the 422 test for a non-integer id pass, because both stop before the CRUD call.',
      '',
      'Everything else passes, so the rest of the API can be used as is. The run took about 80 s, most of it password hashing (each created user costs one 600,000-round PBKDF2 hash).',
      '',
      'Want me to dig into the delete failures?',
    ),
  );

  user('The tests for delete are failing, can you look?');

  act(
    'Looking at the whole delete path: where refresh and delete are called, the CRUD module, the route, the response schema and the tests that exercise it.',
    [
      searchFiles('db\\.refresh|db\\.delete|def delete_user', 'app', [
        ['app/crud.py', demoCrudPy],
        ['app/main.py', demoMainPy],
      ]),
      readFile('app/crud.py', demoCrudPy),
      readFile('app/main.py', demoMainPy),
      readFile('app/schemas.py', demoSchemasPy),
      readFile('tests/test_api.py', demoTestApiPy),
    ],
  );

  const crudFixed = demoCrudPy.replace(crudDeleteBefore, crudDeleteAfter);
  const mainRouteFixed = demoMainPy.replace(mainDeleteBefore, mainDeleteAfter);
  act(
    text(
      'Found it. Two problems, one in each layer.',
      '',
      '**1. `crud.delete_user` refreshes a deleted row.** This is the crash:',
      '',
      '```python',
      'db.delete(user)',
      'db.commit()       # the row is deleted and the instance becomes detached',
      'db.refresh(user)  # InvalidRequestError: ... is not persistent within this Session',
      '```',
      '',
      'Once the delete is committed, the instance no longer belongs to the session and its row no longer exists, so there is nothing to refresh from. The commit happens before the error, which is why the user really is gone even though the request crashed (the second DELETE in `test_delete_user_twice_returns_404` would have found nothing either).',
      '',
      '**2. The route promises the deleted record.** `DELETE /users/{user_id}` is declared with `response_model=schemas.UserRead` and returns the deleted user, while the tests expect `204 No Content` with an empty body, which is also the usual REST contract for deletes.',
      '',
      "Fix: `delete_user` reads the id it needs for the log line up front and returns nothing, and the route answers with an empty 204 (`response_class=Response`, so the OpenAPI schema doesn't advertise a JSON body). `Response` has to be imported in `main.py`.",
    ),
    [
      patch('app/crud.py', demoCrudPy, crudDeleteBefore, crudDeleteAfter),
      patch('app/main.py', demoMainPy, mainDeleteBefore, mainDeleteAfter),
      patch('app/main.py', mainRouteFixed, mainImportBefore, mainImportAfter),
    ],
  );
  act('Re-running the tests.', [
    terminal('.venv/bin/python -m pytest -q', pytestFixtureFailuresLog(TEST_FILES), 1),
  ]);
  say(
    text(
      'Both delete tests pass now. Two other tests fail, and this time the app is not at fault; the test setup is:',
      '',
      '- `test_create_user` gets a 409: `alice@example.com is already registered`.',
      '- `test_list_users_paginates` expects 25 "Pager" users and finds 50.',
      '',
      "Both look like rows left over from the previous run. `conftest.py` uses a file database (`test.db`) whose tables are created once and never cleaned, so each run sees everything earlier runs committed. Tests that use random emails or a random search tag don't notice; the two that rely on fixed data do. The first full run only passed them because `test.db` was still empty.",
      '',
      'From the log:',
      '',
      '```',
      'E       AssertionError: {"detail":"Email alice@example.com is already registered"}',
      'E       assert 409 == 201',
      '...',
      'E       assert 50 == 25',
      '```',
      '',
      'The right fix is in the fixtures (a fresh database per test), not in the tests: otherwise every future test has to remember to use unique data, and a failed run would keep poisoning the next one. Shall I go ahead?',
    ),
  );

  user('Fix the failing tests');

  act('First I want to confirm the leftovers, and check which tests depend on shared state.', [
    readFile('tests/test_api.py', demoTestApiPy),
    readFile('tests/conftest.py', demoConftestPy),
    terminal(
      `sqlite3 -header test.db "${LEFTOVER_ROWS_QUERY}"`,
      leftoverRowsOutput([
        {
          nodeIds: collectNodeIds(TEST_FILES),
          failedBeforeInsert: new Set(),
          startedAt: '2025-01-14 10:51:02',
        },
        {
          nodeIds: collectNodeIds(TEST_FILES),
          failedBeforeInsert: new Set(['test_create_user']),
          startedAt: '2025-01-14 11:03:40',
        },
      ]),
      0,
    ),
  ]);
  act(
    text(
      'Confirmed: `test.db` holds the users of both runs, `alice@example.com` once (from the first run) and 50 "Pager" rows (25 per run).',
      '',
      'I see the issue with the test fixtures: `create_schema` is session-scoped and never drops anything, and `db_session` only closes its session, so every commit made through the API stays in `test.db` for all later tests and runs. Every other test passes only because it uses random data.',
      '',
      'New fixtures:',
      '',
      '- `engine`: a fresh in-memory SQLite engine per test, tables created before and dropped after. It needs `StaticPool`, because each new connection to `sqlite://` is a separate empty database; with one shared connection the session and the request handlers see the same tables.',
      '- `db_session`: a session bound to that engine.',
      '- `client` and `make_user` keep their names and signatures, so no test has to change.',
    ),
    [writeFile('tests/conftest.py', demoConftestFixedPy, false)],
  );
  act('Removing the stale `test.db` and running the full suite again.', [
    terminal('rm -f test.db && .venv/bin/python -m pytest -v', pytestAllPassedLog(TEST_FILES), 0),
  ]);
  say(
    text(
      `All ${testCount} tests pass.`,
      '',
      "**What's in the project**",
      '- `app/config.py`: settings from `USERS_API_*` environment variables or `.env`',
      '- `app/database.py`: engine, session factory, the `get_db` dependency (SQLite foreign keys switched on)',
      '- `app/models.py`: `User` with unique lower-cased email, role, active flag and timestamps',
      '- `app/schemas.py`: `UserCreate` / `UserUpdate` (unknown fields rejected, password rules) and `UserRead` / `UserPage` / `UserStats`',
      '- `app/security.py`: PBKDF2-SHA256 password hashing, constant-time verification',
      '- `app/crud.py`: queries, filters, sorting, pagination, stats, streaming export and `authenticate`',
      '- `app/main.py`: `/health` and the `/users` routes (create, list, lookup, stats, CSV export, get, patch, activate/deactivate, delete)',
      `- \`tests/\`: ${testCount} tests, HTTP-level through FastAPI's TestClient plus CRUD unit tests`,
      '',
      '**Fixed along the way**',
      `- \`DELETE /users/{id}\` crashed: \`crud.delete_user\` refreshed a row it had just deleted. It now returns 204 with an empty body (\`crud.py\` line ${lineNumberOf(crudFixed, 'def delete_user(')}, \`main.py\` line ${lineNumberOf(mainRouteFixed, '@app.delete(')}).`,
      '- Tests leaked data between runs through `test.db`; every test now gets a fresh in-memory database.',
      '',
      '**Good to know**',
      '- The suite takes about 80 s, almost all of it PBKDF2 hashing at 600,000 iterations per created user. If that gets annoying, the test fixtures can lower `USERS_API_PASSWORD_HASH_ITERATIONS`.',
      '- Tables are created on startup with `create_all`; before this runs against a shared database it should move to Alembic migrations.',
      '- Errors are FastAPI defaults for now: `HTTPException` details for 404/409 and the standard 422 body for validation.',
      '',
      'Run the server with `.venv/bin/uvicorn app.main:app --reload` and open http://127.0.0.1:8000/docs.',
    ),
  );

  user('Great, also add error handling');

  return {
    messages,
    metadata: {
      format: 'internal',
      title: 'Demo: FastAPI project with tests',
      model: 'claude-sonnet-4-6',
      systemPrompt: demoSystemPrompt,
      tools: [...demoToolSchemas],
      compactionPoints: [],
    },
  };
}

function text(...lines: readonly string[]): string {
  return lines.join('\n');
}

function terminal(command: string, output: string, exitCode: number): PlannedCall {
  return { name: 'terminal', args: { command }, result: terminalResult(output, exitCode) };
}

function writeFile(path: string, content: string, dirsCreated: boolean): PlannedCall {
  return { name: 'write_file', args: { path, content }, result: writeFileResult(content, dirsCreated) };
}

function readFile(path: string, content: string): PlannedCall {
  return { name: 'read_file', args: { path, offset: 1 }, result: readFileResult(content) };
}

function patch(path: string, before: string, oldString: string, newString: string): PlannedCall {
  const diff = unifiedDiffForReplace(path, before, oldString, newString);
  if (diff === undefined) throw new Error(`demo data is inconsistent: patch target not found in ${path}`);
  return {
    name: 'patch',
    args: { mode: 'replace', path, old_string: oldString, new_string: newString },
    result: patchResult(path, diff),
  };
}

/** A content search over the given files, with results computed from their text. */
function searchFiles(
  pattern: string,
  path: string,
  files: readonly (readonly [string, string])[],
): PlannedCall {
  const expression = new RegExp(pattern);
  const matches: SearchMatch[] = [];
  for (const [filePath, content] of files) {
    content.split('\n').forEach((line, index) => {
      if (expression.test(line)) matches.push({ path: filePath, line: index + 1, content: line });
    });
  }
  return {
    name: 'search_files',
    args: { pattern, target: 'content', path, file_glob: '*.py' },
    result: searchFilesResult(matches),
  };
}
