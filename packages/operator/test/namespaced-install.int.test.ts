import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, auditEventsOf, createTestNamespace, keystoneAdmin, kubeConfigFor, rememberSecret, testEnvironment, waitFor, type ServiceAccountIdentity } from '@keyward/test-env';
import { coreTypes, findCondition, type Condition } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { apiKeyType, enforcementSecretName } from '@keyward/apikey-enforcement';
import { CONTROLLER_NAMES } from '../src/controllers.js';
import type { RbacInstall } from '../src/rbac-manifests.js';
import { generatedIdentity, mayDo, type AccessQuestion } from './deployed-identity.js';
import { startKeyward, stopKeyward, type OperatorProcess } from './operator-process.js';
import { approval, statusOf } from './requests.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const API_KEY = `key-${randomBytes(12).toString('hex')}`;

let admin: KubeClient;
/** Operator, its client and the names of the install: watched a and b, the operator's, enforcement, and one outside. */
let operator: OperatorProcess;
let asOperator: KubeClient;
let identity: ServiceAccountIdentity;
let install: RbacInstall;
let enforcementNamespace: string;
let outside: string;

beforeAll(async () => {
  admin = new KubeClient(adminKubeConfig());
  const [a, b, operatorNamespace, enforcement, keycloak] = await Promise.all(['nsi-a', 'nsi-b', 'nsi-op', 'nsi-enf', 'nsi-kc'].map((prefix) => createTestNamespace(prefix)));
  outside = await createTestNamespace('nsi-out');
  if (a === undefined || b === undefined || operatorNamespace === undefined || enforcement === undefined || keycloak === undefined) throw new Error('namespaces missing');
  enforcementNamespace = enforcement;
  // The Keycloak admin Secret's Role goes to a namespace of this test's, not to keyward-system, which it does not create.
  install = { controllers: CONTROLLER_NAMES, namespaces: [a, b], operatorNamespace, enforcementNamespace, keycloakOperatorNamespace: keycloak, serviceAccount: 'keyward' };
  identity = await generatedIdentity(admin, install);
  asOperator = new KubeClient(kubeConfigFor({ kubeconfig: identity.kubeconfig }));
  rememberSecret(PASSWORD);
  rememberSecret(API_KEY);
  operator = startKeyward(['run',
    '--kubeconfig', identity.kubeconfig,
    '--namespaces', `${a},${b}`,
    '--keystone-url', testEnvironment().keystone?.url ?? '',
    '--enforcement-namespace', enforcementNamespace,
    '--lease-namespace', operatorNamespace,
    '--keycloak-operator-namespace', keycloak,
    '--metrics-bind-address', '0',
    '--health-bind-address', '0',
  ], 'namespaced-operator');
});

afterAll(async () => {
  await stopKeyward(operator);
  admin.close();
  asOperator.close();
  expect(operator.output()).not.toContain(PASSWORD);
  expect(operator.output()).not.toContain(API_KEY);
});

/** The namespaces of the install, by role. */
function places(): { a: string; b: string; operator: string; enforcement: string } {
  const [a = '', b = ''] = install.namespaces === 'all' ? [] : install.namespaces;
  return { a, b, operator: install.operatorNamespace, enforcement: enforcementNamespace };
}

const KAC = { group: 'keystone.openstack.org', resource: 'keystoneapplicationcredentials' };
const APIKEY = { group: 'devportal.kuadrant.io', resource: 'apikeys' };
const SECRETS = { group: '', resource: 'secrets' };
const KEYSTONE = { group: 'keystone.openstack.c5c3.io', resource: 'keystones' };

