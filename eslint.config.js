import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

// Libraries that do I/O. Only core's interpreter and runtime, the operator and the test environment may
// import them; domain packages and core's pure layers stay pure so a policy can be tested as a function.
const ioModules = ['@kubernetes/client-node', 'axios', 'bottleneck', 'winston', 'prom-client'];
const ioBuiltins = ['http', 'https', 'fs', 'fs/promises', 'net', 'child_process'].flatMap((m) => [m, `node:${m}`]);
const pureRule = {
  'no-restricted-imports': [
    'error',
    {
      paths: [...ioModules, ...ioBuiltins].map((name) => ({
        name,
        message: 'Pure code must not do I/O: describe it as an Action or Query and let @keyward/core interpret it.',
      })),
      patterns: [
        {
          // The generic plan engine (interpreter/interpret, types, errors) does no I/O; the API handlers do.
          group: [
            '@keyward/core/interpreter',
            '@keyward/core/runtime',
            // An API module's I/O half (its client and handlers) lives in its io/ folder.
            '**/apis/*/io/**',
            '**/interpreter/handlers*',
            '**/runtime/**',
          ],
          message: 'Pure code imports only the pure parts of @keyward/core (model, plan, testing).',
        },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'tools/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: false }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // @kubernetes/client-node declares its API objects as classes but sends and returns plain JSON objects;
      // object literals are the intended way to build them.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      '@typescript-eslint/no-misused-spread': 'off',
    },
  },
  {
    files: [
      'packages/keystone-appcred/src/**/*.ts',
      'packages/keystone-service/src/**/*.ts',
      'packages/apikey-enforcement/src/**/*.ts',
      'packages/core/src/model/**/*.ts',
      'packages/core/src/plan/**/*.ts',
      'packages/core/src/testing/**/*.ts',
    ],
    rules: pureRule,
  },
);
