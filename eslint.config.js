import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import fs from 'node:fs';
import noFolderCycle from './eslint-rules/no-folder-cycle.js';

const webFeatures = fs
  .readdirSync('src/web/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// DESIGN §2: web → shared, server → shared; shared imports neither; web and server never import each
// other; shared components never import features; features never import each other.
const importDirection = [
  {
    target: './src/shared',
    from: ['./src/server', './src/web'],
    message: 'src/shared is pure and isomorphic: it imports neither server nor web code.',
  },
  { target: './src/web', from: './src/server', message: 'The web app never imports server code.' },
  { target: './src/server', from: './src/web', message: 'The server never imports web code.' },
  {
    target: ['./src/web/components', './src/web/lib'],
    from: './src/web/features',
    message: 'Shared components and lib never import features: move what both need into components/ or lib/.',
  },
  ...webFeatures.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`],
    message: 'Features never import each other: move what both need into components/ or lib/.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'coverage',
      'test-results',
      'playwright-report',
      'src/server/db/migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: importDirection }],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    plugins: { local: { rules: { 'no-folder-cycle': noFolderCycle } } },
    rules: { 'local/no-folder-cycle': ['error', { root: 'src/server', alias: '@server/' }] },
  },
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Imports point one way (web → shared, server → shared): enforced per folder below.
      'no-restricted-imports': 'off',
    },
  },
  {
    // A longer function is split where a name explains its parts.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@server/*', '@web/*', '**/server/**', '**/web/**', 'node:*', 'react', 'react-dom'],
              message: 'src/shared is pure and isomorphic: no server, web, Node or React imports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@server/*', '**/server/**'], message: 'The web app never imports server code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@web/*', '**/web/**'], message: 'The server never imports web code.' }] },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.config.{js,ts,cjs}', 'e2e/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    // The browser scripts served at /sdk/marquee.js and /sdk/preview.js: classic scripts for other sites' pages, as written.
    files: ['src/server/ingest/sdk/*.js', 'src/server/preview/sdk/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
);
