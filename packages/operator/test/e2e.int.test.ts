import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, auditEventsOf, createTestNamespace, freeLoopbackPort, httpCall, keystoneAdmin, rememberSecret, testEnvironment, waitFor } from '@keyward/test-env';
import { coreTypes, findCondition, sensitive, type Condition } from '@keyward/kernel';
import { ContentType, KeystoneClient, KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { apiKeyType, enforcementSecretName } from '@keyward/apikey-enforcement';
import { RBAC_COMPONENTS } from '../src/rbac.js';
import { deployedIdentity, type DeployedIdentity } from './deployed-identity.js';
import { exited, startKeyward, type OperatorProcess } from './operator-process.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const API_KEY = `key-${randomBytes(12).toString('hex')}`;

interface LeaseSpec {
  readonly holderIdentity?: string;
  readonly acquireTime?: string;
  readonly renewTime?: string;
  readonly leaseDurationSeconds?: number;
  readonly leaseTransitions?: number;
}

let kube: KubeClient;
let namespace: string;
let enforcement: string;
let userName: string;
let endpoint: string;
/** The operator runs as a ServiceAccount bound to the roles deploy/base ships, and to nothing else. */
let identity: DeployedIdentity;
const operators: OperatorProcess[] = [];

function startOperator(extra: readonly string[] = []): ChildProcess {
  const operator = startKeyward(['run',
    '--kubeconfig', identity.kubeconfig,
    '--namespaces', namespace,
    '--keystone-url', endpoint,
    '--enforcement-namespace', enforcement,
    '--lease-namespace', namespace,
    '--metrics-bind-address', '0',
    '--health-bind-address', '0',
    '--log-format', 'json',
    '--log-level', 'debug',
    ...extra,
  ], 'e2e-operator');
  operators.push(operator);
  return operator.child;
}

async function conditions(name: string): Promise<Condition[]> {
  const object = await kube.get({ type: appCredType, namespace, name });
  return ((object?.['status'] as { conditions?: Condition[] } | undefined)?.conditions) ?? [];
}

async function waitReady(names: readonly string[]): Promise<void> {
  await waitFor(async () => {
    const all = await Promise.all(names.map(async (name) => findCondition(await conditions(name), 'Ready')?.status === 'True'));
    return all.every(Boolean) ? true : undefined;
  }, { what: `${names.join(', ')} to be Ready`, timeoutMs: 90_000, intervalMs: 300 });
}

async function createCr(name: string): Promise<void> {
  await kube.create({ type: appCredType, namespace, name }, {
    apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name, namespace },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
  });
}

async function liveCredentials(prefix: string): Promise<string[]> {
  const client = new KeystoneClient({ baseUrl: endpoint });
  const login = await client.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) });
  return (await client.listApplicationCredentials(login.token, login.userId)).filter((c) => c.name.startsWith(prefix)).map((c) => c.id);
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('e2e');
  enforcement = await createTestNamespace('e2e-enforce');
  userName = `e2e-${randomBytes(3).toString('hex')}`;
  endpoint = testEnvironment().keystone?.url ?? '';
  identity = await deployedIdentity(kube, { namespace, name: 'keyward', components: RBAC_COMPONENTS, namespaces: { operator: namespace, enforcement } });
  rememberSecret(PASSWORD);
  rememberSecret(API_KEY);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
});

afterAll(async () => {
  await identity.remove();
  kube.close();
  const output = operators.map((operator) => operator.output()).join('');
  expect(output).not.toContain(PASSWORD);
  expect(output).not.toContain(API_KEY);
});

