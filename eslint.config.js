// One lint configuration for both sides: the Node side (src-main, tests, scripts,
// bench) and the web side (src-renderer). Formatting is Prettier's job, so the
// stylistic rules are off (eslint-config-prettier); what is left catches defects.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Input validation matches control characters on purpose (deep links, IPC arguments).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The backend is plain Node: it runs headless, in tests and in CI (docs/architecture.md).
    files: ['src-main/backend/**/*.ts', 'src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'The backend and shared code never import Electron.' }] }],
    },
  },
  {
    // One clock (src-main/backend/clock.ts): the service's time can be frozen and moved
    // by hand, so nothing else in the backend reads the system time or sets a timer.
    files: ['src-main/backend/**/*.ts'],
    ignores: ['src-main/backend/clock.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The backend and shared code never import Electron.' },
            ...['timers', 'node:timers', 'timers/promises', 'node:timers/promises'].map((name) => ({
              name,
              message: 'Timers go through a Clock (src-main/backend/clock.ts).',
            })),
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'].map((name) => ({
          name,
          message: 'Timers go through a Clock (src-main/backend/clock.ts): the injected one, or systemClock for real-world waits.',
        })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'Read the time from a Clock (src-main/backend/clock.ts).',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from a Clock (src-main/backend/clock.ts): new Date(clock.now()).',
        },
        {
          selector: "MemberExpression[object.name='globalThis'][property.name=/^(set|clear)(Timeout|Interval|Immediate)$/]",
          message: 'Timers go through a Clock (src-main/backend/clock.ts).',
        },
      ],
    },
  },
  {
    // Tests read JSON answers of many shapes; typing each one would say nothing the assertions do not.
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Small files and functions (docs/architecture.md): a reader can hold one whole.
    files: ['src-main/**/*.{ts,tsx}', 'src-renderer/**/*.{ts,tsx}', 'src-shared/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  prettier,
);
