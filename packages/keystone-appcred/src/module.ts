import { defineControllerModule } from '@keyward/kernel';
import { parseBoolean, parseHttpUrl } from '@keyward/kernel/model';
import { defaultAppCredConfig } from './config.js';
import { appCredController } from './controller.js';
import { appCredCrd } from './crd.js';

/** The KeystoneApplicationCredential controller with its options, permissions and CRD, for the operator. */
export const appCredModule = defineControllerModule({
  definition: appCredController,
  defaultConfig: defaultAppCredConfig,
  options: {
    keystoneUrl: {
      flags: '--keystone-url <url>',
      env: 'KEYWARD_KEYSTONE_URL',
      description: "Keystone URL to use instead of each namespace's KeystoneAPI endpoint",
      defaultText: 'none',
      parse: parseHttpUrl,
      helm: {
        path: 'keystone.url',
        type: 'text',
        comment: "the Keystone URL to use instead of each namespace's KeystoneAPI endpoint. Empty: read the KeystoneAPI of the credential's namespace, else a Ready Keystone of keystone-service there.",
      },
    },
    revokeOnDelete: {
      flags: '--revoke-on-delete',
      negation: { flags: '--no-revoke-on-delete', description: 'keep the credentials of a deleted KeystoneApplicationCredential' },
      env: 'KEYWARD_REVOKE_ON_DELETE',
      description: 'revoke the Keystone credentials of a deleted KeystoneApplicationCredential',
      defaultText: String(defaultAppCredConfig.revokeOnDelete),
      parse: parseBoolean,
      helm: { path: 'keystone.revokeOnDelete', type: 'boolean', default: defaultAppCredConfig.revokeOnDelete, comment: 'revoke the Keystone credentials of a deleted KeystoneApplicationCredential.' },
    },
  },
  rbac: [
    // patch: finalizers. Status is a merge patch of the status subresource; nothing is ever replaced (PUT).
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapplicationcredentials'], verbs: ['get', 'list', 'watch', 'patch'], scope: 'watched' },
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapplicationcredentials/status'], verbs: ['patch'], scope: 'watched' },
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapis'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    // Keyward's own Keystone (@keyward/keystone-service), whose endpoint is used when there is no usable KeystoneAPI.
    { apiGroups: ['keystone.openstack.c5c3.io'], resources: ['keystones'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    // The credential Secrets live next to their CRs; patch: their labels and protection finalizer.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'], scope: 'watched' },
  ],
  // KeystoneAPI and Keystone are read, not served: their CRDs belong to the Keystone operator and keystone-service.
  crds: [appCredCrd],
});