describe('the keyward binary against the real environment', () => {
  it('makes an appcred Ready with a credential that authenticates, creates an approved APIKey enforcement Secret, and exposes metrics', async () => {
    const metricsPort = await freeLoopbackPort();
    const operator = startOperator(['--metrics-bind-address', `127.0.0.1:${String(metricsPort)}`, '--no-metrics-secure']);
    try {
      await createCr('ac-e2e');
      await waitReady(['ac-e2e']);
      const status = (await kube.get({ type: appCredType, namespace, name: 'ac-e2e' }))?.['status'] as { secretName: string };
      const secret = await kube.get({ type: coreTypes.secret, namespace, name: status.secretName });
      const data = secret?.['data'] as Record<string, string>;
      const text = (key: string): string => Buffer.from(data[key] ?? '', 'base64').toString();
      const login = await new KeystoneClient({ baseUrl: endpoint }).authenticateWithApplicationCredential({ id: text('AC_ID'), secret: sensitive(text('AC_SECRET')) });
      expect(login.userId).toBeTruthy();

      await kube.create({ type: coreTypes.secret, namespace, name: 'consumer-key' }, { metadata: { name: 'consumer-key' }, stringData: { api_key: API_KEY } });
      const apiKeyRef = { type: apiKeyType, namespace, name: 'weather' };
      await kube.create(apiKeyRef, {
        apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'weather', namespace },
        spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'consumer-key' }, planTier: 'gold', useCase: 'e2e', requestedBy: { userId: 'u', email: 'u@example.com' } },
      });
      await kube.patch(apiKeyRef, { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Approved', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }, ContentType.mergePatch, 'status');
      const enforcementRef = { type: coreTypes.secret, namespace: enforcement, name: enforcementSecretName(namespace, 'weather') };
      const created = await waitFor(() => kube.get(enforcementRef), { what: 'the enforcement Secret', timeoutMs: 60_000, intervalMs: 300 });
      expect(Buffer.from((created['data'] as Record<string, string>)['api_key'] ?? '', 'base64').toString()).toBe(API_KEY);

      await kube.delete(apiKeyRef);
      await waitFor(async () => ((await kube.get(enforcementRef)) === undefined ? true : undefined), { what: 'the enforcement Secret to go with its APIKey', timeoutMs: 60_000 });

      const metrics = (await httpCall(`http://127.0.0.1:${String(metricsPort)}/metrics`)).body;
      expect(metrics).toMatch(/keyward_reconcile_total\{controller="keystone-appcred",result="(success|requeue)"\} [1-9]/);
      expect(metrics).toMatch(/keyward_actions_total\{controller="keystone-appcred",kind="keystone.createApplicationCredential",outcome="applied"\} 1/);
      expect(metrics).toMatch(/keyward_external_requests_total\{api="keystone",operation="[a-z_]+",status="201"\} [1-9]/);
      expect(metrics).toContain('keyward_workqueue_depth{controller="apikey-enforcement"}');
    } finally {
      operator.kill('SIGTERM');
      await exited(operator);
    }
  });

  it('exits with status 0 on SIGTERM and releases the lease', async () => {
    const operator = startOperator();
    const lease = { type: coreTypes.lease, namespace, name: 'keyward-leader' };
    await waitFor(async () => {
      const holder = ((await kube.get(lease))?.['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity;
      return holder === undefined || holder === '' ? undefined : holder;
    }, { what: 'the operator to lead', timeoutMs: 60_000, intervalMs: 300 });
    operator.kill('SIGTERM');
    const { code } = await exited(operator);
    expect(code).toBe(0);
    const holder = ((await kube.get(lease))?.['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity;
    expect(holder ?? '').toBe('');
  });

  it('runs two replicas of which exactly one leads; killing the leader hands over once its lease has expired', async () => {
    const lease = { type: coreTypes.lease, namespace, name: 'keyward-ha' };
    const leaseSpec = async (): Promise<LeaseSpec | undefined> => (await kube.get(lease))?.['spec'] as LeaseSpec | undefined;
    const holder = async (): Promise<string | undefined> => {
      const spec = await leaseSpec();
      return spec?.holderIdentity === undefined || spec.holderIdentity === '' ? undefined : spec.holderIdentity;
    };
    const first = startOperator(['--lease-name', 'keyward-ha']);
    const firstLeader = await waitFor(holder, { what: 'a leader', timeoutMs: 60_000, intervalMs: 300 });
    const second = startOperator(['--lease-name', 'keyward-ha']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(await holder()).toBe(firstLeader);
      first.kill('SIGKILL');
      await exited(first);
      const lastRenewal = await leaseSpec();
      const secondLeader = await waitFor(async () => {
        const current = await holder();
        return current !== undefined && current !== firstLeader ? current : undefined;
      }, { what: 'the other replica to take over', timeoutMs: 40_000, intervalMs: 200 });
      expect(secondLeader).not.toBe(firstLeader);
      // The order of events, not their timing: the follower took over only after the dead leader's lease expired.
      const takeover = await leaseSpec();
      expect(Date.parse(takeover?.acquireTime ?? '')).toBeGreaterThanOrEqual(Date.parse(lastRenewal?.renewTime ?? '') + (lastRenewal?.leaseDurationSeconds ?? 0) * 1_000);
      expect(takeover?.leaseTransitions).toBe((lastRenewal?.leaseTransitions ?? 0) + 1);
      await createCr('ac-ha');
      await waitReady(['ac-ha']);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  });

  it('converges after kill -9 during creation: every CR Ready, one live credential each', async () => {
    const names = ['ac-crash-1', 'ac-crash-2', 'ac-crash-3', 'ac-crash-4'];
    const first = startOperator();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await Promise.all(names.map(createCr));
    await new Promise((resolve) => setTimeout(resolve, 400));
    first.kill('SIGKILL');
    await exited(first);

    const second = startOperator();
    try {
      await waitReady(names);
      for (const name of names) {
        await waitFor(async () => ((await liveCredentials(`${name}-`)).length === 1 ? true : undefined), { what: `exactly one live credential for ${name}`, timeoutMs: 60_000, intervalMs: 500 });
      }
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  });

  it('converges after kill -9 during rotation: a new credential each, the previous one kept, nothing else live', async () => {
    const names = ['ac-spin-1', 'ac-spin-2', 'ac-spin-3', 'ac-spin-4'];
    const setup = startOperator();
    await Promise.all(names.map(createCr));
    await waitReady(names);
    setup.kill('SIGTERM');
    await exited(setup);
    const acIdOf = async (name: string): Promise<string | undefined> => ((await kube.get({ type: appCredType, namespace, name }))?.['status'] as { acID?: string } | undefined)?.acID;
    const before = new Map(await Promise.all(names.map(async (name) => [name, await acIdOf(name) ?? ''] as const)));

    // Expired: every CR rotates as soon as an operator looks at it.
    for (const name of names) {
      await kube.patch({ type: appCredType, namespace, name }, { status: { expiresAt: '2001-05-19T00:00:00Z' } }, ContentType.mergePatch, 'status');
    }
    const first = startOperator();
    // Killed the moment the first rotation shows: the others are somewhere between their steps.
    await waitFor(async () => {
      const rotated = await Promise.all(names.map(async (name) => (await acIdOf(name)) !== before.get(name)));
      return rotated.some(Boolean) ? true : undefined;
    }, { what: 'a rotation to begin', timeoutMs: 60_000, intervalMs: 50 });
    first.kill('SIGKILL');
    await exited(first);

    const second = startOperator();
    try {
      await waitFor(async () => {
        const states = await Promise.all(names.map(async (name) => findCondition(await conditions(name), 'Ready')?.status === 'True' && (await acIdOf(name)) !== before.get(name)));
        return states.every(Boolean) ? true : undefined;
      }, { what: 'every CR to be Ready with a new credential', timeoutMs: 90_000, intervalMs: 300 });
      for (const name of names) {
        const expected = [before.get(name), await acIdOf(name)].sort();
        await waitFor(async () => (JSON.stringify((await liveCredentials(`${name}-`)).sort()) === JSON.stringify(expected) ? true : undefined), {
          what: `${name}: exactly the previous and the new credential live`, timeoutMs: 60_000, intervalMs: 500,
        }).catch(async () => {
          expect({ name, live: (await liveCredentials(`${name}-`)).sort() }).toEqual({ name, live: expected });
        });
      }
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  });

  it('needed nothing beyond the roles deploy/base ships: the API server refused none of its requests', () => {
    const requests = auditEventsOf(identity.userName);
    expect(requests.length).toBeGreaterThan(50);
    const refused = requests.filter((event) => event.responseStatus?.code === 403);
    expect(refused.map((event) => `${event.verb} ${event.requestURI}`)).toEqual([]);
  });
});
