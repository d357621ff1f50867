import { demoOpenApiDocument } from './demo-openapi.ts';

// Command output for the demo session: pip, uvicorn and pytest as they print on Linux with
// Python 3.12. The pytest logs are derived from the demo test file (test names, line numbers,
// source lines), so they always agree with the code the agent wrote.

const PROJECT_DIRECTORY = '/home/dev/projects/users-api';
const SITE_PACKAGES = '.venv/lib/python3.12/site-packages';
/** pytest lays out its progress column and banners for an 80-column terminal. */
const TERMINAL_WIDTH_CHARACTERS = 80;

// --------------------------------------------------------------------------- pip

interface PipPackage {
  name: string;
  version: string;
  wheel: string;
  metadataSize: string;
  wheelSize: string;
  /** The package that required it, or '' for a package named on the command line. */
  from: string;
  /** What pip prints after "Collecting". */
  specifier: string;
}

/** Packages named on the pip command line have no "(from …)" note. */
const direct = '';

/** name, version, wheel platform tag, metadata size, wheel size, required by, specifier, wheel name. */
type PipRow = readonly [string, string, string, string, string, string, string?, string?];

// prettier-ignore
const PIP_ROWS: readonly PipRow[] = [
  ['fastapi', '0.115.6', 'py3-none-any', '27 kB', '94 kB', direct],
  ['uvicorn', '0.34.0', 'py3-none-any', '6.5 kB', '62 kB', direct, 'uvicorn==0.34.0 (from uvicorn[standard]==0.34.0)'],
  ['SQLAlchemy', '2.0.36', 'cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64', '9.7 kB', '3.2 MB', direct],
  ['pydantic', '2.10.4', 'py3-none-any', '29 kB', '431 kB', direct],
  ['pydantic-settings', '2.7.1', 'py3-none-any', '3.5 kB', '29 kB', direct, undefined, 'pydantic_settings'],
  ['email-validator', '2.2.0', 'py3-none-any', '25 kB', '33 kB', direct, undefined, 'email_validator'],
  ['pytest', '8.3.4', 'py3-none-any', '7.5 kB', '343 kB', direct],
  ['httpx', '0.28.1', 'py3-none-any', '7.1 kB', '73 kB', direct],
  ['ruff', '0.8.6', 'py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64', '25 kB', '11.3 MB', direct],
  ['mypy', '1.14.1', 'cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.manylinux_2_28_x86_64', '2.1 kB', '12.8 MB', direct],
  ['starlette', '0.41.3', 'py3-none-any', '6.0 kB', '73 kB', 'fastapi==0.115.6', 'starlette<0.42.0,>=0.40.0'],
  ['typing-extensions', '4.12.2', 'py3-none-any', '3.0 kB', '37 kB', 'fastapi==0.115.6', 'typing-extensions>=4.8.0', 'typing_extensions'],
  ['click', '8.1.8', 'py3-none-any', '2.3 kB', '98 kB', 'uvicorn==0.34.0->uvicorn[standard]==0.34.0', 'click>=7.0'],
  ['h11', '0.14.0', 'py3-none-any', '8.2 kB', '58 kB', 'uvicorn==0.34.0->uvicorn[standard]==0.34.0', 'h11>=0.8'],
  ['greenlet', '3.1.1', 'cp312-cp312-manylinux_2_24_x86_64.manylinux_2_28_x86_64', '3.8 kB', '613 kB', 'SQLAlchemy==2.0.36', 'greenlet!=0.4.17'],
  ['annotated-types', '0.7.0', 'py3-none-any', '15 kB', '13 kB', 'pydantic==2.10.4', 'annotated-types>=0.6.0', 'annotated_types'],
  ['pydantic-core', '2.27.2', 'cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64', '6.6 kB', '2.0 MB', 'pydantic==2.10.4', 'pydantic-core==2.27.2', 'pydantic_core'],
  ['python-dotenv', '1.0.1', 'py3-none-any', '23 kB', '19 kB', 'pydantic-settings==2.7.1', 'python-dotenv>=0.21.0', 'python_dotenv'],
  ['dnspython', '2.7.0', 'py3-none-any', '5.8 kB', '313 kB', 'email-validator==2.2.0', 'dnspython>=2.0.0'],
  ['idna', '3.10', 'py3-none-any', '10 kB', '70 kB', 'email-validator==2.2.0', 'idna>=2.0.0'],
  ['iniconfig', '2.0.0', 'py3-none-any', '2.6 kB', '5.9 kB', 'pytest==8.3.4', 'iniconfig'],
  ['packaging', '24.2', 'py3-none-any', '3.2 kB', '65 kB', 'pytest==8.3.4', 'packaging'],
  ['pluggy', '1.5.0', 'py3-none-any', '4.8 kB', '20 kB', 'pytest==8.3.4', 'pluggy<2,>=1.5'],
  ['anyio', '4.8.0', 'py3-none-any', '4.6 kB', '96 kB', 'httpx==0.28.1', 'anyio'],
  ['certifi', '2024.12.14', 'py3-none-any', '2.3 kB', '164 kB', 'httpx==0.28.1', 'certifi'],
  ['httpcore', '1.0.7', 'py3-none-any', '21 kB', '78 kB', 'httpx==0.28.1', 'httpcore==1.*'],
  ['mypy-extensions', '1.0.0', 'py3-none-any', '1.1 kB', '4.7 kB', 'mypy==1.14.1', 'mypy_extensions>=1.0.0', 'mypy_extensions'],
  ['sniffio', '1.3.1', 'py3-none-any', '3.9 kB', '10 kB', 'anyio->httpx==0.28.1', 'sniffio>=1.1'],
  ['httptools', '0.6.4', 'cp312-cp312-manylinux_2_5_x86_64.manylinux1_x86_64.manylinux_2_17_x86_64.manylinux2014_x86_64', '3.6 kB', '510 kB', 'uvicorn[standard]==0.34.0', 'httptools>=0.6.3'],
  ['PyYAML', '6.0.2', 'cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64', '2.1 kB', '767 kB', 'uvicorn[standard]==0.34.0', 'pyyaml>=5.1', 'PyYAML'],
  ['uvloop', '0.21.0', 'cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64', '4.9 kB', '4.7 MB', 'uvicorn[standard]==0.34.0', 'uvloop!=0.15.0,!=0.15.1,>=0.14.0'],
  ['watchfiles', '1.0.4', 'cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64', '4.9 kB', '452 kB', 'uvicorn[standard]==0.34.0', 'watchfiles>=0.13'],
  ['websockets', '14.1', 'cp312-cp312-manylinux_2_5_x86_64.manylinux1_x86_64.manylinux_2_17_x86_64.manylinux2014_x86_64', '6.7 kB', '168 kB', 'uvicorn[standard]==0.34.0', 'websockets>=10.4'],
];

