import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, printedTable, type PrintedTable } from '@keyward/test-env';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { KeywardError } from '@keyward/kernel/interpreter';
import { keycloakRealmType } from '../../src/types.js';
import { REALM_NAME_IMMUTABLE_MESSAGE } from '../../src/realm/crd.js';
import { decodeRealm } from '../../src/realm/decode.js';
import { REALM_PRUNABLE_FIELDS } from '../../src/realm/spec.js';
import { baseSpec } from './fixtures.js';

let client: KubeClient;
let namespace: string;

beforeAll(async () => {
  client = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('kcr-crd');
});

afterAll(() => {
  client.close();
});

const body = (name: string, spec: Record<string, unknown> | undefined) => ({
  apiVersion: 'vriesdemichael.github.io/v1',
  kind: 'KeycloakRealm',
  metadata: { name, namespace },
  ...(spec === undefined ? {} : { spec }),
});

const scope = { name: 'shop-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'shop' } }] };

/** [description, spec, path the rejection must name as "<path>:" on both sides (undefined: valid)]. */
const cases: [string, Record<string, unknown> | undefined, string | undefined][] = [
  ['a minimal spec', baseSpec, undefined],
  ['the Kopf operator\'s spellings', { ...baseSpec, roles: { realmRoles: [{ name: 'viewer' }] }, security: { maxFailureWait: 60 }, browserFlow: 'browser', browserSecurityHeaders: { xXSSProtection: '0' }, instanceRef: { name: 'keycloak' }, smtpServer: { host: 'h', from: 'f', passwordSecret: { name: 'smtp' } } }, undefined],
  ['both spellings of a field, agreeing', { ...baseSpec, security: { maxFailureWait: 60, maxFailureWaitSeconds: 60 }, browserFlow: 'browser', flowBindings: { browserFlow: 'browser' } }, undefined],
  ['both spellings of a field, differing', { ...baseSpec, security: { maxFailureWait: 60, maxFailureWaitSeconds: 120 } }, 'spec.security.maxFailureWait'],
  ['both spellings of a flow binding, differing', { ...baseSpec, browserFlow: 'browser', flowBindings: { browserFlow: 'mine' } }, 'spec.browserFlow'],
  // Lists in both spellings are refused even when equal: CEL cannot compare two lists of distinct schemas.
  ['both spellings of the realm roles', { ...baseSpec, roles: { realmRoles: [{ name: 'viewer' }] }, realmRoles: [{ name: 'viewer' }] }, 'spec.roles.realmRoles'],
  ['the Kopf operator\'s composite roles', { ...baseSpec, roles: { realmRoles: [{ name: 'viewer' }, { name: 'editor', composite: true, compositeRoles: ['viewer'] }] } }, undefined],
  ['both spellings of a role\'s realm composites', { ...baseSpec, realmRoles: [{ name: 'viewer' }, { name: 'editor', compositeRoles: ['viewer'], composites: { realm: ['viewer'] } }] }, 'spec.realmRoles[1].compositeRoles'],
  ['the Kopf operator\'s typed password policy', { ...baseSpec, passwordPolicy: { length: 12, upperCase: 1, notUsername: true, regexPattern: '^[a-z]' } }, undefined],
  ['the Kopf operator\'s flows and scope mappings', {
    ...baseSpec,
    authenticationFlows: [
      { alias: 'mine', topLevel: true, builtIn: false, authenticationExecutions: [{ authenticator: 'auth-cookie', requirement: 'ALTERNATIVE', priority: 10, userSetupAllowed: false }, { flowAlias: 'mine forms', authenticatorFlow: true, requirement: 'ALTERNATIVE', priority: 20 }] },
      { alias: 'mine forms', topLevel: false, authenticationExecutions: [{ authenticator: 'auth-otp-form', requirement: 'REQUIRED', authenticatorConfig: 'otp' }], authenticatorConfig: [{ alias: 'otp', config: { a: 'b' } }] },
    ],
    scopeMappings: [{ clientScope: 'reports', roles: ['reader'] }],
    clientScopeMappings: { account: [{ clientScope: 'reports', roles: ['view-profile'] }, { client: 'web', roles: ['view-profile'] }] },
  }, undefined],
  ['a built-in flow', { ...baseSpec, authenticationFlows: [{ alias: 'mine', builtIn: true }] }, 'spec.authenticationFlows[0].builtIn'],
  ['both spellings of a flow\'s steps', { ...baseSpec, authenticationFlows: [{ alias: 'mine', executions: [], authenticationExecutions: [] }] }, 'spec.authenticationFlows[0].authenticationExecutions'],
  ['both spellings of a scope mapping\'s realm roles', { ...baseSpec, scopeMappings: [{ client: 'web', roles: ['a'], realmRoles: ['a'] }] }, 'spec.scopeMappings[0].roles'],
  ['an SMTP password in the spec', { ...baseSpec, smtpServer: { host: 'h', from: 'f', auth: true, user: 'u', password: 'in-the-spec' } }, 'spec.smtpServer.password'],
  [
    'a full spec',
    {
      ...baseSpec,
      description: 'the shop',
      loginPageTitle: '<b>Shop</b>',
      operatorRef: { namespace: 'keyward-system' },
      clientAuthorizationGrants: ['team-a', 'team-b'],
      security: { registrationAllowed: true, sslRequired: 'all', bruteForceProtected: true, failureFactor: 5, refreshTokenMaxReuse: 0 },
      tokenSettings: { accessTokenLifespan: 600, offlineSessionMaxLifespanEnabled: true, offlineSessionMaxLifespan: 0 },
      themes: { login: 'keycloak' },
      localization: { enabled: true, defaultLocale: 'en', supportedLocales: ['en', 'nl'] },
      smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', port: 587, auth: true, starttls: true, user: 'mailer', passwordSecret: { name: 'smtp', key: 'password' } },
      eventsConfig: { eventsEnabled: true, eventsListeners: ['jboss-logging'], eventsExpiration: 3600 },
      otpPolicy: { type: 'hotp', algorithm: 'HmacSHA512', digits: 8, lookAheadWindow: 0, period: 30, initialCounter: 0, codeReusable: true },
      webAuthnPolicy: { rpEntityName: 'shop', signatureAlgorithms: ['ES256', 'RS256'], rpId: '', attestationConveyancePreference: 'not specified', authenticatorAttachment: 'cross-platform', requireResidentKey: 'No', userVerificationRequirement: 'preferred', createTimeout: 0, avoidSameAuthenticatorRegister: true, acceptableAaguids: ['cb69481e-8ff7-4039-93ec-0a2729a154a8'], extraOrigins: ['https://shop.example.com'] },
      webAuthnPasswordlessPolicy: { rpEntityName: 'shop', requireResidentKey: 'Yes', userVerificationRequirement: 'required' },
      browserSecurityHeaders: { xFrameOptions: 'DENY', contentSecurityPolicyReportOnly: '', strictTransportSecurity: 'max-age=31536000' },
      passwordPolicy: 'length(12)',
      attributes: { tier: 'gold' },
      realmRoles: [{ name: 'admin', composites: { realm: ['viewer'], clients: { 'realm-management': ['view-users'] } } }, { name: 'viewer', attributes: { level: '1' } }],
      clientScopes: [scope],
      defaultClientScopes: ['shop-api'],
      optionalClientScopes: ['phone'],
      clientProfiles: [{ name: 'pkce', description: 'PKCE', executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': true } }, { executor: 'full-scope-disabled' }] }],
      clientPolicies: [{ name: 'all', enabled: false, conditions: [{ condition: 'client-access-type', configuration: { type: ['confidential'] } }], profiles: ['pkce'] }],
      deletionPolicy: 'Retain',
      identityProviders: [{ alias: 'github', providerId: 'oidc', displayName: 'GitHub', enabled: true, trustEmail: true, hideOnLogin: false, firstBrokerLoginFlowAlias: 'first broker login', config: { clientId: 'shop', tokenUrl: 'https://gh.example.com/token' }, configSecrets: { clientSecret: { name: 'github-oidc', key: 'client-secret' } }, mappers: [{ name: 'dept', identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: { attribute: 'department', 'attribute.value': 'engineering' } }] }],
    },
    undefined,
  ],
  ['no spec', undefined, 'spec'],
  ['no realmName', { displayName: 'x' }, 'spec.realmName'],
  ['a realmName with a slash', { realmName: 'a/b' }, 'spec.realmName'],
  // Keycloak 26.7.3 stores realm names of at most 237 characters.
  ['the longest realmName Keycloak stores', { realmName: 'r'.repeat(237) }, undefined],
  ['a realmName longer than Keycloak stores', { realmName: 'r'.repeat(238) }, 'spec.realmName'],
  ['an unknown sslRequired', { ...baseSpec, security: { sslRequired: 'sometimes' } }, 'spec.security.sslRequired'],
  ['duplicate emails with login by email', { ...baseSpec, security: { duplicateEmailsAllowed: true, loginWithEmailAllowed: true } }, 'spec.security.duplicateEmailsAllowed'],
  ['duplicate emails without email logins', { ...baseSpec, security: { duplicateEmailsAllowed: true, loginWithEmailAllowed: false } }, undefined],
  ['a failureFactor of 0', { ...baseSpec, security: { failureFactor: 0 } }, 'spec.security.failureFactor'],
  ['a fractional lifespan', { ...baseSpec, tokenSettings: { accessTokenLifespan: 1.5 } }, 'spec.tokenSettings.accessTokenLifespan'],
  ['a lifespan beyond an int', { ...baseSpec, tokenSettings: { ssoSessionMaxLifespan: 2 ** 31 } }, 'spec.tokenSettings.ssoSessionMaxLifespan'],
  ['an unknown OTP type', { ...baseSpec, otpPolicy: { type: 'sms' } }, 'spec.otpPolicy.type'],
  ['7 OTP digits', { ...baseSpec, otpPolicy: { digits: 7 } }, 'spec.otpPolicy.digits'],
  ['an OTP period of 0', { ...baseSpec, otpPolicy: { period: 0 } }, 'spec.otpPolicy.period'],
  ['an unknown WebAuthn signature algorithm', { ...baseSpec, webAuthnPolicy: { signatureAlgorithms: ['ES256', 'XX1'] } }, 'spec.webAuthnPolicy.signatureAlgorithms[1]'],
  ['a WebAuthn algorithm listed twice', { ...baseSpec, webAuthnPolicy: { signatureAlgorithms: ['ES256', 'ES256'] } }, 'spec.webAuthnPolicy.signatureAlgorithms[1]'],
  ['a negative passwordless timeout', { ...baseSpec, webAuthnPasswordlessPolicy: { createTimeout: -5 } }, 'spec.webAuthnPasswordlessPolicy.createTimeout'],
  ['an unknown resident key choice', { ...baseSpec, webAuthnPasswordlessPolicy: { requireResidentKey: 'yes' } }, 'spec.webAuthnPasswordlessPolicy.requireResidentKey'],
  ['a header that is no string', { ...baseSpec, browserSecurityHeaders: { xFrameOptions: false } }, 'spec.browserSecurityHeaders.xFrameOptions'],
  ['a port beyond 65535', { ...baseSpec, smtpServer: { host: 'h', from: 'f', port: 70000 } }, 'spec.smtpServer.port'],
  ['an SMTP server without from', { ...baseSpec, smtpServer: { host: 'h' } }, 'spec.smtpServer.from'],
  ['a password Secret named with capitals', { ...baseSpec, smtpServer: { host: 'h', from: 'f', passwordSecret: { name: 'SMTP', key: 'p' } } }, 'spec.smtpServer.passwordSecret.name'],
  ['a grant that is no namespace', { ...baseSpec, clientAuthorizationGrants: ['Team_A'] }, 'spec.clientAuthorizationGrants[0]'],
  ['a grant listed twice', { ...baseSpec, clientAuthorizationGrants: ['a', 'a'] }, 'spec.clientAuthorizationGrants[1]'],
  ['a role listed twice', { ...baseSpec, realmRoles: [{ name: 'admin' }, { name: 'admin' }] }, 'spec.realmRoles[1]'],
  ['a built-in role', { ...baseSpec, realmRoles: [{ name: 'uma_authorization' }] }, 'spec.realmRoles[0].name'],
  ['the default role', { ...baseSpec, realmRoles: [{ name: 'default-roles-shop' }] }, 'spec.realmRoles[0].name'],
  ['a composite listed twice', { ...baseSpec, realmRoles: [{ name: 'admin', composites: { realm: ['a', 'a'] } }] }, 'spec.realmRoles[0].composites.realm[1]'],
  ['a built-in client scope', { ...baseSpec, clientScopes: [{ name: 'profile' }] }, 'spec.clientScopes[0].name'],
  ['an unknown scope protocol', { ...baseSpec, clientScopes: [{ name: 'api', protocol: 'cas' }] }, 'spec.clientScopes[0].protocol'],
  ['a mapper listed twice', { ...baseSpec, clientScopes: [{ name: 'api', protocolMappers: [scope.protocolMappers[0], scope.protocolMappers[0]] }] }, 'spec.clientScopes[0].protocolMappers[1]'],
  ['a default scope listed twice', { ...baseSpec, defaultClientScopes: ['x', 'x'] }, 'spec.defaultClientScopes[1]'],
  ['an unknown deletion policy', { ...baseSpec, deletionPolicy: 'Orphan' }, 'spec.deletionPolicy'],
  ['a client profile listed twice', { ...baseSpec, clientProfiles: [{ name: 'p', executors: [] }, { name: 'p', executors: [] }] }, 'spec.clientProfiles[1]'],
  ['an executor without its provider', { ...baseSpec, clientProfiles: [{ name: 'p', executors: [{ configuration: {} }] }] }, 'spec.clientProfiles[0].executors[0].executor'],
  ['an executor configuration that is no object', { ...baseSpec, clientProfiles: [{ name: 'p', executors: [{ executor: 'x', configuration: 'on' }] }] }, 'spec.clientProfiles[0].executors[0].configuration'],
  // Empty lists then, as the Kopf operator's CRD had them.
  ['a client profile without executors and a client policy without conditions or profiles', { ...baseSpec, clientProfiles: [{ name: 'p' }], clientPolicies: [{ name: 'q' }] }, undefined],
  ['a client policy whose profiles are no list', { ...baseSpec, clientPolicies: [{ name: 'q', profiles: 'pkce' }] }, 'spec.clientPolicies[0].profiles'],
  ['an attribute that is no string', { ...baseSpec, attributes: { tier: 1 } }, 'spec.attributes.tier'],
  ['flows with steps, sub-flows and a config', { ...baseSpec, authenticationFlows: [{ alias: 'login', description: 'mine', providerId: 'basic-flow', executions: [{ authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' }, { authenticator: 'identity-provider-redirector', config: { alias: 'idp', config: { defaultProvider: 'corp' } } }, { subFlow: { alias: 'login forms', executions: [{ subFlow: { alias: 'deeper', executions: [{ subFlow: { alias: 'deepest', executions: [{ authenticator: 'auth-otp-form' }] } }] } }] }, requirement: 'CONDITIONAL' }] }, { alias: 'copy', copyFrom: 'browser' }] }, undefined],
  ['a built-in flow alias', { ...baseSpec, authenticationFlows: [{ alias: 'browser' }] }, 'spec.authenticationFlows[0].alias'],
  ['a flow listed twice', { ...baseSpec, authenticationFlows: [{ alias: 'a' }, { alias: 'a' }] }, 'spec.authenticationFlows[1]'],
  ['an unknown requirement', { ...baseSpec, authenticationFlows: [{ alias: 'a', executions: [{ authenticator: 'x', requirement: 'SOMETIMES' }] }] }, 'spec.authenticationFlows[0].executions[0].requirement'],
  ['flow bindings', { ...baseSpec, flowBindings: { browserFlow: 'login', registrationFlow: 'registration', directGrantFlow: 'direct grant', resetCredentialsFlow: 'reset credentials', clientAuthenticationFlow: 'clients', dockerAuthenticationFlow: 'docker auth', firstBrokerLoginFlow: 'first broker login' } }, undefined],
  ['an empty binding', { ...baseSpec, flowBindings: { browserFlow: '' } }, 'spec.flowBindings.browserFlow'],
  ['required actions', { ...baseSpec, requiredActions: [{ alias: 'CONFIGURE_TOTP', name: 'OTP', enabled: true, defaultAction: true, priority: 5, config: { max_auth_age: '300' } }], pruneUnlisted: ['requiredActions'] }, undefined],
  ['every prunable field', { ...baseSpec, pruneUnlisted: [...REALM_PRUNABLE_FIELDS] }, undefined],
  ['an unknown prunable field', { ...baseSpec, pruneUnlisted: ['users'] }, 'spec.pruneUnlisted[0]'],
  ['a prunable field named twice', { ...baseSpec, pruneUnlisted: ['groups', 'groups'] }, 'spec.pruneUnlisted[1]'],
  ['a required action listed twice', { ...baseSpec, requiredActions: [{ alias: 'a' }, { alias: 'a' }] }, 'spec.requiredActions[1]'],
  ['a negative required action priority', { ...baseSpec, requiredActions: [{ alias: 'a', priority: -1 }] }, 'spec.requiredActions[0].priority'],
  ['an unknown flow provider', { ...baseSpec, authenticationFlows: [{ alias: 'a', providerId: 'form-flow' }] }, 'spec.authenticationFlows[0].providerId'],
  [
    'groups, defaults and scope mappings',
    {
      ...baseSpec,
      groups: [{ name: 'staff', attributes: { dept: 'ops' }, realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] }, subGroups: [{ name: 'leads', subGroups: [{ name: 'a', subGroups: [{ name: 'b', subGroups: [{ name: 'c' }] }] }] }] }],
      pruneUnlisted: ['groups'],
      defaultGroups: ['/staff/leads'],
      defaultRoles: { realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] } },
      scopeMappings: [{ clientScope: 'shop-api', realmRoles: ['viewer'] }, { client: 'shop', clientRoles: { shop: ['buyer'] } }],
    },
    undefined,
  ],
  ['a group name with a slash', { ...baseSpec, groups: [{ name: 'a/b' }] }, 'spec.groups[0].name'],
  ['a subgroup listed twice', { ...baseSpec, groups: [{ name: 'a', subGroups: [{ name: 'b' }, { name: 'b' }] }] }, 'spec.groups[0].subGroups[1]'],
  ['a group role listed twice', { ...baseSpec, groups: [{ name: 'a', realmRoles: ['x', 'x'] }] }, 'spec.groups[0].realmRoles[1]'],
  ['a default group that is no path', { ...baseSpec, defaultGroups: ['staff'] }, 'spec.defaultGroups[0]'],
  ['a scope mapping with both targets', { ...baseSpec, scopeMappings: [{ clientScope: 'api', client: 'shop' }] }, 'spec.scopeMappings[0]'],
  ['a scope mapping without a target', { ...baseSpec, scopeMappings: [{ realmRoles: ['viewer'] }] }, 'spec.scopeMappings[0]'],
  ['a scope mapping of a built-in scope', { ...baseSpec, scopeMappings: [{ clientScope: 'offline_access' }] }, 'spec.scopeMappings[0].clientScope'],
  ['an identity provider without providerId', { ...baseSpec, identityProviders: [{ alias: 'gh' }] }, 'spec.identityProviders[0].providerId'],
  ['an alias with a slash', { ...baseSpec, identityProviders: [{ alias: 'a/b', providerId: 'oidc' }] }, 'spec.identityProviders[0].alias'],
  ['an alias listed twice', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc' }, { alias: 'gh', providerId: 'saml' }] }, 'spec.identityProviders[1]'],
  ['a config Secret without key', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc', configSecrets: { clientSecret: { name: 's' } } }] }, 'spec.identityProviders[0].configSecrets.clientSecret.key'],
  ['an identity provider mapper without its type', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc', mappers: [{ name: 'm' }] }] }, 'spec.identityProviders[0].mappers[0].identityProviderMapper'],
  ['an identity provider switch that is no boolean', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc', trustEmail: 'yes' }] }, 'spec.identityProviders[0].trustEmail'],
  [
    'user federation',
    {
      ...baseSpec,
      userFederation: [
        { name: 'corp', providerId: 'ldap', enabled: true, priority: 0, editMode: 'READ_ONLY', connection: { url: 'ldaps://ldap', bindDn: 'cn=a', bindCredentialSecret: { name: 'ldap', key: 'pw' }, usersDn: 'ou=p' }, attributes: { username: 'uid', rdn: 'uid', uuid: 'entryUUID', userObjectClasses: ['inetOrgPerson'] }, sync: { importEnabled: true, fullSyncPeriod: -1, changedSyncPeriod: 600, batchSize: 100 }, config: { vendor: 'other', customUserSearchFilter: '(a=b)' }, mappers: [{ name: 'phone', mapperType: 'user-attribute-ldap-mapper', config: { 'ldap.attribute': 'mobile' } }] },
        { name: 'krb', providerId: 'kerberos', kerberos: { realm: 'X.ORG', serverPrincipal: 'HTTP/x@X.ORG', keyTab: '/k' } },
      ],
    },
    undefined,
  ],
  ['an unknown federation provider', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ad' }] }, 'spec.userFederation[0].providerId'],
  ['an unknown edit mode', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', editMode: 'RW' }] }, 'spec.userFederation[0].editMode'],
  ['a federation provider listed twice', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap' }, { name: 'a', providerId: 'kerberos' }] }, 'spec.userFederation[1]'],
  ['a sync period below -1', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', sync: { fullSyncPeriod: -2 } }] }, 'spec.userFederation[0].sync.fullSyncPeriod'],
  ['a bind Secret without key', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', connection: { bindCredentialSecret: { name: 's' } } }] }, 'spec.userFederation[0].connection.bindCredentialSecret.key'],
  ['a federation mapper without its type', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', mappers: [{ name: 'm' }] }] }, 'spec.userFederation[0].mappers[0].mapperType'],
  ['a federation config value that is a number', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', config: { pagination: 1 } }] }, 'spec.userFederation[0].config.pagination'],
  ['a federation provider in the Kopf operator\'s flat shape', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', connectionUrl: 'ldap://a', bindCredentialSecret: { name: 's', key: 'k' }, searchScope: 1, syncSettings: { changedUsersSyncPeriod: 60 }, keytabSecret: { name: 't', key: 'k' } }] }, undefined],
  ['both spellings of a provider\'s URL, differing', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', connectionUrl: 'ldap://a', connection: { url: 'ldap://b' } }] }, 'spec.userFederation[0].connectionUrl'],
  ['both spellings of a provider\'s sync period, differing', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', syncSettings: { changedUsersSyncPeriod: 60 }, sync: { changedSyncPeriod: 120 } }] }, 'spec.userFederation[0].syncSettings.changedUsersSyncPeriod'],
  ['both spellings of a bind Secret', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'ldap', bindCredentialSecret: { name: 's', key: 'k' }, connection: { bindCredentialSecret: { name: 's', key: 'k' } } }] }, 'spec.userFederation[0].bindCredentialSecret'],
  ['a keytab path and a keytab Secret', { ...baseSpec, userFederation: [{ name: 'a', providerId: 'kerberos', kerberos: { keyTab: '/k', keyTabSecret: { name: 's', key: 'k' } } }] }, 'spec.userFederation[0].kerberos'],
  [
    'organizations',
    { ...baseSpec, organizationsEnabled: true, organizations: [{ name: 'Acme Inc', alias: 'acme', description: 'd', enabled: false, redirectUrl: 'https://acme.example.com', domains: [{ name: 'acme.example.com', verified: true }], attributes: { tier: ['gold'] }, identityProviders: [{ alias: 'github' }] }, { name: 'beta' }] },
    undefined,
  ],
  ['an organization whose name cannot be its alias', { ...baseSpec, organizations: [{ name: 'Acme Inc' }] }, 'spec.organizations[0].name'],
  ['an organization alias with a slash', { ...baseSpec, organizations: [{ name: 'Acme', alias: 'a/b' }] }, 'spec.organizations[0].alias'],
  ['an organization domain that is no domain', { ...baseSpec, organizations: [{ name: 'acme', domains: [{ name: 'not a domain' }] }] }, 'spec.organizations[0].domains[0].name'],
  ['an organization link without alias', { ...baseSpec, organizations: [{ name: 'acme', identityProviders: [{}] }] }, 'spec.organizations[0].identityProviders[0].alias'],
  ['an organization linking a provider twice', { ...baseSpec, organizations: [{ name: 'acme', identityProviders: [{ alias: 'gh' }, { alias: 'gh' }] }] }, 'spec.organizations[0].identityProviders[1]'],
  ['an organization domain listed twice', { ...baseSpec, organizations: [{ name: 'acme', domains: [{ name: 'a.example.com' }, { name: 'a.example.com' }] }] }, 'spec.organizations[0].domains[1]'],
  [
    'the Kopf operator\'s fields that restate the nesting and the realm',
    {
      ...baseSpec,
      groups: [{ name: 'staff', path: '/staff', subGroups: [{ name: 'leads', path: '/staff/leads' }] }],
      requiredActions: [{ alias: 'CONFIGURE_TOTP', providerId: 'CONFIGURE_TOTP' }],
      defaultRole: { name: `default-roles-${baseSpec.realmName.toLowerCase()}`, description: 'Every user', composite: true, composites: { client: { shop: ['buyer'] } } },
      identityProviders: [{ alias: 'gh', providerId: 'github', authenticateByDefault: true }],
    },
    undefined,
  ],
  ['default roles as a list of realm role names', { ...baseSpec, defaultRoles: ['viewer', 'member'] }, undefined],
  [
    'the default role as Keycloak exports it, every field of a role\'s representation',
    { ...baseSpec, defaultRole: { id: 'f1e2', name: `default-roles-${baseSpec.realmName.toLowerCase()}`, clientRole: false, containerId: 'a1b2', attributes: { origin: ['export'] }, composites: { realm: ['viewer'] } } },
    undefined,
  ],
  ['a required action of another provider', { ...baseSpec, requiredActions: [{ alias: 'CONFIGURE_TOTP', providerId: 'VERIFY_EMAIL' }] }, 'spec.requiredActions[0].providerId'],
  ['a group path elsewhere', { ...baseSpec, groups: [{ name: 'staff', path: '/team' }] }, 'spec.groups[0].path'],
  ['a subgroup path of another depth', { ...baseSpec, groups: [{ name: 'staff', subGroups: [{ name: 'leads', path: '/leads' }] }] }, 'spec.groups[0].subGroups[0].path'],
  ['another realm\'s default role', { ...baseSpec, defaultRole: { name: 'default-roles-other' } }, 'spec.defaultRole.name'],
];

describe('the KeycloakRealm CRD and the codec agree', () => {
  it.each(cases)('on %s', async (what, spec, field) => {
    const name = `realm-${String(cases.findIndex(([n]) => n === what))}`;
    const server = await client.create({ type: keycloakRealmType, namespace, name }, body(name, spec)).then(
      (created) => ({ accepted: true as const, created }),
      (error: unknown) => ({ accepted: false as const, error }),
    );
    if (field === undefined) {
      expect(server.accepted ? undefined : String(server.error)).toBeUndefined();
      const decoded = server.accepted ? decodeRealm(server.created) : undefined;
      expect(decoded !== undefined && !isLeft(decoded)).toBe(true);
      return;
    }
    expect(server.accepted).toBe(false);
    const error = server.accepted ? undefined : server.error;
    expect(error).toBeInstanceOf(KeywardError);
    expect((error as KeywardError).code).toBe(422);
    expect((error as KeywardError).message).toContain(`${field}:`);

    // The codec sees what the server would have stored: the same defaults applied.
    const decoded = decodeRealm({ ...body(name, spec), metadata: { name, namespace, uid: 'u', generation: 1 } });
    expect(isLeft(decoded)).toBe(true);
    if (isLeft(decoded)) expect(decoded.left.message).toContain(`${field}:`);
  });

  it('takes any password policy, which the codec checks: one field name with two types has no schema type', async () => {
    const spec = { ...baseSpec, passwordPolicy: { length: 0 } };
    const stored = await client.create({ type: keycloakRealmType, namespace, name: 'policy-range' }, body('policy-range', spec));
    const decoded = decodeRealm(stored);
    expect(isLeft(decoded) ? decoded.left.message : '').toContain('spec.passwordPolicy.length:');
  });

  it('takes a subgroup path naming other parents, which the codec refuses: the schema checks deeper paths by depth only', async () => {
    const spec = { ...baseSpec, groups: [{ name: 'staff', subGroups: [{ name: 'leads', path: '/team/leads' }] }] };
    const stored = await client.create({ type: keycloakRealmType, namespace, name: 'group-path-parents' }, body('group-path-parents', spec));
    const decoded = decodeRealm(stored);
    expect(isLeft(decoded) ? decoded.left.message : '').toContain('spec.groups[0].subGroups[0].path:');
  });

  it('takes a list or an object as defaultRoles, which the codec checks: one field name with two types has no schema type', async () => {
    const spec = { ...baseSpec, defaultRoles: { realmRoles: ['viewer'], clientroles: {} } };
    const stored = await client.create({ type: keycloakRealmType, namespace, name: 'default-roles-key' }, body('default-roles-key', spec));
    const decoded = decodeRealm(stored);
    expect(isLeft(decoded) ? decoded.left.message : '').toContain('spec.defaultRoles:');
  });

  it('applies the defaults the codec applies', async () => {
    const created = await client.create({ type: keycloakRealmType, namespace, name: 'defaults' }, body('defaults', { realmName: 'defaults', clientScopes: [{ name: 'api' }] }));
    expect(created['spec']).toEqual({ realmName: 'defaults', deletionPolicy: 'Delete', clientScopes: [{ name: 'api', protocol: 'openid-connect' }] });
  });
});

describe('realmName', () => {
  it('cannot be changed once set, while other fields can', async () => {
    const ref = { type: keycloakRealmType, namespace, name: 'renamed' };
    await client.create(ref, body('renamed', { realmName: 'first' }));
    const refused = await client.patch(ref, { spec: { realmName: 'second' } }, ContentType.mergePatch).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(KeywardError);
    expect((refused as KeywardError).message).toContain(`spec.realmName: Invalid value: "string": ${REALM_NAME_IMMUTABLE_MESSAGE}`);
    const changed = await client.patch(ref, { spec: { displayName: 'First' } }, ContentType.mergePatch);
    expect(changed['spec']).toMatchObject({ realmName: 'first', displayName: 'First' });
  });
});

/** The rows `kubectl get` shows for the realm named columns. */
function table(): Promise<PrintedTable> {
  return printedTable(adminKubeConfig(), `/apis/vriesdemichael.github.io/v1/namespaces/${namespace}/keycloakrealms?fieldSelector=metadata.name%3Dcolumns`);
}

describe('printer columns', () => {
  it('show Ready, the realm and the age', async () => {
    const ref = { type: keycloakRealmType, namespace, name: 'columns' };
    await client.create(ref, body('columns', { realmName: 'columns-realm' }));
    const status = { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    await client.patch(ref, { status }, ContentType.mergePatch, 'status');
    const { columns, rows } = await table();
    expect(columns).toEqual(['Name', 'Ready', 'Realm', 'Age']);
    expect(rows[0]?.slice(0, 3)).toEqual(['columns', 'True', 'columns-realm']);
    expect(rows[0]?.[3]).toMatch(/^\d+s$/);
  });
});

// The schema says "exactly one of authenticator and subFlow" and "no config on a sub-flow" with oneOf and not
// (CEL rules on items of lists nested this deep exceed the API server's cost budget), so the server names the
// step in its own words; the codec's words for the same steps are checked in the unit tests.
const stepCases: [string, Record<string, unknown>, string][] = [
  ['an authenticator and a sub-flow', { authenticator: 'x', subFlow: { alias: 'b' } }, 'must validate one and only one schema (oneOf)'],
  ['neither an authenticator nor a sub-flow', { requirement: 'REQUIRED' }, 'must validate one and only one schema (oneOf)'],
  ['a config on a sub-flow', { subFlow: { alias: 'b' }, config: { alias: 'c', config: {} } }, 'must not validate the schema (not)'],
];

describe('a flow step', () => {
  it.each(stepCases)('with %s is refused by the schema and the codec, naming the step', async (_what, step, says) => {
    const name = `step-${String(stepCases.findIndex(([, s]) => s === step))}`;
    const spec = { ...baseSpec, authenticationFlows: [{ alias: 'a', executions: [{ authenticator: 'ok' }, step] }] };
    const error = await client.create({ type: keycloakRealmType, namespace, name }, body(name, spec)).then(() => undefined, (failure: unknown) => failure);
    expect(error).toBeInstanceOf(KeywardError);
    expect((error as KeywardError).message).toContain(`"spec.authenticationFlows[0].executions[1]" ${says}`);
    const decoded = decodeRealm({ ...body(name, spec), metadata: { name, namespace, uid: 'u', generation: 1 } });
    expect(isLeft(decoded) ? decoded.left.message : '').toContain('spec.authenticationFlows[0].executions[1]:');
  });
});
