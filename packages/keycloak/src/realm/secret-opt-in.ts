import type { KubeObject } from '@keyward/kernel';
import type { SecretKeyRef } from '@keyward/kernel/plan';
import type { Readiness } from '../readiness.js';
import { stalled } from './readiness.js';

// A KeycloakRealm names Secrets only by name, so they are in its own namespace. Its author still must not be
// able to make the operator read any Secret there (another application's credentials, sent on to a Keycloak
// the author can read back from): a Secret is read for a realm only when it carries this label.

/** The label (with the value `true`) a Secret needs before a KeycloakRealm may have the operator read it. */
export const REALM_SECRET_LABEL = 'keycloak.keyward.io/realm-secret';
export const REALM_SECRET_LABEL_VALUE = 'true';
/** The Kopf operator's label for the same opt-in, honoured too so that its Secrets need no relabelling. */
export const UPSTREAM_SECRET_LABEL = 'vriesdemichael.github.io/keycloak-allow-operator-read';

/** Each set of labels that opts a Secret in: ours, or the Kopf operator's. */
const OPT_IN_LABELS: readonly Readonly<Record<string, string>>[] = [
  { [REALM_SECRET_LABEL]: REALM_SECRET_LABEL_VALUE },
  { [UPSTREAM_SECRET_LABEL]: REALM_SECRET_LABEL_VALUE },
];

/** One Secret a realm's spec makes the operator read, and what for. */
export interface RealmSecretUse {
  /** The Secret's name, in the realm's namespace. */
  readonly name: string;
  /** What the Secret holds, for messages: "the SMTP password", "identity provider github's clientSecret". */
  readonly holds: string;
  /** The prefix of the condition's reason: `SmtpPassword` gives `SmtpPasswordSecretMissing`. */
  readonly reason: string;
  /** The Secret as read; undefined when it does not exist. */
  readonly secret: KubeObject | undefined;
}

const carries = (secret: KubeObject | undefined, labels: Readonly<Record<string, string>>): boolean =>
  Object.entries(labels).every(([key, value]) => secret?.metadata.labels?.[key] === value);

export const isOptedIn = (secret: KubeObject): boolean => OPT_IN_LABELS.some((labels) => carries(secret, labels));

/** The opt-in `secret` carries, for the read to require again: the Kopf operator's only when it lacks ours. */
const optInOf = (secret: KubeObject | undefined): Readonly<Record<string, string>> =>
  OPT_IN_LABELS.find((labels) => carries(secret, labels)) ?? { [REALM_SECRET_LABEL]: REALM_SECRET_LABEL_VALUE };

/**
 * A key of a realm's Secret, for a step to read: the plan checks the label first (see realmSecretsProblem);
 * the read checks it again, so a label removed after the plan was made still keeps the value unread.
 */
export function realmSecretKey(namespace: string, ref: { readonly name: string; readonly key: string }, secret?: KubeObject): SecretKeyRef {
  return { kind: 'secretKey', namespace, name: ref.name, key: ref.key, requiredLabels: optInOf(secret) };
}

/**
 * Why the realm cannot use its Secrets yet: the first one missing, or one without the opt-in label, whose
 * value is then never read. Undefined when every Secret can be read. Stalled rather than failed: the realm
 * waits (the Secrets are watched by name) instead of being retried.
 */
export function realmSecretsProblem(uses: readonly RealmSecretUse[], namespace: string, realm: string): Readiness | undefined {
  for (const use of uses) {
    const where = `Secret ${use.name} (${use.holds}) in namespace ${namespace}`;
    if (use.secret === undefined) return stalled(`${use.reason}SecretMissing`, `the ${where} does not exist; realm ${realm} waits for it`);
    if (!isOptedIn(use.secret)) {
      return stalled(`${use.reason}SecretNotOptedIn`, `the ${where} lacks the label ${REALM_SECRET_LABEL}=${REALM_SECRET_LABEL_VALUE}; realm ${realm} reads no Secret without it`);
    }
  }
  return undefined;
}
