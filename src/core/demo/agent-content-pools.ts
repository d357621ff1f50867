import {
  demoConfigPy,
  demoCrudPy,
  demoDatabasePy,
  demoMainPy,
  demoModelsPy,
  demoPyprojectToml,
  demoReadmeMd,
  demoSchemasPy,
  demoSecurityPy,
} from './demo-files.ts';
import { leftoverRowsOutput } from './demo-leftover-rows.ts';
import {
  collectNodeIds,
  pipInstallLog,
  pytestAllPassedLog,
  pytestDeleteFailuresLog,
  pytestFixtureFailuresLog,
  uvicornSmokeTestOutput,
} from './demo-logs.ts';
import { demoConftestFixedPy, demoConftestPy, demoTestApiPy, demoTestCrudPy } from './demo-test-files.ts';
import { toEscapedText, type EscapedText } from './escaped-text.ts';
import { numberLine } from './hermes-tool-results.ts';

// The raw material of generated transcripts, built once per process and shared: source files
// and logs, pre-escaped for JSON and indexed by line. Variety comes from renaming the demo
// project's entity ("user") to a dozen others, which gives a realistic multi-service codebase
// of about 1.3 MB without writing more fixtures.

/** A source file of the generated codebase. */
export interface VirtualFile {
  readonly path: string;
  /** The file's lines, escaped. */
  readonly source: EscapedText;
  /** The same lines numbered the way Hermes' read_file prints them ("    12|…"), escaped. */
  readonly numbered: EscapedText;
  /** Size in bytes (all ASCII). */
  readonly byteLength: number;
}

export interface AgentContentPools {
  readonly files: readonly VirtualFile[];
  /** Build, test and tool logs, concatenated; slices of it become terminal output. */
  readonly logs: EscapedText;
  /** Line indices in `logs` where one command's output begins. */
  readonly logStarts: readonly number[];
  readonly services: readonly string[];
}

/** [singular, plural] of the entity each generated service manages. */
const ENTITIES: readonly (readonly [string, string])[] = [
  ['user', 'users'],
  ['order', 'orders'],
  ['invoice', 'invoices'],
  ['product', 'products'],
  ['project', 'projects'],
  ['ticket', 'tickets'],
  ['account', 'accounts'],
  ['payment', 'payments'],
  ['shipment', 'shipments'],
  ['review', 'reviews'],
  ['subscription', 'subscriptions'],
  ['warehouse', 'warehouses'],
];

const SOURCE_FILES: readonly (readonly [string, string])[] = [
  ['app/config.py', demoConfigPy],
  ['app/database.py', demoDatabasePy],
  ['app/models.py', demoModelsPy],
  ['app/schemas.py', demoSchemasPy],
  ['app/security.py', demoSecurityPy],
  ['app/crud.py', demoCrudPy],
  ['app/main.py', demoMainPy],
  ['tests/conftest.py', demoConftestPy],
  ['tests/test_api.py', demoTestApiPy],
  ['tests/test_crud.py', demoTestCrudPy],
  ['pyproject.toml', demoPyprojectToml],
  ['README.md', demoReadmeMd],
];

let cachedPools: AgentContentPools | undefined;

/** The shared pools; the first call builds them (tens of milliseconds), later calls are free. */
export function getAgentContentPools(): AgentContentPools {
  cachedPools ??= buildPools();
  return cachedPools;
}

function buildPools(): AgentContentPools {
  const files: VirtualFile[] = [];
  const logLines: string[] = [];
  const logStarts: number[] = [];
  const testFiles = [
    { path: 'tests/test_api.py', content: demoTestApiPy },
    { path: 'tests/test_crud.py', content: demoTestCrudPy },
  ];
  const baseLogs = [
    pipInstallLog(),
    pytestDeleteFailuresLog({ testFiles, testApi: demoTestApiPy, main: demoMainPy, crud: demoCrudPy }),
    uvicornSmokeTestOutput(),
    pytestFixtureFailuresLog(testFiles),
    pytestAllPassedLog(testFiles),
    leftoverRowsOutput([
      { nodeIds: collectNodeIds(testFiles), failedBeforeInsert: new Set(), startedAt: '2025-03-02 09:14:05' },
    ]),
  ];
  for (const [singular, plural] of ENTITIES) {
    const rename = renamer(singular, plural);
    for (const [path, content] of [
      ...SOURCE_FILES,
      ['tests/conftest_isolated.py', demoConftestFixedPy] as const,
    ]) {
      const renamed = rename(content);
      const lines = splitLines(renamed);
      files.push({
        path: `services/${plural}/${path}`,
        source: toEscapedText(lines),
        numbered: toEscapedText(lines.map((line, index) => numberLine(line, index + 1))),
        byteLength: renamed.length,
      });
    }
    for (const log of baseLogs) {
      logStarts.push(logLines.length);
      logLines.push(...splitLines(rename(log)));
    }
  }
  return {
    files,
    logs: toEscapedText(logLines),
    logStarts,
    services: ENTITIES.map(([, plural]) => plural),
  };
}

/** Renames the demo's entity everywhere: identifiers, routes, table names, prose. */
function renamer(singular: string, plural: string): (text: string) => string {
  if (singular === 'user') return (text) => text;
  const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
  return (text) =>
    text
      .replaceAll('users', plural)
      .replaceAll('Users', capitalise(plural))
      .replaceAll('USERS', plural.toUpperCase())
      .replaceAll('user', singular)
      .replaceAll('User', capitalise(singular));
}

function splitLines(text: string): string[] {
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}
