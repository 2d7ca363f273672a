import { defineApiRuntime } from '../../interpreter/api-runtime.js';
import { controlApi } from './api.js';

/** Control actions change nothing outside: the runtime reads requeues from the plan itself. */
export const controlRuntime = defineApiRuntime({
  api: controlApi,
  handlers: { 'control.requeueAfter': () => Promise.resolve({ outcome: 'unchanged', outputs: {} }) },
  queries: () => ({}),
});
