import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { KeywardError } from '@keyward/kernel/interpreter';
import { KubeClient } from '@keyward/runtime/io';
import type { ResourceType } from '@keyward/kernel';
import { keycloakClientType } from '../../src/types.js';
import { keycloakClientCrd } from '../../src/client/crd.js';
import { decodeKeycloakClient } from '../../src/client/decode.js';

const crdType: ResourceType = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false };

let kube: KubeClient;
let namespace: string;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  // Applied as raw JSON: a typed client model would drop the CEL rules.
  await kube.apply({ type: crdType, name: keycloakClientCrd.metadata.name }, keycloakClientCrd, true);
  await waitFor(
    async () => {
      const crd = await kube.get({ type: crdType, name: keycloakClientCrd.metadata.name });
      const conditions = ((crd?.['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions) ?? [];
      return conditions.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    },
    { what: 'the KeycloakClient CRD to be established', timeoutMs: 30_000 },
  );
  namespace = await createTestNamespace('kcc-crd');
});

afterAll(() => {
  kube.close();
});

const base = { clientId: 'shop', realmRef: { name: 'shared' } };

const cases: [string, Record<string, unknown> | undefined, string | undefined][] = [
  ['the least spec', base, undefined],
  ['the Kopf operator\'s spellings', {
    ...base, protocol: 'docker-v2', secretName: 'shop-oidc', manageSecret: false, settings: { clientAuthenticatorType: 'client-jwt', alwaysDisplayInConsole: true },
    authenticationFlows: { browserFlow: 'browser', directGrantFlow: 'direct grant', clientAuthenticationFlow: 'clients' }, secretRotation: { enabled: true, rotationTime: '03:00', timezone: 'UTC' },
  }, undefined],
  ['a rotation time that is no time of day', { ...base, secretRotation: { enabled: true, rotationTime: '24:00' } }, 'spec.secretRotation.rotationTime'],
  ['a time zone with characters no zone name has', { ...base, secretRotation: { enabled: true, rotationTime: '03:00', timezone: 'Europe Amsterdam' } }, 'spec.secretRotation.timezone'],
  ['both spellings of a flow override, differing', { ...base, authenticationFlows: { browserFlow: 'a' }, authenticationFlowOverrides: { browser: 'b' } }, 'spec.authenticationFlows.browserFlow'],
  ['a full spec', {
    ...base, realmRef: { name: 'shared', namespace: 'platform' }, clientName: 'Shop', protocol: 'openid-connect', redirectUris: ['https://shop/cb'],
    settings: { pkceCodeChallengeMethod: 'S256', accessTokenLifespan: 300, serviceAccountsEnabled: true },
    protocolMappers: [{ name: 'm', protocolMapper: 'oidc-hardcoded-claim-mapper', config: { 'claim.name': 'x' } }], clientRoles: [{ name: 'r', attributes: { a: 'b' } }],
    serviceAccountRoles: { realmRoles: ['x'], clientRoles: { billing: ['read'] } }, attributes: { a: 'b' }, secretMetadata: { labels: { app: 'shop' } },
    secretRotation: { enabled: true, rotationPeriod: '1h30m' }, deletionPolicy: 'Retain', pruneUnlisted: ['clientRoles', 'protocolMappers'],
  }, undefined],
  ['an unknown prunable field', { ...base, pruneUnlisted: ['clientScopes'] }, 'spec.pruneUnlisted[0]'],
  ['no clientId', { realmRef: { name: 'shared' } }, 'spec.clientId'],
  // Keycloak 26.7.3 stores clientIds and client role names of at most 255 characters.
  ['the longest clientId Keycloak stores', { ...base, clientId: 'c'.repeat(255) }, undefined],
  ['a clientId longer than Keycloak stores', { ...base, clientId: 'c'.repeat(256) }, 'spec.clientId'],
  // The Kopf operator's clientRoles are role names; Keyward's role objects may stand beside them.
  ['client roles as names and objects', { ...base, clientRoles: ['viewer', { name: 'editor', description: 'Edits', attributes: { a: 'b' } }] }, undefined],
  ['the most client roles', { ...base, clientRoles: Array.from({ length: 100 }, (_, i) => `role-${String(i)}`) }, undefined],
  ['more client roles than the bound', { ...base, clientRoles: Array.from({ length: 101 }, (_, i) => `role-${String(i)}`) }, 'spec.clientRoles'],
  ['the Kopf operator\'s consent, token scope and authorization settings', {
    ...base, settings: { serviceAccountsEnabled: true, displayOnConsentScreen: true, includeInTokenScope: false, authorizationServicesEnabled: true, refreshTokenLifespan: 1800 },
  }, undefined],
  ['authorization services on a client without a service account', { ...base, settings: { authorizationServicesEnabled: true } }, 'spec.settings'],
  ['authorization services off with authorization settings', { ...base, settings: { serviceAccountsEnabled: true, authorizationServicesEnabled: false }, authorizationSettings: {} }, 'spec.authorizationSettings'],
  ['a realmRef namespace that is no namespace', { ...base, realmRef: { name: 'shared', namespace: 'Team_A' } }, 'spec.realmRef.namespace'],
  ['a redirect URI twice', { ...base, redirectUris: ['a', 'a'] }, 'spec.redirectUris[1]'],
  ['a rotation period of zero', { ...base, secretRotation: { enabled: true, rotationPeriod: '0d' } }, 'spec.secretRotation.rotationPeriod'],
  ['an ownership attribute', { ...base, attributes: { 'io.kubernetes.cr-name': 'victim' } }, 'spec.attributes'],
  ['a public client with a provided secret', { ...base, publicClient: true, clientSecret: { name: 's', key: 'k' } }, 'spec.clientSecret'],
  ['a public client with rotation', { ...base, publicClient: true, secretRotation: { enabled: true } }, 'spec.secretRotation'],
  ['a provided secret with rotation', { ...base, clientSecret: { name: 's', key: 'k' }, secretRotation: { enabled: true } }, 'spec.secretRotation'],
  ['an unknown deletionPolicy', { ...base, deletionPolicy: 'Orphan' }, 'spec.deletionPolicy'],
  ['regenerateSecret as a token', { ...base, regenerateSecret: 'rotate-1' }, undefined],
  ['regenerateSecret as the old boolean', { ...base, regenerateSecret: true }, undefined],
  
  ['public and bearer-only', { ...base, publicClient: true, bearerOnly: true }, 'spec.bearerOnly'],
  
  ['a public client regenerating by false', { ...base, publicClient: true, regenerateSecret: false }, undefined],
  ['authorization settings', {
    ...base, settings: { serviceAccountsEnabled: true },
    authorizationSettings: { policyEnforcementMode: 'PERMISSIVE', decisionStrategy: 'AFFIRMATIVE', scopes: [{ name: 'read' }], resources: [{ name: 'doc', uris: ['/d'], scopes: ['read'], attributes: { a: 'b' } }] },
  }, undefined],
  ['a resource\'s attributes as lists, as Keycloak keeps them', {
    ...base, settings: { serviceAccountsEnabled: true },
    authorizationSettings: { resources: [{ name: 'doc', attributes: { tags: ['a', 'b'], owner: 'team', none: [] } }] },
  }, undefined],
  ['authorization without a service account', { ...base, authorizationSettings: {} }, 'spec.authorizationSettings'],
  ['authorization on a public client', { ...base, publicClient: true, settings: { serviceAccountsEnabled: true }, authorizationSettings: {} }, 'spec.authorizationSettings'],
  ['a resource naming an unlisted scope', { ...base, settings: { serviceAccountsEnabled: true }, authorizationSettings: { resources: [{ name: 'doc', scopes: ['nope'] }] } }, 'spec.authorizationSettings.resources'],
  ['an unknown policy enforcement mode', { ...base, settings: { serviceAccountsEnabled: true }, authorizationSettings: { policyEnforcementMode: 'LAX' } }, 'spec.authorizationSettings.policyEnforcementMode'],
  ['authorization policies and permissions', {
    ...base, settings: { serviceAccountsEnabled: true },
    authorizationSettings: {
      policies: [
        { name: 'r', type: 'role', logic: 'NEGATIVE', roles: [{ name: 'reader', required: true }, { name: 'app/editor' }], fetchRoles: true },
        { name: 'g', type: 'group', groups: [{ path: '/team', extendChildren: true }], groupsClaim: 'groups' },
        { name: 't', type: 'time', notBefore: '2000-01-01 00:00:00', hour: 8, hourEnd: 18 },
        { name: 'x', type: 'regex', targetClaim: 'email', pattern: '.*', targetContextAttributes: false },
        { name: 'a', type: 'aggregate', policies: ['r', 't'], decisionStrategy: 'CONSENSUS' },
        { name: 'j', type: 'js', code: '$evaluation.grant();' },
      ],
      permissions: [{ name: 'p', type: 'scope', scopes: ['read'], resources: ['doc'], policies: ['a'], decisionStrategy: 'AFFIRMATIVE' }],
    },
  }, undefined],
  ['the Kopf operator\'s policies and permissions, a list per type', {
    ...base, settings: { serviceAccountsEnabled: true },
    authorizationSettings: {
      scopes: [{ name: 'read' }],
      resources: [{ name: 'doc', scopes: ['read'] }],
      policies: {
        allowJavaScriptPolicies: false,
        rolePolicies: [{ name: 'r', logic: 'NEGATIVE', roles: [{ name: 'reader', required: true }], fetchRoles: true }],
        userPolicies: [{ name: 'u', users: ['alice'] }],
        groupPolicies: [{ name: 'g', groups: ['/team'], groupsClaim: 'groups' }],
        clientPolicies: [{ name: 'c', clients: ['billing'] }],
        timePolicies: [{ name: 't', notBefore: '2000-01-01 00:00:00', hour: 8, hourEnd: 18 }],
        regexPolicies: [{ name: 'x', targetClaim: 'email', pattern: '.*' }],
        aggregatePolicies: [{ name: 'a', policies: ['r', 't'], decisionStrategy: 'CONSENSUS' }],
        javascriptPolicies: [{ name: 'j', code: '$evaluation.grant();' }],
      },
      permissions: {
        resourcePermissions: [{ name: 'rp', resources: ['doc'], policies: ['a'] }],
        scopePermissions: [{ name: 'sp', scopes: ['read'], resources: ['doc'], policies: ['a'], decisionStrategy: 'AFFIRMATIVE' }],
      },
    },
  }, undefined],
];

describe('the KeycloakClient CRD and the codec agree', () => {
  it.each(cases)('on %s', async (what, spec, field) => {
    const name = `kcc-${String(cases.findIndex(([n]) => n === what))}`;
    const body = { apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name, namespace }, ...(spec === undefined ? {} : { spec }) };
    const server = await kube.create({ type: keycloakClientType, namespace, name }, body).then(
      (created) => ({ accepted: true as const, created }),
      (error: unknown) => ({ accepted: false as const, error }),
    );
    const decoded = decodeKeycloakClient({ ...body, metadata: { ...body.metadata, uid: 'u', generation: 1 } });
    if (field === undefined) {
      expect(server).toMatchObject({ accepted: true });
      expect(isLeft(decoded)).toBe(false);
      return;
    }
    expect(server.accepted).toBe(false);
    const error = server.accepted ? undefined : server.error;
    expect(error).toBeInstanceOf(KeywardError);
    expect((error as KeywardError).message).toContain(`${field}:`);
    expect(isLeft(decoded) ? decoded.left.message : '').toContain(`${field}:`);
  });
});

