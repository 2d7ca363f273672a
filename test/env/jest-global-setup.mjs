// Jest loads global setup files outside its module system (no ESM transform, no .js -> .ts mapping),
// so this shim loads the TypeScript setup through tsx.
import { tsImport } from 'tsx/esm/api';

const { default: globalSetup } = await tsImport('./src/jest/global-setup.ts', import.meta.url);
export default globalSetup;
