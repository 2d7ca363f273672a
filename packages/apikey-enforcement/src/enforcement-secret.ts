import { coreTypes, sensitive, type ObjectRef } from '@keyward/kernel';
import { type ObjectTemplate } from '@keyward/kernel/plan';
import {
  ANNOTATION_PLAN_ID,
  ANNOTATION_USER_ID,
  API_KEY_DATA_KEY,
  LABEL_API_KEY,
  LABEL_API_KEY_NAMESPACE,
  LABEL_API_PRODUCT,
  LABEL_AUTHORINO_MANAGED_BY,
  LABEL_MANAGED_BY,
  MANAGED_BY,
  enforcementSecretName,
  labelValue,
  type APIKey,
} from './api.js';

export function enforcementSecretRef(apiKey: Pick<APIKey, 'metadata'>, enforcementNamespace: string): ObjectRef {
  return { type: coreTypes.secret, namespace: enforcementNamespace, name: enforcementSecretName(apiKey.metadata.namespace, apiKey.metadata.name) };
}

/** Labels that mark enforcement Secrets as ours (the watch and the orphan sweep select by them). */
export const managedLabels = { [LABEL_MANAGED_BY]: MANAGED_BY } as const;

/**
 * The enforcement Secret Authorino reads: the API key (kept sensitive: it never prints in a plan), labels
 * Authorino and the devportal select by (values shortened with a hash when longer than 63 characters), and
 * annotations with the full values and the requester's ids.
 */
export function enforcementSecret(apiKey: APIKey, enforcementNamespace: string, apiKeyBase64: string): ObjectTemplate {
  const { name, namespace } = apiKey.metadata;
  const product = apiKey.spec.apiProductRef.name;
  const userId = apiKey.spec.requestedBy.userId;
  const planId = apiKey.spec.planTier;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: enforcementSecretName(namespace, name),
      namespace: enforcementNamespace,
      labels: {
        [LABEL_API_PRODUCT]: labelValue(product),
        [LABEL_API_KEY]: labelValue(name),
        [LABEL_API_KEY_NAMESPACE]: labelValue(namespace),
        [LABEL_AUTHORINO_MANAGED_BY]: 'authorino',
        ...managedLabels,
      },
      annotations: {
        [LABEL_API_PRODUCT]: product,
        [LABEL_API_KEY]: name,
        [LABEL_API_KEY_NAMESPACE]: namespace,
        ...(userId === '' ? {} : { [ANNOTATION_USER_ID]: userId }),
        ...(planId === '' ? {} : { [ANNOTATION_PLAN_ID]: planId }),
      },
    },
    type: 'Opaque',
    data: { [API_KEY_DATA_KEY]: sensitive(apiKeyBase64) },
  };
}

/** The APIKey ("namespace/name") an enforcement Secret belongs to, from its annotations (labels may be shortened). */
export function apiKeyOf(secret: { metadata: { annotations?: Readonly<Record<string, string>> } }): string | undefined {
  const name = secret.metadata.annotations?.[LABEL_API_KEY];
  const namespace = secret.metadata.annotations?.[LABEL_API_KEY_NAMESPACE];
  return name === undefined || namespace === undefined ? undefined : `${namespace}/${name}`;
}
