import { coreTypes, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { owns, type SecondaryWatch } from '@keyward/kernel/plan';
import { LABEL_INSTANCE, LABEL_MANAGED_BY, LABEL_NAME, cronJobType, horizontalPodAutoscalerType, externalSecretType, keystoneType, mariaDbDatabaseType, mariaDbGrantType, mariaDbUserType, podDisruptionBudgetType, podType, replicaSetType } from './api.js';
import type { KeystoneServiceConfig } from './config.js';
import { decodeKeystone } from './decode.js';
import { keystoneErrorPolicy } from './namespace.js';
import { observe, type KeystoneQueries } from './observe.js';
import { reconcile, reportFailure, reportInvalid } from './reconcile.js';
import type { Keystone } from './spec.js';
import { keystoneServiceApis, type KeystoneAction } from './vocabulary.js';

/** Every object of ours carries these: the watches (and their caches) hold nothing else. */
const ours = { [LABEL_NAME]: 'keystone', [LABEL_MANAGED_BY]: 'keyward' };

/** Pods and ReplicaSets belong to the Deployment or a Job, not to the Keystone: found by the instance label. */
function byInstance(type: SecondaryWatch['type']): SecondaryWatch {
  return {
    type,
    labels: ours,
    mapToPrimary: (object: KubeObject) => {
      const instance = object.metadata.labels?.[LABEL_INSTANCE];
      return instance === undefined || object.metadata.namespace === undefined ? [] : [`${object.metadata.namespace}/${instance}`];
    },
  };
}

/** The Keystone controller as data, for @keyward/runtime's runtime. */
export const keystoneServiceController: ControllerDefinition<Keystone, KeystoneQueries, KeystoneServiceConfig, KeystoneAction> = {
  name: 'keystone-service',
  apis: keystoneServiceApis,
  primary: { type: keystoneType, decode: decodeKeystone },
  secondary: () => [
    ...[coreTypes.secret, coreTypes.configMap, coreTypes.deployment, coreTypes.service, coreTypes.job, cronJobType, horizontalPodAutoscalerType, podDisruptionBudgetType].map((type) => owns(type, keystoneType, { labels: ours })),
    // A rollout's progress, and the log tail of a failed Job.
    byInstance(replicaSetType),
    byInstance(podType),
  ],
  referenced: [
    // The Secrets and ConfigMap the spec names: a Keystone waiting for one continues as soon as it appears.
    { type: coreTypes.secret, of: (cr) => [cr.spec.database.secretRef.name, cr.spec.bootstrap.adminPasswordSecretRef.name].map((name) => ({ namespace: cr.metadata.namespace, name })) },
    // The namespace's ExternalSecrets, read only to explain a missing Secret: without their CRD the watch
    // retries quietly and the reads answer "not served" without a request.
    { type: externalSecretType, of: (cr) => [{ namespace: cr.metadata.namespace }] },
    { type: coreTypes.configMap, of: (cr) => (cr.spec.policyOverrides?.configMapRef === undefined ? [] : [{ namespace: cr.metadata.namespace, name: cr.spec.policyOverrides.configMapRef.name }]) },
    // The MariaDB operator's objects, only for a clusterRef: by name, so clusters without that operator's CRDs
    // run Keystones with a host as before.
    ...[mariaDbDatabaseType, mariaDbUserType, mariaDbGrantType].map((type) => ({
      type,
      of: (cr: Keystone) => (cr.spec.database.clusterRef === undefined ? [] : [{ namespace: cr.metadata.namespace, name: cr.metadata.name }]),
    })),
  ],
  observe,
  reconcile,
  reportFailure: (cr, failure, now) => reportFailure(cr, failure, now),
  reportInvalid,
  errorPolicy: keystoneErrorPolicy,
};
