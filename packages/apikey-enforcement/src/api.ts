import * as t from 'io-ts';
import { DNS1123_LABEL_MAX_LENGTH, DNS1123_SUBDOMAIN_MAX_LENGTH, dateTime, kubernetesName, truncateWithHash } from '@keyward/kernel/model';
import { type Condition, type ResourceType } from '@keyward/kernel';
import { type StoredMeta } from '@keyward/kernel/plan';

export const GROUP = 'devportal.kuadrant.io';
export const VERSION = 'v1alpha1';

export const apiKeyType: ResourceType = { group: GROUP, version: VERSION, kind: 'APIKey', plural: 'apikeys', namespaced: true };

export const LABEL_API_PRODUCT = 'devportal.kuadrant.io/apiproduct';
export const LABEL_API_KEY = 'devportal.kuadrant.io/apikey';
export const LABEL_API_KEY_NAMESPACE = 'devportal.kuadrant.io/apikey-namespace';
/** Without it Authorino ignores the Secret. */
export const LABEL_AUTHORINO_MANAGED_BY = 'authorino.kuadrant.io/managed-by';
/** Marks enforcement Secrets as Keyward's, for the orphan sweep and the watch. */
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'keyward-apikey-enforcement';
export const ANNOTATION_USER_ID = 'secret.kuadrant.io/user-id';
export const ANNOTATION_PLAN_ID = 'secret.kuadrant.io/plan-id';

/** The consumer Secret's key that holds the API key, and the enforcement Secret's. */
export const API_KEY_DATA_KEY = 'api_key';

export const CONDITION_APPROVED = 'Approved';
export const CONDITION_DENIED = 'Denied';
export const CONDITION_FAILED = 'Failed';
export const CONDITION_PENDING = 'Pending';

/** Reasons this controller sets on the Failed condition. */
export const FailureReason = {
  secretNotFound: 'SecretNotFound',
  secretReadError: 'SecretReadError',
  apiKeyNotFound: 'SecretAPIKeyNotFound',
  creationFailed: 'EnforcementSecretCreationFailed',
} as const;
export const OUR_FAILURE_REASONS: readonly string[] = Object.values(FailureReason);

/**
 * Name of the enforcement Secret for the APIKey `namespace/name`. A namespace never contains a dot, so
 * `<namespace>.<name>` cannot be produced by two different pairs (`foo-bar/baz` and `foo/bar-baz` differ);
 * names too long for a Secret are shortened with a hash of the full pair, which keeps them distinct.
 */
export function enforcementSecretName(namespace: string, name: string): string {
  return truncateWithHash(`apikey-${namespace}.${name}`, DNS1123_SUBDOMAIN_MAX_LENGTH);
}

/** A label value (at most 63 characters): longer values are shortened with a hash; annotations keep the full value. */
export function labelValue(value: string): string {
  return truncateWithHash(value, DNS1123_LABEL_MAX_LENGTH);
}

/**
 * Both references are names of Kubernetes objects, and are used as such: the product's name becomes a label
 * value of the enforcement Secret (another text would make its creation fail on every retry), the Secret's
 * name a path and a field selector (where "a,b" would add a selector term of the user's choosing).
 */
export const SpecCodec = t.intersection([
  t.type({
    apiProductRef: t.intersection([t.type({ name: kubernetesName() }), t.partial({ namespace: t.string })]),
    secretRef: t.type({ name: kubernetesName() }),
    planTier: t.string,
    useCase: t.string,
    requestedBy: t.type({ userId: t.string, email: t.string }),
  }),
  t.partial({ expiresAt: dateTime() }),
]);

export type APIKeySpec = t.TypeOf<typeof SpecCodec>;

export interface APIKey {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: StoredMeta;
  readonly spec: APIKeySpec;
  readonly status: { readonly conditions: readonly Condition[] };
  readonly [field: string]: unknown;
}