const PIP_PACKAGES: readonly PipPackage[] = PIP_ROWS.map((row) => pipPackage(...row));

function pipPackage(
  name: string,
  version: string,
  platformTag: string,
  metadataSize: string,
  wheelSize: string,
  from: string,
  specifier?: string,
  wheelName?: string,
): PipPackage {
  const distribution = (wheelName ?? name).replace(/-/g, '_');
  return {
    name,
    version,
    wheel: `${distribution}-${version}-${platformTag}.whl`,
    metadataSize,
    wheelSize,
    from,
    specifier: specifier ?? `${name}==${version}`,
  };
}

/** `pip install <pinned packages>` into a fresh venv (no progress bars: not a TTY). */
export function pipInstallLog(): string {
  const lines: string[] = [];
  for (const item of PIP_PACKAGES) {
    lines.push(`Collecting ${item.specifier}${item.from === '' ? '' : ` (from ${item.from})`}`);
    lines.push(`  Downloading ${item.wheel.replace(/\.whl$/, '.whl.metadata')} (${item.metadataSize})`);
  }
  for (const item of PIP_PACKAGES) lines.push(`Downloading ${item.wheel} (${item.wheelSize})`);
  // pip installs dependencies before the packages that need them.
  const installOrder = [
    ...PIP_PACKAGES.filter((item) => item.from !== direct).reverse(),
    ...PIP_PACKAGES.filter((item) => item.from === direct),
  ];
  lines.push(`Installing collected packages: ${installOrder.map((item) => item.name).join(', ')}`);
  lines.push(
    `Successfully installed ${installOrder.map((item) => `${item.name}-${item.version}`).join(' ')}`,
  );
  lines.push('');
  lines.push('[notice] A new release of pip is available: 24.2 -> 24.3.1');
  lines.push('[notice] To update, run: python -m pip install --upgrade pip');
  return lines.join('\n') + '\n';
}

