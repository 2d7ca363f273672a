import type { RealmSteps } from '../context.js';
import { federationSecret, federationSecretChanged, federationSecretVersions } from './secrets.js';
import type { ObservedFederationProvider } from '../../apis/keycloak/components.js';
import type { FederationProviderStatus, FederationStatus } from './status.js';
import type { UserFederationSpec } from './spec.js';
import type { RealmInput } from '../types.js';
import { planUserFederation } from './plan.js';
import type { KeycloakRealmSpec } from '../spec.js';
import { prunesWhenEmpty, removesUnlisted } from '../../prune.js';

function providerStatus(spec: UserFederationSpec, observed: ObservedFederationProvider | undefined): FederationProviderStatus {
  const test = observed?.connectionTest;
  return {
    name: spec.name,
    providerId: spec.providerId,
    ...(observed === undefined ? {} : { id: observed.provider.id }),
    ...(test === undefined ? {} : { connectionTestPassed: test.passed }),
    ...(test === undefined || test.passed ? {} : { connectionTestError: test.error }),
  };
}

/**
 * The user federation steps of a reconcile, and what status then records (undefined: status keeps what it
 * has). A realm whose spec lists none has them neither read nor planned unless `pruneUnlisted` names them. Providers wait for a realm made in the same plan: a provider's parent is the realm's id.
 */
export function planRealmUserFederation(steps: RealmSteps, input: RealmInput): FederationStatus | undefined {
  const { primary: cr, observed } = input;
  const pruneWhenEmpty = prunesWhenEmpty(cr.spec.pruneUnlisted, 'userFederation');
  const specs = cr.spec.userFederation ?? [];
  const realm = observed.realm;
  const current = realm?.userFederation;
  const realmId = realm?.realm.id;
  if (current === undefined || realmId === undefined) return specs.length === 0 ? { providers: [], secretVersions: {} } : undefined;
  planUserFederation(steps, specs, current, { realmId, namespace: cr.metadata.namespace, changed: federationSecretChanged(cr, observed), secret: federationSecret(observed), pruneWhenEmpty });
  const byName = new Map(current.map((entry) => [entry.provider.name, entry]));
  return {
    providers: specs.map((spec) => providerStatus(spec, byName.get(spec.name))),
    secretVersions: federationSecretVersions(cr, observed),
  };
}

/** Whether a reconcile reads the user federation providers: the spec lists some, or prunes ours. */
export const readsUserFederation = (spec: KeycloakRealmSpec): boolean => removesUnlisted(spec.userFederation, prunesWhenEmpty(spec.pruneUnlisted, 'userFederation'));
