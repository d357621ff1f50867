// ESLint for TypeScript and Svelte, type-aware (README: Commands, Decisions 2026-11-25).
// Prettier owns formatting: eslint-config-prettier and svelte's prettier config switch off every
// style rule, so the two never disagree. `npm run lint` runs Prettier, then this.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

export default defineConfig(
  // Build output, test reports and generated files (.gitignore), never source.
  globalIgnores([
    'dist/',
    'test-results/',
    'playwright-report/',
    '.svelte-check/',
    '.bench-*/',
    'bench-results*.json',
    'tests/fixtures/',
  ]),
  // A disable comment that no longer suppresses anything fails the lint, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ts.configs.recommendedTypeChecked,
  svelte.configs.recommended,
  prettier,
  svelte.configs.prettier,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked in the program of its nearest tsconfig.json: the realm configs of
        // src/core, src/worker and src/cli, the root one for everything else.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        // The same for .ts and .svelte files, so the project service is never reloaded.
        extraFileExtensions: ['.svelte'],
      },
    },
    rules: {
      // Every control character in a regular expression here is intended: escaping them is a
      // feature (hostile input, terminal and Markdown output, Python's JSON and str rules).
      'no-control-regex': 'off',
      // `_name` marks a binding kept for its position; a rest sibling drops the named keys.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Passing on a reason we did not make (a caught error, an AbortSignal's reason) is fine;
      // rejecting with a value known not to be an Error is not.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: globals.browser,
      parserOptions: {
        parser: ts.parser,
        // As vite.config.ts compiles them.
        svelteConfig: { compilerOptions: { runes: true } },
      },
    },
    settings: {
      svelte: {
        // typescript-eslint sees a child component through svelte's ambient `*.svelte` module,
        // with untyped props: a callback or snippet parameter in a template reads as `any`.
        // svelte-check types templates fully; these rules stay on in <script>.
        ignoreWarnings: [
          '@typescript-eslint/no-unsafe-argument',
          '@typescript-eslint/no-unsafe-assignment',
          '@typescript-eslint/no-unsafe-call',
          '@typescript-eslint/no-unsafe-member-access',
          '@typescript-eslint/no-unsafe-return',
        ],
      },
    },
    rules: {
      // State classes use plain Map, Set and Date on purpose: values built and read within one
      // function or $derived, and caches made reactive by a $state version counter.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    // Plain JavaScript (this file, the e2e Chromium check) belongs to no tsconfig.
    files: ['**/*.js', '**/*.mjs'],
    extends: [ts.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['tests/**'],
    rules: {
      // Fakes of async interfaces are `async () => value`: a throw inside one rejects, as the
      // real implementation's would.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
