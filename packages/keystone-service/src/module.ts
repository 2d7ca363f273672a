import { defineControllerModule } from '@keyward/kernel';
import { parseDns1123Subdomain } from '@keyward/kernel/model';
import { GROUP, MARIADB_GROUP } from './api.js';
import { defaultKeystoneServiceConfig } from './config.js';
import { keystoneServiceController } from './controller.js';
import { keystoneCrd } from './crd.js';

/**
 * The Keystone controller with its options, permissions and CRD: one of the operator's controller modules
 * (`keystone-service` in --controllers, RBAC, `keyward crds` and `keyward plan`).
 */
export const keystoneServiceModule = defineControllerModule({
  definition: keystoneServiceController,
  defaultConfig: defaultKeystoneServiceConfig,
  options: {
    clusterDomain: {
      flags: '--keystone-cluster-domain <domain>',
      env: 'KEYWARD_KEYSTONE_CLUSTER_DOMAIN',
      description: "the cluster's DNS domain, for the in-cluster URLs of Keystone, its database and its cache",
      defaultText: defaultKeystoneServiceConfig.clusterDomain,
      parse: parseDns1123Subdomain,
      helm: {
        path: 'keystoneService.clusterDomain',
        type: 'text',
        comment: `the cluster's DNS domain, for the in-cluster URLs of the Keystones the keystone-service controller runs, their databases and their caches. Empty: ${defaultKeystoneServiceConfig.clusterDomain}.`,
      },
    },
  },
  rbac: [
    // Status is a merge patch of the status subresource; the object itself is only read.
    { apiGroups: [GROUP], resources: ['keystones'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    { apiGroups: [GROUP], resources: ['keystones/status'], verbs: ['patch'], scope: 'watched' },
    // Key, connection and referenced Secrets; create: the key Secrets; patch: rotation and server-side apply.
    { apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'], scope: 'watched' },
    { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch', 'create', 'patch'], scope: 'watched' },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'patch'], scope: 'watched' },
    { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch', 'create', 'delete'], scope: 'watched' },
    { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get', 'list', 'watch', 'create', 'patch'], scope: 'watched' },
    { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'], scope: 'watched' },
    { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'list', 'watch', 'create', 'patch'], scope: 'watched' },
    { apiGroups: [MARIADB_GROUP], resources: ['databases', 'users', 'grants'], verbs: ['get', 'list', 'watch', 'create', 'patch'], scope: 'watched' },
    // Read only, to say why a Secret the spec names is missing.
    { apiGroups: ['external-secrets.io'], resources: ['externalsecrets'], verbs: ['list', 'watch'], scope: 'watched' },
    { apiGroups: [''], resources: ['events'], verbs: ['create'], scope: 'watched' },
  ],
  crds: [keystoneCrd],
});
