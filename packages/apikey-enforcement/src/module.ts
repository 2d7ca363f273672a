import { defineControllerModule } from '@keyward/kernel';
import { parseDns1123Label } from '@keyward/kernel/model';
import { defaultAPIKeyConfig } from './config.js';
import { apiKeyController } from './controller.js';
import { apiKeyCrd } from './crd.js';

/** The APIKey enforcement controller with its options, permissions and CRD, for the operator. */
export const apiKeyModule = defineControllerModule({
  definition: apiKeyController,
  defaultConfig: defaultAPIKeyConfig,
  options: {
    enforcementNamespace: {
      flags: '--enforcement-namespace <namespace>',
      env: 'KEYWARD_ENFORCEMENT_NAMESPACE',
      description: 'namespace of the enforcement Secrets Authorino reads',
      defaultText: defaultAPIKeyConfig.enforcementNamespace,
      parse: parseDns1123Label,
      helm: {
        path: 'apikeyEnforcement.namespace',
        type: 'namespace',
        default: defaultAPIKeyConfig.enforcementNamespace,
        comment: "where the enforcement Secrets Authorino reads live; the apikey-enforcement controller's Role goes there, so it must exist first (Kuadrant's install makes it). The chart does not create it: `helm install` and `helm upgrade` stop before creating anything, naming it, when it is missing (as with any namespace listed in `namespaces` or holding the Keycloak admin Secret).",
      },
    },
  },
  rbac: [
    { apiGroups: ['devportal.kuadrant.io'], resources: ['apikeys'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    { apiGroups: ['devportal.kuadrant.io'], resources: ['apikeys/status'], verbs: ['patch'], scope: 'watched' },
    // Reads the consumers' key Secrets next to their APIKeys.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    // Watches its enforcement Secrets where Authorino looks (and sweeps orphans there); creates and deletes them,
    // never changes one in place.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'delete'], scope: { namespaceOf: ['enforcementNamespace'] } },
  ],
  crds: [apiKeyCrd],
});
