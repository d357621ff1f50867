// Words for generated sessions: what users ask, what the agent says between tool calls, which
// commands it runs, what it searches for. `{service}` is replaced with a service name such as
// "orders"; `{file}` with a path.

export const userAsks: readonly string[] = [
  'Add pagination to the {service} list endpoint and make sure the tests cover the edge cases.',
  'The {service} service returns 500 when the payload has an unknown field. Can you find out why?',
  'Refactor {file} so the database access lives in one place. Keep behaviour identical.',
  'Write tests for {file}; coverage on that module is below 40%.',
  'CI is red on main since this morning. Can you look at the failing job and fix it?',
  'Please add a health check that also verifies the database connection for {service}.',
  'Rename the "full_name" field to "display_name" across the {service} API, with a migration note in the README.',
  'Our {service} endpoint is slow with 50k rows. Profile it and suggest a fix.',
  'Can you upgrade SQLAlchemy to 2.0 style queries in {file}?',
  'Add an export endpoint that streams {service} as CSV.',
  'The tests pass locally but fail in Docker. Investigate.',
  'Set up ruff and mypy for the {service} service and fix whatever they report.',
  'Why does {file} import config at module level? Make settings injectable for the tests.',
  'Add structured JSON logging to {service} with a request id on every line.',
  'Look at the open TODOs in {file} and deal with the easy ones.',
  'Make the {service} API return RFC 7807 problem details for errors.',
  'Continue where we left off.',
  'Looks good. Now do the same for {service}.',
  'That fixed it, thanks. One more thing: the README is out of date, please update it.',
  'Can you double-check the migration is reversible?',
  "Here's the error from staging:\n\n```\nsqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database is locked\n[SQL: UPDATE {service} SET updated_at=? WHERE id = ?]\n```\n\nAny idea?",
  'Search the docs for how FastAPI handles lifespan events with TestClient, then fix our fixtures accordingly.',
  'Please split {file}, it has grown too big.',
  'Run the full test suite and tell me what is flaky.',
];

export const assistantLeadIns: readonly string[] = [
  'Let me look at the relevant code first.',
  'Reading the module and its tests.',
  'Checking how this is wired up.',
  'Running the tests to see the current state.',
  'Searching for every place that touches this.',
  'Applying the change.',
  'Now the tests for it.',
  'Re-running the suite.',
  "That error points at the fixture; I'll check conftest.",
  'Let me confirm the behaviour with a quick request against the dev server.',
  'The failure is in the serialisation step, not the query. Looking at the schema.',
  'Good, that passes. Next, the edge cases.',
  'Two more places use the old name; updating them too.',
  'Checking the upstream docs before changing this.',
  '',
  '',
  '',
];

export const assistantSummaries: readonly string[] = [
  'Done. The endpoint now paginates with `page` and `page_size`, returns the total, and the new tests cover empty pages, the last partial page and out-of-range values.',
  'Found it: the request model did not forbid extra fields, and the ORM constructor raised a TypeError on the unknown key, which surfaced as a 500. Request models now use `extra="forbid"`, so clients get a 422 that names the field.',
  'The refactor is in place: all queries moved into the repository module, the routes only orchestrate. The test suite passes unchanged, which was the point.',
  'Coverage for the module is now 94%. The remaining lines are the defensive branches for a database that is unreachable at startup; testing those would need a fault-injecting engine, which I can add if you want.',
  'CI was failing because the lockfile pinned a version of httpx that the new Starlette TestClient no longer accepts. I bumped httpx, regenerated the lockfile and the job is green locally with the same command CI runs.',
  'The slow part was an N+1 query: each row loaded its owner separately. With `selectinload` the endpoint does 2 queries instead of 50,001 and the p95 drops from 4.1 s to 180 ms on the seeded data.',
  'ruff reported 23 issues (mostly import order and unused variables) and mypy 11, all fixed. Two mypy errors needed real changes: a function that could return None without saying so, and a dict typed too loosely.',
  'The tests are not flaky in themselves: three of them depend on wall-clock time and fail when a run crosses a second boundary. I froze time in those tests with a fixture.',
];

