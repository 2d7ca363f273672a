import { formatDuration } from '../../model/duration.js';
import { defineApi } from '../../plan/api.js';
import type { ControlAction } from './actions.js';

/** Actions addressed to the runtime itself rather than to an outside API. */
export const controlApi = defineApi<ControlAction>({
  name: 'control',
  actions: {
    'control.requeueAfter': { describe: (action) => `check again in ${formatDuration(action.afterMs)}` },
  },
  queries: {},
});