// A client role is a name or an object: the schema leaves the items untyped, and the API server's CEL cannot
// read untyped values, so it stores any item and the codec alone refuses, naming the field (the controller
// reports such a spec as invalid in status).
const roleCases: [string, unknown[], string][] = [
  ['a client role name longer than Keycloak stores', [{ name: 'n'.repeat(256) }], 'spec.clientRoles[0].name'],
  ['a client role name, as a string, longer than Keycloak stores', ['n'.repeat(256)], 'spec.clientRoles[0]'],
  ['an empty client role name', [''], 'spec.clientRoles[0]'],
  ['a client role that is a number', [3], 'spec.clientRoles[0]'],
  ['a client role object without a name', [{ description: 'x' }], 'spec.clientRoles[0].name'],
  ['a client role object with an unknown field', [{ name: 'r', composite: true }], 'spec.clientRoles[0].composite'],
  ['a client role description that is no string', [{ name: 'r', description: 3 }], 'spec.clientRoles[0].description'],
  ['client role attributes that are no strings', [{ name: 'r', attributes: { a: 1 } }], 'spec.clientRoles[0].attributes.a'],
  ['a client role named twice, once as a name', ['r', { name: 'r' }], 'spec.clientRoles[1]'],
];

describe('client roles the API server stores as given', () => {
  it.each(roleCases)('and the codec refuses: %s', async (what, clientRoles, field) => {
    const name = `kcc-role-${String(roleCases.findIndex(([n]) => n === what))}`;
    const body = { apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name, namespace }, spec: { ...base, clientRoles } };
    const stored = await kube.create({ type: keycloakClientType, namespace, name }, body);
    expect((stored['spec'] as { clientRoles?: unknown }).clientRoles).toEqual(clientRoles);
    const decoded = decodeKeycloakClient({ ...body, metadata: { ...body.metadata, uid: 'u', generation: 1 } });
    expect(isLeft(decoded) ? decoded.left.message : '').toContain(`${field}:`);
  });
});

