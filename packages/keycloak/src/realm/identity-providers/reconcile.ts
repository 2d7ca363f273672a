import type { RealmSteps } from '../context.js';
import { idpSecretsContext, idpSecretVersions } from './secrets.js';
import type { IdpStatus } from './status.js';
import { planIdentityProviders } from './plan.js';
import type { IdentityProviderSpec } from './spec.js';
import { BUILT_IN_FLOWS } from '../flows/spec.js';
import type { RealmInput } from '../types.js';
import { prunesWhenEmpty } from '../../prune.js';

/**
 * Whether every flow a provider names is one Keycloak makes in every realm. A realm made in this plan has no
 * other flow until the next reconcile makes the spec's, and Keycloak 26 answers 500 to a provider whose
 * first or post broker login flow does not exist: such a provider waits for that reconcile too.
 */
export function namesOnlyBuiltInFlows(spec: IdentityProviderSpec): boolean {
  return [spec.firstBrokerLoginFlowAlias, spec.postBrokerLoginFlowAlias].every((alias) => alias === undefined || alias === '' || BUILT_IN_FLOWS.includes(alias));
}

/**
 * The identity provider steps of a reconcile, and what status then records (undefined: status keeps what it
 * has). A realm whose spec neither lists nor prunes them has them neither read nor planned.
 */
export function planRealmIdentityProviders(steps: RealmSteps, input: RealmInput): IdpStatus | undefined {
  const { primary: cr, observed } = input;
  const specs = cr.spec.identityProviders ?? [];
  const realm = observed.realm;
  // Read only while listed or pruned (see observe); a realm made in this plan has none yet.
  const current = realm === undefined ? [] : realm.identityProviders;
  if (current === undefined) return specs.length === 0 ? { secretVersions: {} } : undefined;
  const prune = prunesWhenEmpty(cr.spec.pruneUnlisted, 'identityProviders');
  planIdentityProviders(steps, { specs: realm === undefined ? specs.filter(namesOnlyBuiltInFlows) : specs, pruneWhenEmpty: prune }, current, idpSecretsContext(cr, observed));
  return { secretVersions: idpSecretVersions(cr, observed) };
}
