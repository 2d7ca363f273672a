import type { RealmEndpoints } from '../endpoints.js';
import { PROTOCOLS, protocolMapperCodec, protocolMapperSchema } from '../protocol-mappers.js';
import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { type Condition } from '@keyward/kernel';
import { type StoredMeta } from '@keyward/kernel/plan';
import { AuthenticationFlows, FlowBindings } from './flows/spec.js';
import { RequiredActions } from './required-actions/spec.js';
import { DefaultGroups, Groups } from './groups/spec.js';
import { DefaultRoles } from './default-roles-spec.js';
import { checkingDefaultRoleName, DEFAULT_ROLE_NAME_RULE } from './default-role-upstream.js';
import type { RealmManaged } from './managed.js';
import { ScopeMappings } from './scope-mappings/spec.js';
import { IdentityProviders } from './identity-providers/spec.js';
import { pruneRuleDescription, pruneUnlistedCodec, pruneUnlistedSchema } from '../prune.js';
import { UserFederationList } from './user-federation/spec.js';
import { Organizations } from './organizations/spec.js';
import { acceptingUpstreamSpellings } from '../upstream-spellings.js';
import { REALM_UPSTREAM_SHAPES, REALM_UPSTREAM_SPELLINGS } from './upstream.js';
import { BUILT_IN_CLIENT_SCOPES, BUILT_IN_REALM_ROLES, BUILT_IN_ROLE_MESSAGE, BUILT_IN_SCOPE_MESSAGE, DEFAULT_ROLES_PREFIX, isBuiltInClientScope, isBuiltInRealmRole } from './built-ins.js';
import { declared, name, nameSet } from './field-kinds.js';
import { PasswordPolicy } from './password-policy.js';
import {
  BrowserSecurityHeaders, EventsConfig, Localization, OtpPolicy, Security, SmtpServer, Themes, TokenSettings, WebAuthnPasswordless, WebAuthnSecondFactor,
} from './settings.js';

// The KeycloakRealm spec, each field declared once for the codec and the CRD schema (crd.ts reads `.schema`);
// the realm's own settings are in settings.ts, and each sub-folder declares its part.

export type { SmtpServerSpec } from './settings.js';

/**
 * Keycloak 26.7.3 stores realm names of at most 237 characters, fewer than its name columns hold (the realm's
 * own role and client names carry it): 238 to 241 answer HTTP 500, longer ones a 400 naming no field.
 */
export const REALM_NAME_MAX_LENGTH = 237;
/** Bounds what the schema's rules on list items cost the API server to check. */
export const MAX_SUB_OBJECTS = 500;

/** A realm name is part of every admin and login URL: no slashes, dots or spaces that would change the path. */
export const REALM_NAME_PATTERN = '^[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?$';
/** A namespace name (DNS-1123 label), as the schema's pattern reads it too. */
export const NAMESPACE_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const NAMESPACE_MAX_LENGTH = 63;

/** The realm's lists of things Keyward makes, which `pruneUnlisted` may name. */
export const REALM_PRUNABLE_FIELDS = ['realmRoles', 'clientScopes', 'groups', 'authenticationFlows', 'requiredActions', 'identityProviders', 'clientProfiles', 'clientPolicies', 'userFederation', 'organizations'] as const;
export type RealmPrunableField = (typeof REALM_PRUNABLE_FIELDS)[number];

export const DELETION_POLICIES = ['Delete', 'Retain'] as const;

export const REALM_NAME_IMMUTABLE_MESSAGE = 'realmName cannot be changed; create another KeycloakRealm for another realm';

const celList = (names: readonly string[]): string => `[${names.map((n) => `'${n}'`).join(', ')}]`;

