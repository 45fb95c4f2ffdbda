// Lint rules the code already keeps, so they stay kept. Layering is checked here too: core imports
// neither VS Code nor Node, and code outside core reaches it through each folder's index.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const deepCore = { group: ['**/core/*/*', '!**/core/*/index'], message: 'Import core through its folder index (core/<folder>).' };

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'node_modules/', 'e2e-out/', '**/*.d.ts'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': ['error', { destructuring: 'all' }],
      // Python's line-break class and terminal escapes are control characters on purpose.
      'no-control-regex': 'off',
      'no-var': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['vscode', 'node:*', '../../extension/*', '../../webview/*', '../../shared/*'], message: 'core is pure: no VS Code, no Node, nothing above it.' }] }] },
  },
  {
    files: ['src/extension/**/*.ts', 'src/webview/**/*.ts', 'src/cli/**/*.ts', 'src/node/**/*.ts', 'src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepCore] }] },
  },
  {
    files: ['src/webview/**/*.ts', 'src/renderer/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepCore, { group: ['vscode', 'node:*', '../extension/*'], message: 'the webview has only the DOM.' }] }] },
  },
);
