import { defineApi } from '../../plan/api.js';
import { describeUnknown, isOutputRef } from '../../plan/values.js';
import type { KeystoneAction } from './actions.js';
import type { KeystoneQuery } from './queries.js';

/** OpenStack Keystone: authentication, application credentials, and whether it issues tokens. */
export const keystoneApi = defineApi<KeystoneAction, KeystoneQuery>({
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
  queries: {
    'keystone.token': { describe: (q) => `request a token from Keystone at ${q.endpoint} as ${q.userName} (project ${q.projectName})` },
  },
});
