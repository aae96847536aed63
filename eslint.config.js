import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The architecture's import boundaries (ARCHITECTURE.md) are enforced here, not only documented.
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto'];

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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/stack/**'],
              message: 'The renderer talks to main only through the bridge.',
            },
            { group: ['electron', ...nodeBuiltins], message: 'The renderer has no Node or Electron access.' },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/stack/**', '**/renderer/**'],
              message: 'shared/ depends on nothing.',
            },
            { group: ['electron', ...nodeBuiltins], message: 'shared/ has no Node or DOM.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron'], message: 'Only main/electron/ imports electron.' },
            { group: ['**/stack/**', '**/renderer/**'], message: 'main/ talks to the stack over HTTP only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/stack/**', '**/renderer/**'], message: 'main/ talks to the stack over HTTP only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['stack/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron'], message: 'The stack is a plain Node process.' },
            { group: ['**/main/**', '**/renderer/**'], message: 'stack/ never imports main/ or renderer/.' },
          ],
        },
      ],
    },
  },
);