/** Comment lines the agent's patches add. */
export const codeComments: readonly string[] = [
  'Keep this in sync with schemas.UserRead.',
  'Validated in the schema layer; no need to check again here.',
  'Commit here so the generated id is available to the caller.',
  'SQLite needs this; Postgres ignores it.',
  'TODO(perf): batch these queries once the table grows.',
  'Order by id as a tie-breaker so that pages are stable.',
  'Read before delete: the instance is detached after commit.',
  'Explicit None clears the field; a missing key leaves it alone.',
];

export const terminalCommands: readonly string[] = [
  '.venv/bin/python -m pytest -q',
  '.venv/bin/python -m pytest -x --tb=short',
  '.venv/bin/python -m pytest tests/test_api.py -v',
  '.venv/bin/ruff check .',
  '.venv/bin/mypy app',
  'git status --short',
  'git diff --stat',
  'git log --oneline -15',
  'ls -la',
  'docker compose ps',
  'docker compose logs --tail=200 api',
  'pip list --outdated',
  'curl -s localhost:8000/health',
  'make test',
  'npm test -- --runInBand',
  'cat /tmp/uvicorn.log',
];

export const searchPatterns: readonly string[] = [
  'def get_',
  'db\\.commit',
  'HTTPException',
  'response_model=',
  'TODO|FIXME',
  'import logging',
  'settings\\.',
  'status_code == 4\\d\\d',
  'class .*\\(BaseModel\\)',
  'Depends\\(get_db\\)',
];

export const webQueries: readonly string[] = [
  'fastapi testclient lifespan startup event not called',
  'sqlalchemy 2.0 session.refresh after delete InvalidRequestError',
  'pydantic v2 model_config extra forbid nested models',
  'sqlite staticpool in-memory database shared connection pytest',
  'uvicorn graceful shutdown sigterm docker',
  'python pbkdf2 recommended iterations 2024',
  'rfc 7807 problem details fastapi exception handler',
  'alembic autogenerate detects server default change',
];

export const webHits: readonly { title: string; url: string; description: string }[] = [
  {
    title: 'Testing Events: lifespan and startup - shutdown - FastAPI',
    url: 'https://fastapi.tiangolo.com/advanced/testing-events/',
    description:
      'When you need lifespan to run in your tests, you can use the TestClient with a with statement. The startup and shutdown events run on enter and exit.',
  },
  {
    title: 'Session Basics — SQLAlchemy 2.0 Documentation',
    url: 'https://docs.sqlalchemy.org/en/20/orm/session_basics.html',
    description:
      'The Session establishes all conversations with the database and represents a holding zone for all the objects which you have loaded or associated with it during its lifespan.',
  },
  {
    title: 'Models - Pydantic',
    url: 'https://docs.pydantic.dev/latest/concepts/models/',
    description:
      'Models are simply classes which inherit from BaseModel and define fields as annotated attributes. extra="forbid" makes validation fail when unknown fields are present.',
  },
  {
    title: 'Connection Pooling: StaticPool — SQLAlchemy',
    url: 'https://docs.sqlalchemy.org/en/20/core/pooling.html#sqlalchemy.pool.StaticPool',
    description:
      'A Pool of exactly one connection, used for all requests. Useful for in-memory SQLite databases shared across threads in tests.',
  },
  {
    title: 'How do I test a FastAPI app with an in-memory SQLite database? - Stack Overflow',
    url: 'https://stackoverflow.com/questions/67255653/how-to-set-up-and-tear-down-a-database-between-tests-in-fastapi',
    description:
      'Each connection to sqlite:// opens a new empty database. Use poolclass=StaticPool and connect_args={"check_same_thread": False} so the app and the test share one.',
  },
  {
    title: 'Password Storage - OWASP Cheat Sheet Series',
    url: 'https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html',
    description:
      'PBKDF2-HMAC-SHA256: 600,000 iterations is the current recommendation when FIPS-140 compliance is required.',
  },
  {
    title: 'RFC 7807: Problem Details for HTTP APIs',
    url: 'https://www.rfc-editor.org/rfc/rfc7807',
    description:
      'This document defines a "problem detail" as a way to carry machine-readable details of errors in a HTTP response.',
  },
  {
    title: 'Settings and Environment Variables - FastAPI',
    url: 'https://fastapi.tiangolo.com/advanced/settings/',
    description:
      'In many cases your application could need some external settings or configurations. Pydantic Settings reads them from environment variables.',
  },
];