// Policies and permissions are a list of items with a type, or the Kopf operator's object of lists per type, and
// a resource's attribute is a string or a list of strings: the schema leaves them untyped, so the API server
// stores them as given and the codec alone refuses, naming the field.
const authorizationCases: [string, Record<string, unknown>, string][] = [
  ['an unknown policy type', { policies: [{ name: 'p', type: 'script' }] }, 'spec.authorizationSettings.policies[0].type'],
  ['a time policy date not as Keycloak writes it', { policies: [{ name: 't', type: 'time', notBefore: '2000-01-01' }] }, 'spec.authorizationSettings.policies[0].notBefore'],
  ['a negative time bound', { policies: [{ name: 't', type: 'time', hour: -1 }] }, 'spec.authorizationSettings.policies[0].hour'],
  ['an unknown permission logic', { permissions: [{ name: 'p', type: 'resource', logic: 'MAYBE' }] }, 'spec.authorizationSettings.permissions[0].logic'],
  ['an unknown field of a policy', { policies: [{ name: 'p', type: 'user', user: ['alice'] }] }, 'spec.authorizationSettings.policies[0].user'],
  ['a role of the Kopf operator\'s role policy without a name', { policies: { rolePolicies: [{ name: 'r', roles: [{ required: true }] }] } }, 'spec.authorizationSettings.policies.rolePolicies[0].roles[0].name'],
  ['a field of another type in the Kopf operator\'s list', { policies: { rolePolicies: [{ name: 'r', users: ['alice'] }] } }, 'spec.authorizationSettings.policies.rolePolicies[0].users'],
  ['an unknown list of the Kopf operator\'s', { permissions: { rolePermissions: [] } }, 'spec.authorizationSettings.permissions.rolePermissions'],
  ['a resource attribute that is neither a string nor a list of strings', { resources: [{ name: 'doc', attributes: { tags: ['a', 1] } }] }, 'spec.authorizationSettings.resources[0].attributes.tags'],
  ['a resource attribute stating the marker', { resources: [{ name: 'doc', attributes: { 'io.kubernetes.managed-by': ['me'] } }] }, 'spec.authorizationSettings.resources[0].attributes'],
  ['a Kopf operator\'s regex policy without its pattern', { policies: { regexPolicies: [{ name: 'x', targetClaim: 'email' }] } }, 'spec.authorizationSettings.policies.regexPolicies[0].pattern'],
];

