import type { HandlerSet } from '../../interpreter/types.js';

/** Control actions change nothing outside: the runtime reads requeues from the plan itself. */
export const controlHandlers: HandlerSet<'control.requeueAfter'> = {
  'control.requeueAfter': () => Promise.resolve({ outcome: 'unchanged', outputs: {} }),
};