// --------------------------------------------------------------------------- uvicorn

const SMOKE_TEST_USERS = [
  // created_at and updated_at differ by microseconds: the two column defaults call utcnow() separately.
  {
    email: 'ada@example.com',
    fullName: 'Ada Lovelace',
    role: 'admin',
    timezone: 'Europe/London',
    createdAt: '2025-01-14T10:42:17.318502',
    updatedAt: '2025-01-14T10:42:17.318507',
  },
  {
    email: 'grace@example.com',
    fullName: 'Grace Hopper',
    role: 'viewer',
    timezone: 'America/New_York',
    createdAt: '2025-01-14T10:42:18.102947',
    updatedAt: '2025-01-14T10:42:18.102951',
  },
  {
    email: 'alan@example.com',
    fullName: 'Alan Turing',
    role: 'member',
    timezone: 'UTC',
    createdAt: '2025-01-14T10:42:18.517733',
    updatedAt: '2025-01-14T10:42:18.517736',
  },
];

/** The smoke test: start uvicorn, hit a few endpoints with curl, stop it, print its log. */
export function uvicornSmokeTestOutput(): string {
  const validationErrors = `{
    "detail": [
        {
            "type": "value_error",
            "loc": [
                "body",
                "email"
            ],
            "msg": "value is not a valid email address: An email address must have an @-sign.",
            "input": "not-an-email",
            "ctx": {
                "reason": "An email address must have an @-sign."
            }
        },
        {
            "type": "string_too_short",
            "loc": [
                "body",
                "full_name"
            ],
            "msg": "String should have at least 1 character",
            "input": "",
            "ctx": {
                "min_length": 1
            }
        },
        {
            "type": "value_error",
            "loc": [
                "body",
                "password"
            ],
            "msg": "Value error, password must be at least 10 characters",
            "input": "x",
            "ctx": {
                "error": {}
            }
        }
    ]
}`;
  const users = SMOKE_TEST_USERS.map((user, index) => ({
    id: index + 1,
    email: user.email,
    full_name: user.fullName,
    role: user.role,
    is_active: true,
    bio: null,
    timezone: user.timezone,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    last_login_at: null,
  }));
  const [ada, grace] = users;
  const newestFirst = [...users].reverse();
  const page = { items: newestFirst, total: users.length, page: 1, page_size: 5, pages: 1 };
  const csv = [
    'id,email,full_name,role,is_active,timezone,created_at',
    ...users.map((user) =>
      [user.id, user.email, user.full_name, user.role, 'true', user.timezone, user.created_at].join(','),
    ),
  ]
    // Python's csv module ends every row with CRLF.
    .map((row) => `${row}\r\n`)
    .join('');
  return [
    '--- GET /health',
    '{"status":"ok","version":"0.1.0","database":"ok"}',
    '--- POST /users (new)',
    JSON.stringify(ada),
    '--- POST /users (same email, different case)',
    '{"detail":"Email ada@example.com is already registered"}',
    '--- POST /users (invalid)',
    validationErrors,
    '--- POST /users x2 (status only)',
    '201',
    '201',
    '--- GET /users?page_size=5',
    JSON.stringify(page, null, 4),
    '--- GET /users/stats',
    '{"total":3,"active":3,"inactive":0,"by_role":{"member":1,"admin":1,"viewer":1}}',
    '--- GET /users/lookup?email=GRACE@example.com',
    JSON.stringify(grace),
    '--- GET /users/export.csv',
    csv,
    '--- GET /openapi.json',
    demoOpenApiDocument(),
    '--- server log',
    'INFO:     Started server process [48213]',
    'INFO:     Waiting for application startup.',
    'INFO:     Application startup complete.',
    'INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)',
    'INFO:     127.0.0.1:52814 - "GET /health HTTP/1.1" 200 OK',
    'INFO:     127.0.0.1:52822 - "POST /users HTTP/1.1" 201 Created',
    'INFO:     127.0.0.1:52830 - "POST /users HTTP/1.1" 409 Conflict',
    'INFO:     127.0.0.1:52836 - "POST /users HTTP/1.1" 422 Unprocessable Entity',
    'INFO:     127.0.0.1:52838 - "POST /users HTTP/1.1" 201 Created',
    'INFO:     127.0.0.1:52840 - "POST /users HTTP/1.1" 201 Created',
    'INFO:     127.0.0.1:52842 - "GET /users?page_size=5 HTTP/1.1" 200 OK',
    'INFO:     127.0.0.1:52844 - "GET /users/stats HTTP/1.1" 200 OK',
    'INFO:     127.0.0.1:52846 - "GET /users/lookup?email=GRACE@example.com HTTP/1.1" 200 OK',
    'INFO:     127.0.0.1:52848 - "GET /users/export.csv HTTP/1.1" 200 OK',
    'INFO:     127.0.0.1:52850 - "GET /openapi.json HTTP/1.1" 200 OK',
    'INFO:     Shutting down',
    'INFO:     Waiting for application shutdown.',
    'INFO:     Application shutdown complete.',
    'INFO:     Finished server process [48213]',
    '',
  ].join('\n');
}

