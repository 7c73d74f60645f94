// Lint: recommended rules plus the type-aware async-safety rules (no-floating-promises, no-misused-promises).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.kbctx/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Lines of at most 120 columns (ADR 0182): Biome lays out the code (`npm run format`), scripts/wrap-comments.ts the
    // comments; what neither may break is allowed: strings, templates, regular expressions, URLs, lint directives and
    // typed JSDoc tags. Formatting is Biome's, so no layout rule is on here (no-unexpected-multiline: see the ADR).
    // test/architecture.test.ts allows none of those wider either (issue 30, docs/formatting.md).
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    rules: {
      'max-len': [
        'error',
        {
          code: 120,
          ignoreUrls: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignorePattern: String.raw`^\s*(// eslint-|/?\*\*? @\w+ \{)`,
        },
      ],
      'no-unexpected-multiline': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
  {
    // The web page's browser modules (plain ES modules, type-checked by plugins/web/client/tsconfig.json).
    files: ['plugins/web/client/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'history',
          'navigator',
          'sessionStorage',
          'fetch',
          'performance',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'requestAnimationFrame',
          'queueMicrotask',
          'addEventListener',
          'removeEventListener',
          'URLSearchParams',
          'AbortController',
          'HTMLElement',
        ].map((g) => [g, 'readonly']),
      ),
    },
  },
);