describe('the namespaced install (keyward rbac --namespaces) on a real API server', () => {
  it('lets the operator do what it needs in its namespaces and nothing outside them', async () => {
    const { a, b, operator: own, enforcement } = places();
    const matrix: readonly (readonly [string, AccessQuestion, boolean])[] = [
      ['read Secrets in a watched namespace', { ...SECRETS, verb: 'list', namespace: a }, true],
      ['watch Secrets in the other watched namespace', { ...SECRETS, verb: 'watch', namespace: b }, true],
      ['write credential Secrets next to their CRs', { ...SECRETS, verb: 'create', namespace: b }, true],
      ['patch credential Secrets (labels, finalizer)', { ...SECRETS, verb: 'patch', namespace: a }, true],
      ['patch KeystoneApplicationCredentials (finalizers)', { ...KAC, verb: 'patch', namespace: a }, true],
      ['patch their status', { ...KAC, subresource: 'status', verb: 'patch', namespace: b }, true],
      ['read KeystoneAPIs', { group: 'keystone.openstack.org', resource: 'keystoneapis', verb: 'list', namespace: a }, true],
      ['watch APIKeys', { ...APIKEY, verb: 'watch', namespace: b }, true],
      ['patch APIKey status', { ...APIKEY, subresource: 'status', verb: 'patch', namespace: a }, true],
      ['create Events in a watched namespace', { group: '', resource: 'events', verb: 'create', namespace: a }, true],
      ['update its Lease', { group: 'coordination.k8s.io', resource: 'leases', verb: 'update', namespace: own }, true],
      ['publish its settings for plan (server-side apply: create, then patch)', { group: '', resource: 'configmaps', verb: 'patch', namespace: own }, true],
      ['create its settings ConfigMap', { group: '', resource: 'configmaps', verb: 'create', namespace: own }, true],
      ['watch enforcement Secrets', { ...SECRETS, verb: 'watch', namespace: enforcement }, true],
      ['create enforcement Secrets', { ...SECRETS, verb: 'create', namespace: enforcement }, true],
      ['delete enforcement Secrets', { ...SECRETS, verb: 'delete', namespace: enforcement }, true],
      ['read Secrets outside its namespaces', { ...SECRETS, verb: 'get', namespace: outside }, false],
      ['list Secrets outside its namespaces', { ...SECRETS, verb: 'list', namespace: outside }, false],
      ['list Secrets of the whole cluster', { ...SECRETS, verb: 'list', namespace: undefined }, false],
      ['read Secrets in its own namespace', { ...SECRETS, verb: 'get', namespace: own }, false],
      ['read Secrets in default', { ...SECRETS, verb: 'get', namespace: 'default' }, false],
      ['list KeystoneApplicationCredentials of the whole cluster', { ...KAC, verb: 'list', namespace: undefined }, false],
      ['list APIKeys outside its namespaces', { ...APIKEY, verb: 'list', namespace: outside }, false],
      ['create Events outside its namespaces', { group: '', resource: 'events', verb: 'create', namespace: outside }, false],
      ['create Leases in a watched namespace', { group: 'coordination.k8s.io', resource: 'leases', verb: 'create', namespace: a }, false],
      ['read ConfigMaps, its settings included (it never reads them back)', { group: '', resource: 'configmaps', verb: 'get', namespace: own }, false],
      ['write the configuration ConfigMaps of Keystones in a watched namespace', { group: '', resource: 'configmaps', verb: 'patch', namespace: a }, true],
      ['write ConfigMaps outside its namespaces', { group: '', resource: 'configmaps', verb: 'patch', namespace: outside }, false],
      ['replace ConfigMaps (update) in a watched namespace', { group: '', resource: 'configmaps', verb: 'update', namespace: a }, false],
      ['patch Keystone status', { ...KEYSTONE, subresource: 'status', verb: 'patch', namespace: b }, true],
      ['patch Keystones', { ...KEYSTONE, verb: 'patch', namespace: b }, false],
      ['create the db_sync and bootstrap Jobs in a watched namespace', { group: 'batch', resource: 'jobs', verb: 'create', namespace: a }, true],
      ['create Jobs outside its namespaces', { group: 'batch', resource: 'jobs', verb: 'create', namespace: outside }, false],
      ['create Pods', { group: '', resource: 'pods', verb: 'create', namespace: a }, false],
      ['list Pods of the whole cluster', { group: '', resource: 'pods', verb: 'list', namespace: undefined }, false],
      ['change enforcement Secrets in place', { ...SECRETS, verb: 'patch', namespace: enforcement }, false],
      ['update KeystoneApplicationCredentials', { ...KAC, verb: 'update', namespace: a }, false],
      ['read KeystoneApplicationCredential status', { ...KAC, subresource: 'status', verb: 'get', namespace: a }, false],
      ['update APIKey status', { ...APIKEY, subresource: 'status', verb: 'update', namespace: a }, false],
    ];
    const actual = Object.fromEntries(await Promise.all(matrix.map(async ([what, question]) => [what, await mayDo(asOperator, question)] as const)));
    expect(actual).toEqual(Object.fromEntries(matrix.map(([what, , expected]) => [what, expected])));
  });

  it('runs both controllers under exactly these Roles: an appcred becomes Ready, an approved APIKey gets its enforcement Secret', async () => {
    const { a, b, enforcement } = places();
    const userName = `nsi-${randomBytes(3).toString('hex')}`;
    await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
    await admin.create({ type: coreTypes.secret, namespace: b, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
    await admin.create({ type: appCredType, namespace: b, name: 'ac-nsi' }, {
      apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'ac-nsi', namespace: b },
      spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
    });

    await admin.create({ type: coreTypes.secret, namespace: a, name: 'consumer-key' }, { metadata: { name: 'consumer-key' }, stringData: { api_key: API_KEY } });
    const apiKey = { type: apiKeyType, namespace: a, name: 'weather' };
    await admin.create(apiKey, {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'weather', namespace: a },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'consumer-key' }, planTier: 'gold', useCase: 'namespaced', requestedBy: { userId: 'u', email: 'u@example.com' } },
    });
    await admin.patch(apiKey, approval('Approved'), ContentType.mergePatch, 'status');

    const enforcementRef = { type: coreTypes.secret, namespace: enforcement, name: enforcementSecretName(a, 'weather') };
    const created = await waitFor(() => admin.get(enforcementRef), { what: 'the enforcement Secret', timeoutMs: 60_000, intervalMs: 300 });
    expect(Buffer.from((created['data'] as Record<string, string>)['api_key'] ?? '', 'base64').toString()).toBe(API_KEY);
    await waitFor(async () => {
      const status = (await admin.get({ type: appCredType, namespace: b, name: 'ac-nsi' }))?.['status'] as { conditions?: Condition[] } | undefined;
      return findCondition(status?.conditions ?? [], 'Ready')?.status === 'True' ? true : undefined;
    }, { what: 'ac-nsi to be Ready', timeoutMs: 90_000, intervalMs: 300 });

    await admin.patch(apiKey, approval('Denied'), ContentType.mergePatch, 'status');
    await waitFor(async () => ((await admin.get(enforcementRef)) === undefined ? true : undefined), { what: 'the enforcement Secret to be deleted', timeoutMs: 60_000, intervalMs: 300 });
  });

  it('was refused nothing it asked for while it worked', () => {
    const requests = auditEventsOf(identity.userName);
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((event) => event.responseStatus?.code === 403).map((event) => `${event.verb} ${event.requestURI}`)).toEqual([]);
  });

  it('cannot read a Secret outside its namespaces: the API server answers 403', async () => {
    await admin.create({ type: coreTypes.secret, namespace: outside, name: 'not-yours' }, { metadata: { name: 'not-yours' }, stringData: { value: 'x' } });
    expect({
      get: await statusOf(() => asOperator.get({ type: coreTypes.secret, namespace: outside, name: 'not-yours' })),
      list: await statusOf(() => asOperator.list(coreTypes.secret, { namespace: outside })),
      listEverywhere: await statusOf(() => asOperator.list(coreTypes.secret)),
      getInWatched: await statusOf(() => asOperator.get({ type: coreTypes.secret, namespace: places().a, name: 'consumer-key' })),
    }).toEqual({ get: 403, list: 403, listEverywhere: 403, getInWatched: 200 });
  });
});
