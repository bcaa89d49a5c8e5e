// ESLint (flat config) with typescript-eslint: the recommended rules, type-aware where they find real bugs
// (floating promises). Formatting is Prettier's (.prettierrc.json), so no style rules here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { languageOptions: { globals: { ...globals.node } } },
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.cache/', '.tmp/', '.dist-next-*/', 'completions/', 'etc/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Terminal safety and parsers match control characters on purpose.
  { rules: { 'no-control-regex': 'off' } },
  // Tests read JSON answers of every shape; typing each would only restate the schemas under test.
  { files: ['test/**', 'bench/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  // bin/ and dist/'s loaders are CommonJS on purpose (start-up cost): require is right there.
  { files: ['**/*.js', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