// --------------------------------------------------------------------------- pytest

/** The test ids pytest collects from a test file, parametrized ids expanded, in file order. */
export function collectTestIds(testFile: string): string[] {
  const ids: string[] = [];
  let pendingParameterIds: string[] = [];
  let insideParametrize = false;
  for (const line of testFile.split('\n')) {
    if (line.startsWith('@pytest.mark.parametrize')) insideParametrize = true;
    if (insideParametrize) {
      for (const match of line.matchAll(/\bid="([^"]+)"/g)) if (match[1]) pendingParameterIds.push(match[1]);
    }
    const definition = /^def (test_\w+)/.exec(line);
    if (definition?.[1]) {
      const name = definition[1];
      if (pendingParameterIds.length > 0) ids.push(...pendingParameterIds.map((id) => `${name}[${id}]`));
      else ids.push(name);
      pendingParameterIds = [];
      insideParametrize = false;
    }
  }
  return ids;
}

/** A test file of the demo project: its path relative to the project and its source. */
export interface DemoTestFile {
  path: string;
  content: string;
}

/** pytest node ids ("tests/test_api.py::test_x[param]") of the files, collected in path order. */
export function collectNodeIds(testFiles: readonly DemoTestFile[]): string[] {
  return [...testFiles]
    .sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0))
    .flatMap((file) => collectTestIds(file.content).map((id) => `${file.path}::${id}`));
}

/** 1-based line number of the first line containing `snippet` (at or after `fromSnippet`). */
export function lineNumberOf(text: string, snippet: string, fromSnippet?: string): number {
  const from = fromSnippet === undefined ? 0 : text.indexOf(fromSnippet);
  const at = from === -1 ? -1 : text.indexOf(snippet, from);
  if (at === -1) throw new Error(`demo data is inconsistent: ${JSON.stringify(snippet)} not found`);
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < at; index = text.indexOf('\n', index + 1))
    line++;
  return line;
}

