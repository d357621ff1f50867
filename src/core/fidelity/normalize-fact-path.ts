/** Longest path taken for a fact; longer runs of path characters are data, not paths. */
export const MAX_PATH_CHARACTERS = 512;

/**
 * File extensions that make a bare name (`hello.py`, `README.md`) or a two-segment relative
 * name (`src/app.ts`) a path. Deliberately not every extension: `e.g.`, `v1.2` and `os.path`
 * must not become paths.
 */
const FILE_EXTENSIONS = new Set(
  (
    'py pyi ipynb ts tsx js jsx mjs cjs mts cts json jsonl md mdx rst txt rs go java kt kts scala rb php c h ' +
    'cc cpp cxx hpp hh cs fs swift m mm dart lua pl r sql sh bash zsh fish ps1 bat yaml yml toml ini cfg conf ' +
    'env lock xml html htm css scss sass less svelte vue astro graphql gql proto tf hcl csv tsv log ex exs erl ' +
    'hs ml clj gradle cmake mk pdf png jpg jpeg gif svg webp zip gz tgz tar whl patch diff'
  ).split(' '),
);

/** Bare names that are files without an extension. */
const EXTENSIONLESS_FILES = new Set([
  'makefile',
  'dockerfile',
  'gemfile',
  'rakefile',
  'procfile',
  'justfile',
]);

/** Framework and product names that look like file names. */
const NOT_FILES = new Set([
  'node.js',
  'next.js',
  'vue.js',
  'nuxt.js',
  'express.js',
  'three.js',
  'd3.js',
  'chart.js',
]);

const TRAILING_PUNCTUATION = /[`'",;:.)\]>]+$/;

export interface NormalizeFactPathOptions {
  /**
   * The text is known to be a path (a `file_path` argument, a diff header): any plausible
   * value is accepted, not only names that look like files.
   */
  known?: boolean;
}

/**
 * A path as facts store it, or null when the text is not a plausible path: quotes and trailing
 * punctuation removed, `:12:5`, `(12,5)` and `#L12` locations dropped, backslashes as slashes,
 * no leading `./`, no doubled or trailing slash. Case is kept (the fact's text is folded later).
 *
 * Without `known`, a candidate must look like a file: an absolute path with two segments or a
 * file name, an explicit relative path (`./`, `../`, `~/`), three segments or more, or a name
 * with a known extension. So `and/or`, `km/h`, `1/2` and `/compact` are not paths.
 *
 * @example normalizeFactPath('./src/app.ts:12:5') // 'src/app.ts'
 */
export function normalizeFactPath(raw: string, options: NormalizeFactPathOptions = {}): string | null {
  // Longer is data; the anchored patterns below must never see a megabyte-long value.
  if (raw.length > MAX_PATH_CHARACTERS * 2) return null;
  let path = raw
    .trim()
    .replace(/^[`'"([<]+/, '')
    .replace(/\(\d+(?:,\d+)?\)[`'",;:.\]>]*$/, '')
    .replace(TRAILING_PUNCTUATION, '')
    .replace(/(?::\d+)+$/, '')
    .replace(/#L\d+(?:-L?\d+)?$/, '')
    .replace(TRAILING_PUNCTUATION, '');
  if (path.length < 2 || path.length > MAX_PATH_CHARACTERS) return null;
  if (/[\s\u0000]/.test(path) || path.includes('://') || path.startsWith('//')) return null;
  path = path.replace(/\\/g, '/');
  const explicitRelative = /^(?:\.{1,2}|~)\//.test(path);
  path = path.replace(/\/{2,}/g, '/');
  while (path.startsWith('./')) path = path.slice(2);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (!/[A-Za-z]/.test(path) || path === '/dev/null') return null;
  if (options.known) return path;
  return looksLikeFilePath(path, explicitRelative) ? path : null;
}

function looksLikeFilePath(path: string, explicitRelative: boolean): boolean {
  const segments = path.split('/').filter((segment) => segment !== '');
  const last = segments[segments.length - 1] ?? '';
  const named = hasFileExtension(last) || EXTENSIONLESS_FILES.has(last.toLowerCase());
  if (segments.length <= 1) return named && !path.startsWith('/') && !NOT_FILES.has(last.toLowerCase());
  if (explicitRelative) return true;
  if (path.startsWith('/')) return segments.length >= 2;
  return segments.length >= 3 || named;
}

/** `name.ext` with a known extension and a name that has a letter or digit before it. */
export function hasFileExtension(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return false;
  return FILE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase()) && /[A-Za-z0-9]/.test(name.slice(0, dot));
}
