/**
 * The layer rules of SPEC §2 / conventions C1 as data, checked by scanning source text.
 * A scan (not the TypeScript compiler) so that a `.svelte` file and a dynamic `import()` are
 * covered the same way as a `.ts` file.
 */
export type Layer = 'core' | 'worker' | 'io' | 'state' | 'ui' | 'cli' | 'main';

const LOCAL_LAYERS: readonly Layer[] = ['core', 'worker', 'io', 'state', 'ui', 'cli'];

/** Which local layers each layer may import (value imports; `import type` from worker is allowed for io). */
const ALLOWED_LOCAL_IMPORTS: Record<Layer, readonly Layer[]> = {
  core: ['core'],
  worker: ['worker', 'core'],
  io: ['io', 'core'],
  state: ['state', 'io', 'core'],
  ui: ['ui', 'state', 'core'],
  cli: ['cli', 'core'],
  main: ['core', 'worker', 'io', 'state', 'ui'],
};

/** The provider SDKs and the service worker's registration are io adapters (loaded lazily there). */
const IO_ONLY_PACKAGES: readonly RegExp[] = [
  /^@anthropic-ai\//,
  /^openai(\/|$)/,
  /^virtual:pwa-/,
  /^workbox-/,
];

/** Packages a layer must not import. */
const FORBIDDEN_PACKAGES: Partial<Record<Layer, readonly RegExp[]>> = {
  core: [
    /^dexie/,
    /^svelte/,
    /^comlink/,
    ...IO_ONLY_PACKAGES,
    /^js-tiktoken/,
    /^node:/,
    /^(fs|path|os|http|url)$/,
  ],
  // The worker stores and reads sessions itself (io/db, on Dexie): it owns the data plane.
  worker: [/^svelte/, /^virtual:pwa-/, /^workbox-/],
  ui: [/^dexie/, /^comlink/, ...IO_ONLY_PACKAGES, /^js-tiktoken/],
  state: [/^comlink/, ...IO_ONLY_PACKAGES, /^js-tiktoken/],
};

/** Ambient globals a layer must not touch: core gets time, randomness and IO as parameters. */
const FORBIDDEN_GLOBALS: Partial<Record<Layer, readonly { pattern: RegExp; name: string }[]>> = {
  core: [
    { pattern: /\bwindow\s*\./, name: 'window' },
    { pattern: /\bdocument\s*\./, name: 'document' },
    { pattern: /(?<![.\w])fetch\s*\(/, name: 'fetch' },
    { pattern: /\bindexedDB\b/, name: 'indexedDB' },
    { pattern: /\bDate\.now\s*\(/, name: 'Date.now' },
    { pattern: /\bnew Date\s*\(\s*\)/, name: 'new Date()' },
    { pattern: /\bMath\.random\s*\(/, name: 'Math.random' },
    { pattern: /\bperformance\.now\s*\(/, name: 'performance.now' },
    { pattern: /(?<![.\w])setTimeout\s*\(/, name: 'setTimeout' },
    { pattern: /\blocalStorage\b/, name: 'localStorage' },
    { pattern: /\bprocess\.(env|argv|exit)\b/, name: 'process' },
  ],
  ui: [
    { pattern: /(?<![.\w])fetch\s*\(/, name: 'fetch' },
    { pattern: /\bindexedDB\b/, name: 'indexedDB' },
  ],
};

const IMPORT_PATTERN =
  /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function stripStringLiterals(code: string): string {
  return code.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, "''");
}

/** The path inside `src/` an import names (`io/db/app-db.ts`), or null for a package. */
function resolvedPath(fileLayerPath: string, specifier: string): string | null {
  if (specifier.startsWith('#')) return specifier.slice(1);
  if (!specifier.startsWith('.')) return null;
  const parts = fileLayerPath.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

/** The worker owns the data plane: it may use the session store's own module, and nothing else of io. */
const WORKER_IO_FOLDER = 'io/db/';

function localLayerOf(fileLayerPath: string, specifier: string): Layer | 'outside' | null {
  if (specifier.startsWith('#')) {
    const alias = specifier.slice(1).split('/')[0] as Layer;
    return LOCAL_LAYERS.includes(alias) ? alias : 'outside';
  }
  if (!specifier.startsWith('.')) return null;
  const parts = fileLayerPath.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  if (parts.length === 0) return 'outside';
  const top = parts[0]!;
  if (top === 'main.ts') return 'main';
  return (LOCAL_LAYERS as readonly string[]).includes(top) ? (top as Layer) : 'outside';
}

/**
 * A file that declares its own `document` (a parsed JSON document, say) uses that binding,
 * not the DOM global. Only plain identifiers can be shadowed; `Date.now` and friends cannot.
 */
function declaresBinding(code: string, name: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return false;
  const declaration = new RegExp(
    `\\b(?:const|let|var|function|class)\\s+${name}\\b|[(,]\\s*${name}\\s*[:,)=?]|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*[:=]`,
  );
  return declaration.test(code);
}

export interface LayerViolation {
  file: string;
  problem: string;
}

export function findLayerViolations(layer: Layer, file: string, source: string): LayerViolation[] {
  const code = stripComments(source);
  const violations: LayerViolation[] = [];
  for (const match of code.matchAll(IMPORT_PATTERN)) {
    const isTypeOnly = Boolean(match[2]);
    const specifier = match[3] ?? match[4] ?? '';
    const target = localLayerOf(file, specifier);
    if (target === null) {
      const banned = FORBIDDEN_PACKAGES[layer]?.find((pattern) => pattern.test(specifier));
      if (banned) violations.push({ file, problem: `${layer} imports package '${specifier}'` });
      continue;
    }
    if (target === 'outside' || target === 'main') {
      violations.push({ file, problem: `${layer} imports '${specifier}' outside the layers` });
      continue;
    }
    if (ALLOWED_LOCAL_IMPORTS[layer].includes(target)) continue;
    if (layer === 'io' && target === 'worker' && isTypeOnly) continue;
    if (layer === 'worker' && target === 'io' && resolvedPath(file, specifier)?.startsWith(WORKER_IO_FOLDER))
      continue;
    violations.push({ file, problem: `${layer} imports ${target} ('${specifier}')` });
  }
  // Globals are looked for in code only: import paths and messages may mention them freely.
  const codeWithoutStrings = stripStringLiterals(code);
  for (const { pattern, name } of FORBIDDEN_GLOBALS[layer] ?? []) {
    if (pattern.test(codeWithoutStrings) && !declaresBinding(codeWithoutStrings, name)) {
      violations.push({ file, problem: `${layer} uses ${name}` });
    }
  }
  return violations;
}