function banner(title: string, fill: string): string {
  if (title === '') return fill.repeat(TERMINAL_WIDTH_CHARACTERS);
  const free = TERMINAL_WIDTH_CHARACTERS - title.length - 2;
  const left = Math.floor(free / 2);
  return `${fill.repeat(left)} ${title} ${fill.repeat(free - left)}`;
}

function sessionHeader(testCount: number, verbose: boolean): string[] {
  return [
    banner('test session starts', '='),
    `platform linux -- Python 3.12.7, pytest-8.3.4, pluggy-1.5.0${verbose ? ` -- ${PROJECT_DIRECTORY}/.venv/bin/python` : ''}`,
    ...(verbose ? ['cachedir: .pytest_cache'] : []),
    `rootdir: ${PROJECT_DIRECTORY}`,
    'configfile: pyproject.toml',
    'testpaths: tests',
    'plugins: anyio-4.8.0',
    verbose ? `collecting ... collected ${testCount} items` : `collected ${testCount} items`,
    '',
  ];
}

const progressPercent = (done: number, total: number): string =>
  `[${String(Math.floor((done * 100) / total)).padStart(3)}%]`;

function verboseProgressLines(nodeIds: readonly string[], failed: ReadonlySet<string>): string[] {
  return nodeIds.map((nodeId, index) => {
    const percent = progressPercent(index + 1, nodeIds.length);
    const left = `${nodeId} ${failed.has(nodeId) ? 'FAILED' : 'PASSED'}`;
    const gap = Math.max(1, TERMINAL_WIDTH_CHARACTERS - left.length - percent.length);
    return left + ' '.repeat(gap) + percent;
  });
}

/** Default progress: each file's path, then one mark per test, wrapped with the percentage. */
function fileProgressLines(nodeIds: readonly string[], failed: ReadonlySet<string>): string[] {
  const percentWidth = 7;
  const lines: string[] = [];
  let line = '';
  let currentFile = '';
  const finishLine = (done: number): void => {
    lines.push(
      line.padEnd(TERMINAL_WIDTH_CHARACTERS - percentWidth) + ' ' + progressPercent(done, nodeIds.length),
    );
    line = '';
  };
  nodeIds.forEach((nodeId, index) => {
    const file = nodeId.split('::')[0] ?? '';
    if (file !== currentFile) {
      if (line !== '') finishLine(index);
      currentFile = file;
      line = `${file} `;
    }
    line += failed.has(nodeId) ? 'F' : '.';
    if (line.length >= TERMINAL_WIDTH_CHARACTERS - percentWidth) finishLine(index + 1);
  });
  if (line !== '') finishLine(nodeIds.length);
  return lines;
}

/** `-q` progress: one mark per test, wrapped with the percentage at the end of each line. */
function quietProgressLines(nodeIds: readonly string[], failed: ReadonlySet<string>): string[] {
  const marksPerLine = TERMINAL_WIDTH_CHARACTERS - 8;
  const lines: string[] = [];
  for (let start = 0; start < nodeIds.length; start += marksPerLine) {
    const chunk = nodeIds.slice(start, start + marksPerLine);
    const marks = chunk.map((nodeId) => (failed.has(nodeId) ? 'F' : '.')).join('');
    lines.push(marks.padEnd(marksPerLine) + ' ' + progressPercent(start + chunk.length, nodeIds.length));
  }
  return lines;
}

function summaryLine(failedCount: number, passedCount: number, duration: string, framed: boolean): string {
  const parts = [...(failedCount > 0 ? [`${failedCount} failed`] : []), `${passedCount} passed`];
  const text = `${parts.join(', ')} in ${duration}`;
  return framed ? banner(text, '=') : text;
}

