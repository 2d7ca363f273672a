import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { WRITE_VERBS, adminKubeConfig, auditEventsOf, createTestNamespace, keystoneAdmin, kubeConfigFor, rememberSecret, serviceAccountIdentity, testEnvironment, waitFor, type ServiceAccountIdentity } from '@keyward/test-env';
import { coreTypes, sensitive } from '@keyward/core';
import { ContentType, KeystoneClient, KubeClient } from '@keyward/core/interpreter';
import { ACIDSecretKey, CR_FINALIZER, LABEL_APPLICATION_CREDENTIALS, LABEL_SERVICE, appCredType } from '@keyward/keystone-appcred';
import { apiKeyType } from '@keyward/apikey-enforcement';
import { parsePlanConfig, type PlanConfig } from '../src/config.js';
import { planCommand } from '../src/plan.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
let kube: KubeClient;
let namespace: string;
let userName: string;
/** `keyward plan` runs as a ServiceAccount of its own, bound to cluster-admin: a write would succeed, and show. */
let planner: ServiceAccountIdentity;
const clusterRoleBinding = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false } as const;

function config(extra: readonly string[]): PlanConfig {
  const parsed = parsePlanConfig(['--kubeconfig', planner.kubeconfig, '--namespace', namespace, '--keystone-url', testEnvironment().keystone?.url ?? '', ...extra], {});
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

async function plan(extra: readonly string[]): Promise<{ status: number; output: string }> {
  let output = '';
  const status = await planCommand(config(extra), (text) => { output += text; });
  return { status, output };
}

interface PlannedObject {
  readonly kind: string;
  readonly name: string;
  readonly plan?: { readonly steps: readonly { readonly kind: string }[] };
}

/** `keyward plan -o json`, parsed. */
async function planJson(extra: readonly string[]): Promise<PlannedObject[]> {
  const { status, output } = await plan([...extra, '--output', 'json']);
  expect(status).toBe(0);
  return JSON.parse(output) as PlannedObject[];
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('plan');
  planner = await serviceAccountIdentity(namespace, 'planner');
  await kube.create({ type: clusterRoleBinding, name: `keyward-plan-test-${namespace}` }, {
    metadata: { name: `keyward-plan-test-${namespace}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'planner', namespace }],
  });
  userName = `plan-${randomBytes(3).toString('hex')}`;
  rememberSecret(PASSWORD);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
  await kube.create({ type: appCredType, namespace, name: 'ac-plan' }, {
    apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential',
    metadata: { name: 'ac-plan', namespace, finalizers: ['openstack.org/applicationcredential'] },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
  });
});

afterAll(async () => {
  await kube.delete({ type: clusterRoleBinding, name: `keyward-plan-test-${namespace}` });
  kube.close();
});

/**
 * The planner's requests as the API server recorded them. A marker request made last, under the same identity,
 * shows that the log has caught up with everything before it.
 */
async function requestsOfPlanner(): Promise<{ verb: string; resource: string }[]> {
  const marker = `audit-marker-${randomBytes(3).toString('hex')}`;
  const asPlanner = new KubeClient(kubeConfigFor({ kubeconfig: planner.kubeconfig }));
  try {
    await asPlanner.get({ type: coreTypes.configMap, namespace, name: marker });
  } finally {
    asPlanner.close();
  }
  const events = await waitFor(() => {
    const all = auditEventsOf(planner.userName);
    return Promise.resolve(all.some((event) => event.objectRef?.name === marker) ? all : undefined);
  }, { what: 'the audit log to record the marker request', timeoutMs: 10_000, intervalMs: 200 });
  return events
    .filter((event) => event.objectRef?.name !== marker)
    .map((event) => ({ verb: event.verb, resource: [event.objectRef?.resource, event.objectRef?.subresource].filter(Boolean).join('/') }));
}

describe('keyward plan against the live cluster', () => {
  it('shows what would happen and why, with known-after-apply values, and changes nothing', async () => {
    const text = await plan(['--controllers', 'keystone-appcred', '--exit-code']);
    expect(text.status).toBe(2);
    expect(text.output).toContain(`KeystoneApplicationCredential ${namespace}/ac-plan`);
    expect(text.output).toContain(`authenticate to Keystone as ${userName}`);
    expect(text.output).toContain(`create Secret ${namespace}/ac-plan-(known after apply)-secret`);
    expect(text.output).toContain('why: no application credential exists yet');
    expect(text.output).not.toContain(PASSWORD);

    const json = await plan(['--controllers', 'keystone-appcred', '--output', 'json']);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.output) as { name: string; plan: { steps: { kind: string }[] } }[];
    expect(parsed[0]?.plan.steps.map((s) => s.kind)).toContain('keystone.createApplicationCredential');

    // Nothing was written, counted where every write would have to go: the API server's audit log. The plan
    // read what it needed (the CRs and the password Secret; the Keystone URL is given, so no KeystoneAPI) and
    // did nothing else.
    const requests = await requestsOfPlanner();
    expect(requests.filter((request) => WRITE_VERBS.has(request.verb))).toEqual([]);
    expect(new Set(requests.map((request) => request.resource))).toEqual(new Set(['keystoneapplicationcredentials', 'secrets']));
    expect((await kube.list(coreTypes.secret, { namespace })).items.map((s) => s.metadata.name)).toEqual(['osp-secret']);
    const keystone = new KeystoneClient({ baseUrl: testEnvironment().keystone?.url ?? '' });
    const login = await keystone.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) });
    expect(await keystone.listApplicationCredentials(login.token, login.userId)).toEqual([]);
  });

  it('says when there is nothing to plan', async () => {
    const empty = await plan(['--controllers', 'apikey-enforcement', '--exit-code']);
    expect(empty).toEqual({ status: 0, output: 'no objects found\n' });
  });

  it('plans the objects of the controllers --controllers selects, and only those', async () => {
    await kube.create({ type: coreTypes.secret, namespace, name: 'consumer-key' }, { metadata: { name: 'consumer-key' }, stringData: { api_key: 'not-a-real-key' } });
    await kube.create({ type: apiKeyType, namespace, name: 'key-plan' }, {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'key-plan', namespace },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'consumer-key' }, planTier: 'gold', useCase: 'plan', requestedBy: { userId: 'u', email: 'u@example.com' } },
    });
    const planned = async (controllers: string): Promise<string[]> => (await planJson(['--controllers', controllers])).map((object) => `${object.kind} ${object.name}`);

    expect(await planned('apikey-enforcement')).toEqual(['APIKey key-plan']);
    expect(await planned('keystone-appcred')).toEqual(['KeystoneApplicationCredential ac-plan']);
    expect(await planned('apikey-enforcement,keystone-appcred')).toEqual(['KeystoneApplicationCredential ac-plan', 'APIKey key-plan']);
    const text = await plan(['--controllers', 'apikey-enforcement']);
    expect(text.output).toContain(`APIKey ${namespace}/key-plan`);
    expect(text.output).not.toContain('KeystoneApplicationCredential');

    // However the controllers are selected, plan only reads.
    const requests = await requestsOfPlanner();
    expect(requests.filter((request) => WRITE_VERBS.has(request.verb))).toEqual([]);
  });

  it('configures the controllers with their options, as run does: --revoke-on-delete plans the revocation of a deleted CR\'s credential', async () => {
    const ref = { type: appCredType, namespace, name: 'ac-retire' };
    await kube.create({ type: coreTypes.secret, namespace, name: 'ac-retire-secret' }, {
      metadata: { name: 'ac-retire-secret', labels: { [LABEL_APPLICATION_CREDENTIALS]: 'true', [LABEL_SERVICE]: 'retire' } },
      stringData: { [ACIDSecretKey]: 'retired-credential-id' },
    });
    await kube.create(ref, {
      apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential',
      metadata: { name: 'ac-retire', namespace, finalizers: [CR_FINALIZER] },
      spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
    });
    // Deleted, it stays until the controller releases it: its finalizer holds it.
    await kube.delete(ref);
    try {
      const steps = async (extra: readonly string[]): Promise<string[]> => {
        const [object, ...others] = await planJson(['--controllers', 'keystone-appcred', '--name', 'ac-retire', ...extra]);
        expect(others).toEqual([]);
        return object?.plan?.steps.map((step) => step.kind) ?? [];
      };
      const kept = await steps([]);
      expect(kept).toContain('k8s.removeFinalizer');
      expect(kept).not.toContain('keystone.revokeApplicationCredential');
      expect(await steps(['--revoke-on-delete'])).toContain('keystone.revokeApplicationCredential');
      expect(await steps(['--no-revoke-on-delete'])).toEqual(kept);
    } finally {
      await kube.patch(ref, { metadata: { finalizers: null } }, ContentType.mergePatch);
    }
  });
});
