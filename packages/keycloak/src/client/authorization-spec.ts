import * as t from 'io-ts';
import { fields as f, withFieldRule } from '@keyward/kernel/model';
import { MANAGED_BY } from '../ownership.js';
import { pruneRuleDescription } from '../prune.js';
import { AuthorizationPermissions, AuthorizationPolicies } from './authorization-policy-spec.js';

// A client's authorization services (its resource server): the settings, scopes and resources, each field
// declared once for the codec and the CRD schema, so the API server and the codec give the same verdict.

export const POLICY_ENFORCEMENT_MODES = ['ENFORCING', 'PERMISSIVE', 'DISABLED'] as const;
export const DECISION_STRATEGIES = ['UNANIMOUS', 'AFFIRMATIVE', 'CONSENSUS'] as const;

/** Keycloak 26 answers 500 ("Client does not have a service account") to authorization on any other client. */
export const AUTHORIZATION_CLIENT_MESSAGE = 'authorizationSettings need a confidential client with a service account: settings.serviceAccountsEnabled true, publicClient not true';
export const RESOURCE_SCOPE_MESSAGE = 'a resource names only scopes that authorizationSettings.scopes lists: Keycloak would silently create any other one, which no spec manages';
export const RESOURCE_MARKER_MESSAGE = `a resource's attributes must not state ${MANAGED_BY}: the operator writes it to mark the resources a spec made`;

/** Bounds that keep the CRD's CEL rule on resources' scopes within the API server's cost limit. */
const MAX_AUTHORIZATION_SCOPES = 50;
const MAX_AUTHORIZATION_RESOURCES = 50;
const MAX_RESOURCE_SCOPES = 20;
/** Keycloak keeps scope and resource names in columns of 255 characters. */
const AUTHORIZATION_NAME_MAX_LENGTH = 255;

const name = f.text(AUTHORIZATION_NAME_MAX_LENGTH);
const text = f.string();

/**
 * An attribute's values: Keycloak keeps a list of strings (the Kopf operator's CRD too), and a string is a list
 * of one. Two shapes, so untyped in the CRD and checked here.
 */
const isValues = (u: unknown): u is string | string[] => typeof u === 'string' || (Array.isArray(u) && u.every((value) => typeof value === 'string'));
const attributeValues = f.untyped(new t.Type<string | string[]>('a string or a list of strings', isValues, (u, c) => (isValues(u) ? t.success(u) : t.failure(u, c)), t.identity));

const AuthorizationScope = f.object({
  name: name.describe('The scope\'s name, e.g. view.').required(),
  displayName: text.describe('The name shown for the scope.'),
  iconUri: text.describe('The URI of the scope\'s icon.'),
});

const AuthorizationResource = f.object({
  name: name.describe('The resource\'s name.').required(),
  displayName: text.describe('The name shown for the resource.'),
  type: text.describe('The resource\'s type, e.g. urn:my-app:resources:document; a permission may cover every resource of a type.'),
  uris: f.set(text).describe('The URIs (paths) the resource stands for.'),
  scopes: f.set(name, { maxItems: MAX_RESOURCE_SCOPES }).describe('Scopes by name; each must be listed in authorizationSettings.scopes.'),
  attributes: f.recordWithout(attributeValues, [MANAGED_BY], RESOURCE_MARKER_MESSAGE, 'a map of strings or lists of strings')
    .describe('The resource\'s attributes, each a string or a list of strings (a string is a list of one), compared key by key in any order; keys left out stay.'),
  ownerManagedAccess: f.boolean().describe('Whether the resource\'s owner manages who may access it (user-managed access).'),
});

const SettingsFields = f.object({
  policyEnforcementMode: f.enumOf(POLICY_ENFORCEMENT_MODES)
    .describe('ENFORCING (a request no permission grants is denied), PERMISSIVE (a request no permission covers is granted) or DISABLED (every request is granted).'),
  decisionStrategy: f.enumOf(DECISION_STRATEGIES)
    .describe('How the permissions over a resource combine: UNANIMOUS (all must grant), AFFIRMATIVE (one suffices) or CONSENSUS (more grant than deny).'),
  allowRemoteResourceManagement: f.boolean().describe('Whether the resource server may manage its resources through Keycloak\'s protection API.'),
  scopes: f.listMap('name', AuthorizationScope, { maxItems: MAX_AUTHORIZATION_SCOPES })
    .describe(`Authorization scopes, by name; a scope a resource still uses is kept. ${pruneRuleDescription('authorizationSettings.scopes')}`),
  resources: f.listMap('name', AuthorizationResource, { maxItems: MAX_AUTHORIZATION_RESOURCES }).describe(`Resources, by name. ${pruneRuleDescription('authorizationSettings.resources')}`),
  policies: AuthorizationPolicies,
  permissions: AuthorizationPermissions,
});

type SettingsShape = t.TypeOf<typeof SettingsFields.codec>;

/** The index of the first resource naming a scope the settings do not list. */
export function resourceWithUnlistedScope(settings: SettingsShape): number | undefined {
  const scopes = new Set((settings.scopes ?? []).map((scope) => scope.name));
  const index = (settings.resources ?? []).findIndex((resource) => (resource.scopes ?? []).some((scopeName) => !scopes.has(scopeName)));
  return index < 0 ? undefined : index;
}

export const AuthorizationSettings = SettingsFields
  .describe(
    'The client\'s authorization services (needs a confidential client with settings.serviceAccountsEnabled): their settings, and the scopes, resources, policies and permissions listed, by name. ' +
    'A spec that stops stating them leaves them on.',
  )
  .rule(
    {
      rule: '!has(self.resources) || self.resources.all(r, !has(r.scopes) || r.scopes.all(s, has(self.scopes) && self.scopes.exists(x, x.name == s)))',
      message: RESOURCE_SCOPE_MESSAGE,
      fieldPath: '.resources',
    },
    (codec) => withFieldRule('AuthorizationSettings', codec, (settings) => {
      const index = resourceWithUnlistedScope(settings);
      // Named at the list, as the CRD's rule on it is.
      return index === undefined ? undefined : { field: 'resources', message: `resources[${String(index)}]: ${RESOURCE_SCOPE_MESSAGE}` };
    }),
  );

export type AuthorizationSettingsSpec = t.TypeOf<typeof AuthorizationSettings.codec>;
export type AuthorizationScopeSpec = t.TypeOf<typeof AuthorizationScope.codec>;
export type AuthorizationResourceSpec = t.TypeOf<typeof AuthorizationResource.codec>;

/** Whether a client spec can have authorization services, as Keycloak allows them. */
export function authorizationAllowed(spec: { readonly publicClient?: boolean; readonly settings?: { readonly serviceAccountsEnabled?: boolean } }): boolean {
  return spec.publicClient !== true && spec.settings?.serviceAccountsEnabled === true;
}