/** Frames between the TestClient call in a test and the route handler (tb=short). */
const TEST_CLIENT_TO_ENDPOINT_FRAMES: readonly (readonly [string, string])[] = [
  [`${SITE_PACKAGES}/starlette/testclient.py:568: in delete`, 'return super().delete('],
  [`${SITE_PACKAGES}/httpx/_client.py:1040: in delete`, 'return self.request('],
  [`${SITE_PACKAGES}/starlette/testclient.py:468: in request`, 'return super().request('],
  [
    `${SITE_PACKAGES}/httpx/_client.py:825: in request`,
    'return self.send(request, auth=auth, follow_redirects=follow_redirects)',
  ],
  [`${SITE_PACKAGES}/httpx/_client.py:914: in send`, 'response = self._send_handling_auth('],
  [
    `${SITE_PACKAGES}/httpx/_client.py:942: in _send_handling_auth`,
    'response = self._send_handling_redirects(',
  ],
  [
    `${SITE_PACKAGES}/httpx/_client.py:979: in _send_handling_redirects`,
    'response = self._send_single_request(request)',
  ],
  [
    `${SITE_PACKAGES}/httpx/_client.py:1014: in _send_single_request`,
    'response = transport.handle_request(request)',
  ],
  [`${SITE_PACKAGES}/starlette/testclient.py:351: in handle_request`, 'raise exc'],
  [
    `${SITE_PACKAGES}/starlette/testclient.py:348: in handle_request`,
    'portal.call(self.app, scope, receive, send)',
  ],
  [
    `${SITE_PACKAGES}/anyio/from_thread.py:290: in call`,
    'return cast(T_Retval, self.start_task_soon(func, *args).result())',
  ],
  ['/usr/lib/python3.12/concurrent/futures/_base.py:456: in result', 'return self.__get_result()'],
  ['/usr/lib/python3.12/concurrent/futures/_base.py:401: in __get_result', 'raise self._exception'],
  [`${SITE_PACKAGES}/anyio/from_thread.py:221: in _call_func`, 'retval = await retval_or_awaitable'],
  [
    `${SITE_PACKAGES}/fastapi/applications.py:1054: in __call__`,
    'await super().__call__(scope, receive, send)',
  ],
  [
    `${SITE_PACKAGES}/starlette/applications.py:113: in __call__`,
    'await self.middleware_stack(scope, receive, send)',
  ],
  [`${SITE_PACKAGES}/starlette/middleware/errors.py:187: in __call__`, 'raise exc'],
  [
    `${SITE_PACKAGES}/starlette/middleware/errors.py:165: in __call__`,
    'await self.app(scope, receive, _send)',
  ],
  [`${SITE_PACKAGES}/starlette/middleware/cors.py:85: in __call__`, 'await self.app(scope, receive, send)'],
  [
    `${SITE_PACKAGES}/starlette/middleware/exceptions.py:62: in __call__`,
    'await wrap_app_handling_exceptions(self.app, conn)(scope, receive, send)',
  ],
  [`${SITE_PACKAGES}/starlette/_exception_handler.py:53: in wrapped_app`, 'raise exc'],
  [
    `${SITE_PACKAGES}/starlette/_exception_handler.py:42: in wrapped_app`,
    'await app(scope, receive, sender)',
  ],
  [
    `${SITE_PACKAGES}/starlette/routing.py:715: in __call__`,
    'await self.middleware_stack(scope, receive, send)',
  ],
  [`${SITE_PACKAGES}/starlette/routing.py:735: in app`, 'await route.handle(scope, receive, send)'],
  [`${SITE_PACKAGES}/starlette/routing.py:288: in handle`, 'await self.app(scope, receive, send)'],
  [
    `${SITE_PACKAGES}/starlette/routing.py:76: in app`,
    'await wrap_app_handling_exceptions(app, request)(scope, receive, send)',
  ],
  [`${SITE_PACKAGES}/starlette/_exception_handler.py:53: in wrapped_app`, 'raise exc'],
  [
    `${SITE_PACKAGES}/starlette/_exception_handler.py:42: in wrapped_app`,
    'await app(scope, receive, sender)',
  ],
  [`${SITE_PACKAGES}/starlette/routing.py:73: in app`, 'response = await f(request)'],
  [`${SITE_PACKAGES}/fastapi/routing.py:301: in app`, 'raw_response = await run_endpoint_function('],
  [
    `${SITE_PACKAGES}/fastapi/routing.py:214: in run_endpoint_function`,
    'return await run_in_threadpool(dependant.call, **values)',
  ],
  [
    `${SITE_PACKAGES}/starlette/concurrency.py:37: in run_in_threadpool`,
    'return await anyio.to_thread.run_sync(func)',
  ],
  [
    `${SITE_PACKAGES}/anyio/to_thread.py:56: in run_sync`,
    'return await get_async_backend().run_sync_in_worker_thread(',
  ],
  [`${SITE_PACKAGES}/anyio/_backends/_asyncio.py:2461: in run_sync_in_worker_thread`, 'return await future'],
  [`${SITE_PACKAGES}/anyio/_backends/_asyncio.py:962: in run`, 'result = context.run(func, *args)'],
];