/** `base`, refusing the names `refused` picks out with `message` (the schema's rule says the same). */
function refusing(base: t.Type<string>, refused: (name: string) => boolean, message: string): t.Type<string> {
  return new t.Type<string>(
    base.name,
    (u): u is string => base.is(u) && !refused(u),
    (u, c) => {
      const decoded = base.validate(u, c);
      if (decoded._tag === 'Left' || !refused(decoded.right)) return decoded;
      return t.failure(u, c, message);
    },
    t.identity,
  );
}

const stringMap = f.stringMap();
const namespaceName = f.patterned(NAMESPACE_MAX_LENGTH, NAMESPACE_PATTERN, 'a namespace name');

const Composites = f.object({
  realm: nameSet.describe('Realm roles, by name.'),
  clients: f.record(nameSet).describe('Roles of clients, by clientId.'),
}).describe('The roles this role is composed of; when given, exactly these.');

const RealmRole = f.object({
  name: name
    .rule({ rule: `!(self in ${celList(BUILT_IN_REALM_ROLES)}) && !self.startsWith('${DEFAULT_ROLES_PREFIX}')`, message: BUILT_IN_ROLE_MESSAGE }, (codec) => refusing(codec, isBuiltInRealmRole, BUILT_IN_ROLE_MESSAGE))
    .describe(`The role's name; not one of Keycloak's built-in roles (${BUILT_IN_REALM_ROLES.join(', ')}, ${DEFAULT_ROLES_PREFIX}<realm>).`)
    .required(),
  description: f.string().describe('The role\'s description; left out, none.'),
  attributes: stringMap.describe('The role\'s attributes: exactly these (besides Keyward\'s marker).'),
  composites: Composites,
});

const ProtocolMapper = declared(protocolMapperCodec(name.codec), protocolMapperSchema(name.schema, 'the scope\'s protocol'));

const ClientScope = f.object({
  name: name
    .describe('The scope\'s name; not one of Keycloak\'s built-in scopes.')
    .rule({ rule: `!(self in ${celList(BUILT_IN_CLIENT_SCOPES)})`, message: BUILT_IN_SCOPE_MESSAGE }, (codec) => refusing(codec, isBuiltInClientScope, BUILT_IN_SCOPE_MESSAGE))
    .required(),
  description: f.string().describe('The scope\'s description; left out, as Keycloak has it.'),
  protocol: f.withDefaultValue(f.enumOf(PROTOCOLS), 'openid-connect').describe('openid-connect (the default) or saml.'),
  attributes: stringMap.describe('The scope\'s attributes (include.in.token.scope, display.on.consent.screen, ...), compared key by key; keys left out stay.'),
  protocolMappers: f.listMap('name', ProtocolMapper).describe(`Protocol mappers of the scope, by name. ${pruneRuleDescription('clientScopes')}`),
});

/** An executor's or condition's configuration: its provider defines the shape, and Keycloak checks it. */
const ProviderConfiguration = f.withDefaultValue(f.opaqueObject(), {})
  .describe('The provider\'s settings, in the shape it defines; stored as sent and compared as JSON.');

const ClientProfile = f.object({
  name: name.describe('The profile\'s name; not one of Keycloak\'s global profiles.').required(),
  description: f.string().describe('The profile\'s description.'),
  executors: f.withDefaultValue(f.list(f.object({
    executor: name.describe('The executor provider, e.g. pkce-enforcer.').required(),
    configuration: ProviderConfiguration,
  })), []).describe('The executors the profile runs, in order; none by default, as the Kopf operator had it.'),
});

const ClientPolicy = f.object({
  name: name.describe('The policy\'s name.').required(),
  description: f.string().describe('The policy\'s description.'),
  enabled: f.withDefaultValue(f.boolean(), true).describe('Whether the policy applies; default true (Keycloak stores a policy without it disabled).'),
  conditions: f.withDefaultValue(f.list(f.object({
    condition: name.describe('The condition provider, e.g. client-access-type.').required(),
    configuration: ProviderConfiguration,
  })), []).describe('The conditions that pick the clients the policy applies to; none by default, as the Kopf operator had it (a policy without conditions applies to no client).'),
  profiles: f.withDefaultValue(nameSet, []).describe('Client profiles (this realm\'s, or Keycloak\'s global ones) the policy applies; none by default, as the Kopf operator had it.'),
});

