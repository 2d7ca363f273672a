import type { ObservedClient } from '../apis/keycloak/queries.js';
import { reconcileAuthorization } from './authorization.js';
import { reconcileProtocolMappers } from './mappers.js';
import { reconcileClientRoles } from './roles.js';
import { reconcileScopeLinks } from './scopes.js';
import { reconcileServiceAccountRoles } from './service-account.js';
import type { KeycloakClientSpec, ManagedLists } from './spec.js';
import type { ClientTarget } from './target.js';
import { prunesWhenEmpty } from '../prune.js';

const DEFAULT_PROTOCOL = 'openid-connect';

/**
 * What a client contains: its roles, protocol mappers, client scope links, service-account roles and
 * authorization services.
 * `observed` is undefined for a client this plan creates (it has only what Keycloak gives every new client).
 * Returns the scope links and service-account roles now managed, for status.
 */
export function reconcileContents(target: ClientTarget, spec: KeycloakClientSpec, observed: ObservedClient | undefined, managed: ManagedLists | undefined): ManagedLists {
  reconcileClientRoles(target, spec.clientRoles, observed?.roles ?? [], prunesWhenEmpty(spec.pruneUnlisted, 'clientRoles'));
  const protocol = spec.protocol ?? (typeof observed?.client['protocol'] === 'string' ? observed.client['protocol'] : DEFAULT_PROTOCOL);
  reconcileProtocolMappers(target, { wanted: spec.protocolMappers, pruneWhenEmpty: prunesWhenEmpty(spec.pruneUnlisted, 'protocolMappers') }, observed?.client.protocolMappers ?? [], protocol);
  const scopes = reconcileScopeLinks(target, spec, observed ?? {}, managed);
  // The service account exists once the client enables it: in this plan's update, or already.
  const serviceAccount = (spec.settings?.serviceAccountsEnabled ?? observed?.client['serviceAccountsEnabled']) === true;
  const roles = serviceAccount
    ? reconcileServiceAccountRoles(target, spec.serviceAccountRoles, observed?.serviceAccountRoles, managed)
    : { serviceAccountRealmRoles: managed?.serviceAccountRealmRoles, serviceAccountClientRoles: managed?.serviceAccountClientRoles };
  const authorization = reconcileAuthorization(target, spec.authorizationSettings, observed?.authorization, managed, {
    scopes: prunesWhenEmpty(spec.pruneUnlisted, 'authorizationSettings.scopes'),
    resources: prunesWhenEmpty(spec.pruneUnlisted, 'authorizationSettings.resources'),
    policies: prunesWhenEmpty(spec.pruneUnlisted, 'authorizationSettings.policies'),
    permissions: prunesWhenEmpty(spec.pruneUnlisted, 'authorizationSettings.permissions'),
  });
  return Object.fromEntries(Object.entries({ ...scopes, ...roles, ...authorization }).filter(([, value]) => value !== undefined));
}