describe('authorization policies and permissions the API server stores as given', () => {
  it.each(authorizationCases)('and the codec refuses: %s', async (what, authorizationSettings, field) => {
    const name = `kcc-authz-${String(authorizationCases.findIndex(([n]) => n === what))}`;
    const body = { apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name, namespace }, spec: { ...base, settings: { serviceAccountsEnabled: true }, authorizationSettings } };
    const stored = await kube.create({ type: keycloakClientType, namespace, name }, body);
    expect((stored['spec'] as { authorizationSettings?: unknown }).authorizationSettings).toEqual(authorizationSettings);
    const decoded = decodeKeycloakClient({ ...body, metadata: { ...body.metadata, uid: 'u', generation: 1 } });
    expect(isLeft(decoded) ? decoded.left.message : '').toContain(`${field}:`);
  });
});

describe('immutable fields', () => {
  it.each([
    ['clientId', { clientId: 'other' }, 'spec.clientId: Invalid value', 'clientId is immutable'],
    ['realmRef', { realmRef: { name: 'elsewhere' } }, 'spec.realmRef: Invalid value', 'moving a client to another realm makes a new client'],
  ])('%s cannot change', async (field, change, path, message) => {
    const name = `immutable-${field.toLowerCase()}`;
    const ref = { type: keycloakClientType, namespace, name };
    await kube.create(ref, { apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name, namespace }, spec: base });
    const refused = await kube.patch(ref, { spec: change }, 'application/merge-patch+json').then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(KeywardError);
    expect((refused as KeywardError).message).toContain(path);
    expect((refused as KeywardError).message).toContain(message);
  });
});

describe('printer columns', () => {
  it('are served as declared', async () => {
    const crd = await kube.get({ type: crdType, name: keycloakClientCrd.metadata.name });
    const versions = (crd?.['spec'] as { versions: { additionalPrinterColumns?: { name: string; type: string; jsonPath: string }[] }[] }).versions;
    expect(versions[0]?.additionalPrinterColumns).toEqual([
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'ClientID', type: 'string', jsonPath: '.spec.clientId' },
      { name: 'Realm', type: 'string', jsonPath: '.status.realm' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
  });
});