export interface DemoProjectFiles {
  testFiles: readonly DemoTestFile[];
  testApi: string;
  main: string;
  crud: string;
}

const API_TESTS = 'tests/test_api.py::';

/**
 * First full run, `pytest --tb=short`: the two delete tests fail because crud.delete_user
 * calls refresh() on a row it has just deleted. About 12 KB, like a real run.
 */
export function pytestDeleteFailuresLog(files: DemoProjectFiles): string {
  const nodeIds = collectNodeIds(files.testFiles);
  const failing = [
    {
      id: 'test_delete_user',
      call: '    response = client.delete(f"/users/{user[\'id\']}")',
      address: '0x7f3a5c1e2b90',
    },
    {
      id: 'test_delete_user_twice_returns_404',
      call: '    assert client.delete(f"/users/{user[\'id\']}").status_code == 204',
      address: '0x7f3a5c0d4f10',
    },
  ];
  const failed = new Set(failing.map((failure) => API_TESTS + failure.id));
  const mainLine = lineNumberOf(files.main, '    return crud.delete_user(db, user)');
  const crudLine = lineNumberOf(files.crud, '    db.refresh(user)', 'def delete_user(');
  const lines = [
    ...sessionHeader(nodeIds.length, false),
    ...fileProgressLines(nodeIds, failed),
    '',
    banner('FAILURES', '='),
  ];
  for (const failure of failing) {
    lines.push(banner(failure.id, '_'));
    lines.push(`tests/test_api.py:${lineNumberOf(files.testApi, failure.call)}: in ${failure.id}`);
    lines.push(`    ${failure.call.trim()}`);
    for (const [location, code] of TEST_CLIENT_TO_ENDPOINT_FRAMES) lines.push(location, `    ${code}`);
    lines.push(`app/main.py:${mainLine}: in delete_user`, '    return crud.delete_user(db, user)');
    lines.push(`app/crud.py:${crudLine}: in delete_user`, '    db.refresh(user)');
    lines.push(
      `${SITE_PACKAGES}/sqlalchemy/orm/session.py:3148: in refresh`,
      '    self._validate_persistent(state)',
    );
    lines.push(
      `${SITE_PACKAGES}/sqlalchemy/orm/session.py:4758: in _validate_persistent`,
      '    raise sa_exc.InvalidRequestError(',
    );
    lines.push(
      `E   sqlalchemy.exc.InvalidRequestError: Instance '<User at ${failure.address}>' is not persistent within this Session`,
    );
    lines.push(banner('Captured log call', '-'));
    lines.push(
      'INFO     httpx:_client.py:1025 HTTP Request: POST http://testserver/users "HTTP/1.1 201 Created"',
    );
  }
  lines.push(banner('short test summary info', '='));
  for (const failure of failing) {
    lines.push(
      `FAILED ${API_TESTS}${failure.id} - sqlalchemy.exc.InvalidRequestError: Instance '<User at ${failure.address}>' is not persistent within this Session`,
    );
  }
  lines.push(summaryLine(failing.length, nodeIds.length - failing.length, '81.42s (0:01:21)', true));
  return lines.join('\n') + '\n';
}

