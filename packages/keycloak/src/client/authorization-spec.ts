import * as t from 'io-ts';
import { atMost, oneOf, uniqueList, withFieldRule } from '@keyward/kernel/model';
import { MANAGED_BY } from '../ownership.js';
import { policyListFields } from './authorization-policy-spec.js';

// A client's authorization services (its resource server): the settings, scopes and resources. The CRD in
// authorization-crd.ts states the same rules, so the API server and this codec give the same verdict.

export const POLICY_ENFORCEMENT_MODES = ['ENFORCING', 'PERMISSIVE', 'DISABLED'] as const;
export const DECISION_STRATEGIES = ['UNANIMOUS', 'AFFIRMATIVE', 'CONSENSUS'] as const;

/** Keycloak 26 answers 500 ("Client does not have a service account") to authorization on any other client. */
export const AUTHORIZATION_CLIENT_MESSAGE = 'authorizationSettings need a confidential client with a service account: settings.serviceAccountsEnabled true, publicClient not true';
export const RESOURCE_SCOPE_MESSAGE = 'a resource names only scopes that authorizationSettings.scopes lists: Keycloak would silently create any other one, which no spec manages';
export const RESOURCE_MARKER_MESSAGE = `a resource's attributes must not state ${MANAGED_BY}: the operator writes it to mark the resources a spec made`;

/** Bounds that keep the CRD's CEL rule on resources' scopes within the API server's cost limit. */
export const MAX_AUTHORIZATION_SCOPES = 50;
export const MAX_AUTHORIZATION_RESOURCES = 50;
export const MAX_RESOURCE_SCOPES = 20;
/** Keycloak keeps scope and resource names in columns of 255 characters. */
export const AUTHORIZATION_NAME_MAX_LENGTH = 255;


const nameValid = (u: unknown): u is string => typeof u === 'string' && u.length >= 1 && u.length <= AUTHORIZATION_NAME_MAX_LENGTH;
const name = new t.Type<string>(`a string of 1 to ${String(AUTHORIZATION_NAME_MAX_LENGTH)} characters`, nameValid, (u, c) => (nameValid(u) ? t.success(u) : t.failure(u, c)), t.identity);

const resourceAttributes = new t.Type<Record<string, string>>(
  'a map of strings',
  (u): u is Record<string, string> => t.record(t.string, t.string).is(u) && !(MANAGED_BY in u),
  (u, c) => {
    const decoded = t.record(t.string, t.string).validate(u, c);
    if (decoded._tag === 'Left') return decoded;
    return MANAGED_BY in decoded.right ? t.failure(u, c, RESOURCE_MARKER_MESSAGE) : decoded;
  },
  t.identity,
);

export const AuthorizationScopeCodec = t.intersection([t.type({ name }), t.partial({ displayName: t.string, iconUri: t.string })]);

export const AuthorizationResourceCodec = t.intersection([
  t.type({ name }),
  t.partial({
    displayName: t.string,
    type: t.string,
    uris: uniqueList(t.array(t.string)),
    scopes: uniqueList(atMost(t.array(name), MAX_RESOURCE_SCOPES)),
    attributes: resourceAttributes,
    ownerManagedAccess: t.boolean,
  }),
]);

const SettingsFields = t.partial({
  policyEnforcementMode: oneOf(POLICY_ENFORCEMENT_MODES),
  decisionStrategy: oneOf(DECISION_STRATEGIES),
  allowRemoteResourceManagement: t.boolean,
  scopes: uniqueList(atMost(t.array(AuthorizationScopeCodec), MAX_AUTHORIZATION_SCOPES), (scope) => scope.name),
  resources: uniqueList(atMost(t.array(AuthorizationResourceCodec), MAX_AUTHORIZATION_RESOURCES), (resource) => resource.name),
  ...policyListFields,
});

type SettingsShape = t.TypeOf<typeof SettingsFields>;

/** The index of the first resource naming a scope the settings do not list. */
export function resourceWithUnlistedScope(settings: SettingsShape): number | undefined {
  const scopes = new Set((settings.scopes ?? []).map((scope) => scope.name));
  const index = (settings.resources ?? []).findIndex((resource) => (resource.scopes ?? []).some((name) => !scopes.has(name)));
  return index < 0 ? undefined : index;
}

export const AuthorizationSettingsCodec = withFieldRule('AuthorizationSettings', SettingsFields, (settings) => {
  const index = resourceWithUnlistedScope(settings);
  // Named at the list, as the CRD's rule on it is.
  return index === undefined ? undefined : { field: 'resources', message: `resources[${String(index)}]: ${RESOURCE_SCOPE_MESSAGE}` };
});

export type AuthorizationSettingsSpec = t.TypeOf<typeof AuthorizationSettingsCodec>;
export type AuthorizationScopeSpec = t.TypeOf<typeof AuthorizationScopeCodec>;
export type AuthorizationResourceSpec = t.TypeOf<typeof AuthorizationResourceCodec>;

/** Whether a client spec can have authorization services, as Keycloak allows them. */
export function authorizationAllowed(spec: { readonly publicClient?: boolean; readonly settings?: { readonly serviceAccountsEnabled?: boolean } }): boolean {
  return spec.publicClient !== true && spec.settings?.serviceAccountsEnabled === true;
}
