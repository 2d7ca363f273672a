import { defineApi } from '../../plan/api.js';
import { describeUnknown, isOutputRef } from '../../plan/values.js';
import type { KeystoneAction } from './actions.js';

/** OpenStack Keystone: authentication and application credentials. */
export const keystoneApi = defineApi<KeystoneAction>({
  name: 'keystone',
  actions: {
    'keystone.authenticate': { describe: (a) => `authenticate to Keystone as ${a.userName} (project ${a.projectName}, domain ${a.userDomain})` },
    'keystone.createApplicationCredential': { describe: (a) => `create application credential ${a.name}` },
    'keystone.revokeApplicationCredential': {
      describe: (a) => {
        if (a.name === undefined) return `revoke application credential ${isOutputRef(a.id) ? describeUnknown(a.id) : a.id}`;
        const kept = a.keep?.length ?? 0;
        return `revoke application credentials named ${a.name}${kept > 0 ? `, except ${String(kept)} stored` : ''}`;
      },
    },
  },
  queries: {},
});