/** A list of `item`s told apart by their name, as many as the schema's rules can afford. */
const byName = <A extends { readonly name: string }, O>(item: f.Field<t.Type<A, O>, boolean>, description: string): f.Field<t.Type<A[], O[]>> =>
  f.listMap('name', item, { maxItems: MAX_SUB_OBJECTS }).describe(description);

const scopeLinks = (kind: string): string => `Client scopes every new client of the realm gets as ${kind} scopes, by name; while the list names some, a scope Keyward made that it no longer names is unlinked.`;

const RealmSpec = f.object({
  realmName: f.patterned(REALM_NAME_MAX_LENGTH, REALM_NAME_PATTERN, 'letters, digits, - and _, starting and ending with a letter or digit')
    .describe('The realm\'s name in Keycloak; cannot be changed.')
    // A rule on the change itself: the codec reads one spec and has no old one to compare.
    .schemaOnly({ 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: REALM_NAME_IMMUTABLE_MESSAGE }] })
    .required(),
  displayName: f.string().describe('The realm\'s name as Keycloak\'s pages show it (displayName).'),
  description: f.string().describe('Kept in the realm attribute "description" (Keycloak realms have no description field).'),
  loginPageTitle: f.string().describe('The HTML title of the login pages (Keycloak\'s displayNameHtml).'),
  operatorRef: f.object({
    namespace: namespaceName.describe('The namespace the operator runs in (its --keycloak-operator-namespace).').required(),
  }).describe('The operator that manages this realm, by its namespace; others leave it alone.'),
  clientAuthorizationGrants: f.set(namespaceName).describe('Namespaces whose KeycloakClients may use this realm.'),
  security: Security,
  tokenSettings: TokenSettings,
  themes: Themes,
  localization: Localization,
  smtpServer: SmtpServer,
  eventsConfig: EventsConfig,
  otpPolicy: OtpPolicy,
  webAuthnPolicy: WebAuthnSecondFactor,
  webAuthnPasswordlessPolicy: WebAuthnPasswordless,
  browserSecurityHeaders: BrowserSecurityHeaders,
  passwordPolicy: PasswordPolicy,
  attributes: stringMap.describe('Realm attributes, compared key by key; keys left out stay (description and Keyward\'s ownership keys win over the same keys here).'),
  realmRoles: byName(RealmRole, `Realm roles, by name; each listed one is managed whole. ${pruneRuleDescription('realmRoles')}`),
  clientScopes: byName(ClientScope, `Client scopes, by name. ${pruneRuleDescription('clientScopes')}`),
  defaultClientScopes: nameSet.describe(scopeLinks('default')),
  optionalClientScopes: nameSet.describe(scopeLinks('optional')),
  clientProfiles: byName(ClientProfile, `Client profiles this realm defines, by name. ${pruneRuleDescription('clientProfiles')}`),
  clientPolicies: byName(ClientPolicy, `Client policies this realm defines, by name. ${pruneRuleDescription('clientPolicies')}`),
  authenticationFlows: AuthenticationFlows,
  flowBindings: FlowBindings,
  requiredActions: RequiredActions,
  groups: Groups,
  defaultGroups: DefaultGroups.describe('Groups every new user joins, by path (/parent/child).'),
  defaultRoles: DefaultRoles,
  scopeMappings: ScopeMappings,
  deletionPolicy: f.withDefaultValue(f.enumOf(DELETION_POLICIES), 'Delete')
    .describe('Delete (the default) deletes the realm in Keycloak, with everything in it, with this object, when Keyward owns it; Retain leaves it there.'),
  identityProviders: IdentityProviders,
  organizationsEnabled: f.boolean().describe('Whether the realm has organizations (Keycloak 26).'),
  pruneUnlisted: declared(pruneUnlistedCodec(REALM_PRUNABLE_FIELDS), pruneUnlistedSchema(REALM_PRUNABLE_FIELDS, 'roles, scopes, groups (with subgroups), flows, required actions, identity providers (with mappers), client profiles or policies, user federation providers, organizations')),
  userFederation: UserFederationList,
  organizations: Organizations,
}).describe('The realm\'s settings and what Keyward makes in it; a setting left out is left as Keycloak has it.')
  // The codec's half reads the spec before the spellings table drops defaultRole.name (RealmSpecCodec below).
  .rule(DEFAULT_ROLE_NAME_RULE, (codec) => codec);

