import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The architecture's import boundaries (ARCHITECTURE.md) are enforced here, not only documented.
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto'];

/** A layer's boundary: each argument is [import patterns it may not use, why, (only these names)]. */
function refuseImports(...refusals) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: refusals.map(([group, message, importNames]) =>
          importNames ? { group, message, importNames } : { group, message },
        ),
      },
    ],
  };
}
const rendererRefusals = [
  [['**/main/**', '**/stack/**'], 'The renderer talks to main only through the bridge.'],
  [['electron', ...nodeBuiltins], 'The renderer has no Node or Electron access.'],
];
const mainTalksHttpOnly = [['**/stack/**', '**/renderer/**'], 'main/ talks to the stack over HTTP only.'];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      '.ci-out',
      '.tmp',
      'test-results',
      'playwright-report',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/incompatible-library': 'off',
      ...refuseImports(...rendererRefusals),
    },
  },
  {
    // One way for a screen to get its profile (issue 20): <ActiveService>, which also gates and keys it.
    files: ['renderer/src/areas/**/*.{ts,tsx}'],
    rules: refuseImports(...rendererRefusals, [
      ['**/shell/data'],
      'A screen gets its profile from <ActiveService> (shell/ActiveService.tsx), which gates and keys it.',
      ['useActiveProfile'],
    ]),
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts', 'shared/testing/**'],
    rules: refuseImports(
      [['**/main/**', '**/stack/**', '**/renderer/**'], 'shared/ depends on nothing.'],
      [['electron', ...nodeBuiltins], 'shared/ has no Node or DOM.'],
    ),
  },
  {
    // Helpers of main's and the stack's tests: they run in Node under vitest, like the tests (and, like them,
    // are left out of tsconfig.shared.json's pure check), but still depend on no part of the app.
    files: ['shared/testing/**/*.ts'],
    rules: refuseImports([['**/main/**', '**/stack/**', '**/renderer/**'], 'shared/ depends on nothing.']),
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: refuseImports([['electron'], 'Only main/electron/ imports electron.'], mainTalksHttpOnly),
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: refuseImports(mainTalksHttpOnly),
  },
  {
    files: ['stack/**/*.ts'],
    rules: refuseImports(
      [['electron'], 'The stack is a plain Node process.'],
      [['**/main/**', '**/renderer/**'], 'stack/ never imports main/ or renderer/.'],
    ),
  },
);
