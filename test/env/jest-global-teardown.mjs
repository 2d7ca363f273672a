// See jest-global-setup.mjs for why this shim exists.
import { tsImport } from 'tsx/esm/api';

const { default: globalTeardown } = await tsImport('./src/jest/global-teardown.ts', import.meta.url);
export default globalTeardown;