/** The source of one test function, pytest-style (indented, `>` on the failing line). */
function failingFunctionSource(testFile: string, testName: string, failingLine: string): string[] {
  const start = testFile.indexOf(`def ${testName}(`);
  const end = testFile.indexOf(failingLine, start);
  if (start === -1 || end === -1) throw new Error(`demo data is inconsistent: ${testName}`);
  const before = testFile.slice(start, end).split('\n');
  before.pop();
  return [...before.map((line) => (line === '' ? '' : `    ${line}`)), `>   ${failingLine}`];
}

/**
 * After the delete fix, `pytest -q`: two tests fail because test.db keeps the rows of the
 * previous run (a fixture problem, not an app bug). About 5 KB.
 */
export function pytestFixtureFailuresLog(testFiles: readonly DemoTestFile[]): string {
  const nodeIds = collectNodeIds(testFiles);
  const testApi = testFiles.find((file) => file.path === 'tests/test_api.py')?.content ?? '';
  const failed = new Set([`${API_TESTS}test_create_user`, `${API_TESTS}test_list_users_paginates`]);
  const createFailure = '    assert response.status_code == 201, response.text';
  const pageFailure = '    assert first["total"] == 25';
  const lines = [...quietProgressLines(nodeIds, failed), '', banner('FAILURES', '=')];

  lines.push(banner('test_create_user', '_'), '');
  lines.push('client = <starlette.testclient.TestClient object at 0x7f2d9c5a1e50>', '');
  lines.push(...failingFunctionSource(testApi, 'test_create_user', createFailure));
  lines.push(
    'E       AssertionError: {"detail":"Email alice@example.com is already registered"}',
    'E       assert 409 == 201',
    'E        +  where 409 = <Response [409 Conflict]>.status_code',
    '',
    `tests/test_api.py:${lineNumberOf(testApi, createFailure)}: AssertionError`,
    banner('Captured log call', '-'),
    'INFO     httpx:_client.py:1025 HTTP Request: POST http://testserver/users "HTTP/1.1 409 Conflict"',
  );

  lines.push(banner('test_list_users_paginates', '_'), '');
  lines.push('client = <starlette.testclient.TestClient object at 0x7f2d9c3b8a10>');
  lines.push('make_user = <function make_user.<locals>._make_user at 0x7f2d9c41a340>', '');
  lines.push(...failingFunctionSource(testApi, 'test_list_users_paginates', pageFailure));
  lines.push(
    'E       assert 50 == 25',
    '',
    `tests/test_api.py:${lineNumberOf(testApi, pageFailure)}: AssertionError`,
  );
  lines.push(banner('Captured log call', '-'));
  for (let index = 0; index < 25; index++) {
    lines.push(
      'INFO     httpx:_client.py:1025 HTTP Request: POST http://testserver/users "HTTP/1.1 201 Created"',
    );
  }
  lines.push(
    'INFO     httpx:_client.py:1025 HTTP Request: GET http://testserver/users?search=Pager&page_size=10&sort=full_name "HTTP/1.1 200 OK"',
  );
  lines.push(banner('short test summary info', '='));
  lines.push(
    'FAILED tests/test_api.py::test_create_user - AssertionError: {"detail":"Email alice@example.com is already registered"}',
    'FAILED tests/test_api.py::test_list_users_paginates - assert 50 == 25',
    summaryLine(2, nodeIds.length - 2, '84.88s (0:01:24)', false),
  );
  return lines.join('\n') + '\n';
}

/** The final `pytest -v` after the fixture fix: everything passes. */
export function pytestAllPassedLog(testFiles: readonly DemoTestFile[]): string {
  const nodeIds = collectNodeIds(testFiles);
  return (
    [
      ...sessionHeader(nodeIds.length, true),
      ...verboseProgressLines(nodeIds, new Set()),
      '',
      summaryLine(0, nodeIds.length, '79.95s (0:01:19)', true),
    ].join('\n') + '\n'
  );
}