/** The spec's schema, without the Kopf operator's spellings (crd.ts adds them). */
export const realmSpecSchema = RealmSpec.schema;

/** The spec, read in the Kopf operator's spellings too (upstream.ts). */
export const RealmSpecCodec = checkingDefaultRoleName(acceptingUpstreamSpellings(RealmSpec.codec, REALM_UPSTREAM_SPELLINGS, REALM_UPSTREAM_SHAPES));

export type KeycloakRealmSpec = t.TypeOf<typeof RealmSpecCodec>;
export type RealmRoleSpec = t.TypeOf<typeof RealmRole.codec>;
export type ClientScopeSpec = t.TypeOf<typeof ClientScope.codec>;
export type ProtocolMapperSpec = t.TypeOf<typeof ProtocolMapper.codec>;
export type ClientProfileSpec = t.TypeOf<typeof ClientProfile.codec>;
export type ClientPolicySpec = t.TypeOf<typeof ClientPolicy.codec>;
/** A user federation provider the spec lists, as status records it. */
// A type, not an interface: it is plain JSON data and goes into plan templates as is.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type FederationProviderStatus = {
  readonly name: string;
  readonly providerId: string;
  /** Keycloak's id of the component; absent until it has been read. */
  readonly id?: string;
  /** LDAP: whether Keycloak's connection test bound to the directory with the stored credential. */
  readonly connectionTestPassed?: boolean;
  /** Why the connection test failed, as Keycloak says it (AuthenticationFailure, ...). */
  readonly connectionTestError?: string;
};

/** Status as the controller writes it; every field optional, so any stored status reads. */
// A type, not an interface: it is plain JSON data and goes into plan templates as is.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type KeycloakRealmStatus = {
  readonly conditions?: readonly Condition[];
  readonly observedGeneration?: number;
  /** Keycloak's id of the realm. */
  readonly realmId?: string;
  readonly endpoints?: RealmEndpoints;
  /** The resourceVersion of the SMTP password Secret whose password Keycloak was last sent. */
  readonly smtpPasswordVersion?: string;
  /** What the Ready condition says, for tools that read a status message. */
  readonly message?: string;
  /** Required actions this object registered (Keycloak had them unregistered), by alias. */
  readonly registeredRequiredActions?: readonly string[];
  /** What the realm applied where Keycloak keeps no marker of ours: only that is ever removed. */
  readonly managed?: RealmManaged;
  /** Aliases of the identity providers the spec lists: while any, they are read (and pruned once unlisted). */
  /** The resourceVersion of each Secret whose identity provider config values Keycloak was last sent, by name. */
  readonly identityProviderSecretVersions?: Readonly<Record<string, string>>;
  /** One entry per user federation provider the spec lists. */
  readonly userFederation?: readonly FederationProviderStatus[];
  /** The resourceVersion of each Secret whose bind credential Keycloak was last sent, by name. */
  readonly userFederationSecretVersions?: Readonly<Record<string, string>>;
  /** The generation whose spec Keycloak refused (HTTP 400): it is not sent again until the spec changes. */
  readonly refusedGeneration?: number;
};

export interface KeycloakRealm {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: StoredMeta;
  readonly spec: KeycloakRealmSpec;
  readonly status: KeycloakRealmStatus;
  readonly [field: string]: unknown;
}
