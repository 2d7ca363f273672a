import { controlApi } from '@keyward/kernel';
import { controlRuntime } from '@keyward/kernel/interpreter';
import { defineApiModule } from './module.js';

/** requeueAfter: nothing to set, and in a plan's sandbox it does what it does at run time (nothing). */
export const controlApiModule = defineApiModule({
  api: controlApi,
  options: {},
  runtime: () => controlRuntime,
  sandbox: () => controlRuntime.handlers,
});
