// Two projects: "unit" (pure and mocked, seconds) and "integration" (*.int.test.ts, against the real
// environment that the global setup starts once per run).
import { homedir } from 'node:os';
import { join } from 'node:path';

const shared = {
  // Kept with the other caches, so a reused machine starts the longest files first (see jest-sequencer.cjs).
  cacheDirectory: join(process.env.KEYWARD_CACHE ?? join(homedir(), '.cache', 'keyward'), 'jest'),
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }],
  },
  // Sources import siblings as ./x.js (NodeNext); tests run the .ts files directly.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Workspace packages resolve to their TypeScript sources, so tests never need a prior build.
  testEnvironmentOptions: { customExportConditions: ['@keyward/source', 'node', 'node-addons'] },
};

export default {
  testSequencer: '<rootDir>/test/env/jest-sequencer.cjs',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts', '<rootDir>/examples/**/*.test.ts'],
      testPathIgnorePatterns: ['\\.int\\.test\\.ts$', '/node_modules/'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/packages/*/test/**/*.int.test.ts', '<rootDir>/test/**/*.int.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
      globalSetup: '<rootDir>/test/env/jest-global-setup.mjs',
      globalTeardown: '<rootDir>/test/env/jest-global-teardown.mjs',
      setupFilesAfterEnv: ['<rootDir>/test/env/src/jest/integration-timeout.ts'],
    },
  ],
};
