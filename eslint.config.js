import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

// Libraries that do I/O. Only @keyward/runtime, Keycloak's io/, the operator and the test environment may
// import them; @keyward/kernel and the domain packages stay pure so a policy can be tested
// as a function, and so installing them brings none of these libraries (their package.json does not list them).
const ioModules = ['@kubernetes/client-node', 'axios', 'bottleneck', 'winston', 'prom-client'];
const ioBuiltins = ['http', 'https', 'fs', 'fs/promises', 'net', 'child_process'].flatMap((m) => [m, `node:${m}`]);
const pureRule = {
  'no-restricted-imports': [
    'error',
    {
      paths: [...ioModules, ...ioBuiltins].map((name) => ({
        name,
        message: 'Pure code must not do I/O: describe it as an Action or Query and let @keyward/runtime interpret it.',
      })),
      patterns: [
        {
          // The kernel's plan engine (interpreter/) does no I/O; the API modules' clients and handlers do.
          group: [
            // @keyward/runtime is where the I/O libraries are installed; pure code takes the same names from
            // @keyward/kernel, which its package depends on.
            '@keyward/runtime',
            '@keyward/runtime/*',
            // An API module's I/O half (its client and handlers) lives in its io/ folder.
            '**/apis/*/io/**',
            '**/runtime/**',
          ],
          message: 'Pure code imports @keyward/kernel (and its /interpreter engine and /testing kit), never @keyward/runtime.',
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
      'packages/keycloak/src/**/*.ts',
      'packages/kernel/src/**/*.ts',
    ],
    // Keycloak's runtime half sends through @keyward/runtime's HTTP transport: the package has core as a peer.
    ignores: ['packages/keycloak/src/apis/keycloak/io/**', 'packages/keycloak/src/io.ts'],
    rules: pureRule,
  },
);
