import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace } from '@keyward/test-env';
import { KeywardError } from '@keyward/kernel/interpreter';
import { KubeClient } from '@keyward/runtime/io';
import { decodeKeystone, keystoneType } from '../src/index.js';
import { baseSpec } from './fixtures.js';

let client: KubeClient;
let namespace: string;

beforeAll(async () => {
  client = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('ks-crd');
});

afterAll(() => {
  client.close();
});

const body = (name: string, spec: Record<string, unknown> | undefined) => ({
  apiVersion: 'keystone.openstack.c5c3.io/v1alpha1',
  kind: 'Keystone',
  metadata: { name, namespace },
  ...(spec === undefined ? {} : { spec }),
});

/** [description, spec, path the rejection must name as "<path>:" on both sides (undefined: valid)]. */
const cases: [string, Record<string, unknown> | undefined, string | undefined][] = [
  ['a minimal spec', baseSpec, undefined],
  ['a full spec', {
    ...baseSpec,
    replicas: 2,
    database: { clusterRef: { name: 'mariadb' }, database: 'ks', secretRef: { name: 'db' } },
    cache: { servers: ['mc-0:11211'], backend: 'oslo_cache.memcache_pool' },
    fernet: { rotationSchedule: '@daily', maxActiveKeys: 5 },
    credentialKeys: { maxActiveKeys: 4 },
    bootstrap: { adminUser: 'root', adminPasswordSecretRef: { name: 'admin', key: 'pw' }, region: 'RegionTwo', publicEndpoint: 'https://id.example.com/v3' },
    middleware: [],
    plugins: [{ name: 'ldap', configSection: 'ldap', config: { url: 'ldap://ldap' } }],
    policyOverrides: { rules: { 'identity:list_users': 'role:admin' } },
    extraConfig: { DEFAULT: { debug: 'true' } },
  }, undefined],
  ['no spec', undefined, 'spec'],
  ['no image', { database: baseSpec.database, bootstrap: baseSpec.bootstrap }, 'spec.image'],
  ['an image repository with a space', { ...baseSpec, image: { repository: 'registry.example/key stone', tag: '27.0.0' } }, 'spec.image.repository'],
  ['an image repository in capitals', { ...baseSpec, image: { repository: 'registry.example:5000/Keystone', tag: '27.0.0' } }, 'spec.image.repository'],
  ['an image tag with a colon', { ...baseSpec, image: { repository: 'keystone', tag: '27:0' } }, 'spec.image.tag'],
  ['an image from a registry with a port', { ...baseSpec, image: { repository: 'registry.example:5000/openstack/keystone', tag: '2025.1_27.0.0' } }, undefined],
  ['zero replicas', { ...baseSpec, replicas: 0 }, 'spec.replicas'],
  ['both host and clusterRef', { ...baseSpec, database: { ...baseSpec.database, clusterRef: { name: 'm' } } }, 'spec.database'],
  ['neither host nor clusterRef', { ...baseSpec, database: { secretRef: { name: 'db' } } }, 'spec.database'],
  ['a port without host', { ...baseSpec, database: { clusterRef: { name: 'm' }, port: 3307, secretRef: { name: 'db' } } }, 'spec.database'],
  ['a cache with neither', { ...baseSpec, cache: { backend: 'x' } }, 'spec.cache'],
  ['a bad cron schedule', { ...baseSpec, fernet: { rotationSchedule: '61 * * * *' } }, 'spec.fernet.rotationSchedule'],
  ['two maxActiveKeys', { ...baseSpec, fernet: { maxActiveKeys: 2 } }, 'spec.fernet.maxActiveKeys'],
  ['an unknown position', { ...baseSpec, middleware: [{ name: 'a', filterFactory: 'f', position: 'around' }] }, 'spec.middleware[0].position'],
  ['a middleware named as a base filter', { ...baseSpec, middleware: [{ name: 'cors', filterFactory: 'f', position: 'after' }] }, 'spec.middleware'],
  ['a middleware twice', { ...baseSpec, middleware: [{ name: 'a', filterFactory: 'f', position: 'after' }, { name: 'a', filterFactory: 'g', position: 'before' }] }, 'spec.middleware[1]'],
  ['a middleware, which Keystone would never load', { ...baseSpec, middleware: [{ name: 'audit', filterFactory: 'audit.filter_factory', position: 'after', filter: 'request_id', config: { level: 'info' } }] }, 'spec.middleware'],
  ['a value with a line break', { ...baseSpec, extraConfig: { DEFAULT: { debug: 'true\n[x]' } } }, 'spec.extraConfig.DEFAULT.debug'],
  ["C5C3's shapes: the password's key, a credential key schedule, policy rules and a ConfigMap", {
    ...baseSpec,
    database: { ...baseSpec.database, secretRef: { name: 'db', key: 'db-password' } },
    credentialKeys: { rotationSchedule: '0 0 1 * *' },
    policyOverrides: { rules: { 'identity:list_users': 'role:admin' }, configMapRef: { name: 'p' } },
  }, undefined],
  ['policy overrides with neither rules nor a ConfigMap', { ...baseSpec, policyOverrides: { rules: {} } }, 'spec.policyOverrides'],
  ['a bad credential key schedule', { ...baseSpec, credentialKeys: { rotationSchedule: 'weekly' } }, 'spec.credentialKeys.rotationSchedule'],
  ["production's pod settings", {
    ...baseSpec,
    resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2, memory: '1.5Gi' } },
    topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 2 }],
    priorityClassName: 'identity-critical',
    terminationGracePeriodSeconds: 60,
    strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
    uwsgi: { processes: 4, threads: 2, harakiri: 120 },
    autoscaling: { minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70 },
    trustFlush: { schedule: '@daily', suspend: true, args: ['--date=2026-01-01T00:00:00'] },
  }, undefined],
  ['an autoscaler whose floor is above its ceiling', { ...baseSpec, autoscaling: { minReplicas: 5, maxReplicas: 4 } }, 'spec.autoscaling'],
  ['an autoscaler without a ceiling', { ...baseSpec, autoscaling: { minReplicas: 2 } }, 'spec.autoscaling.maxReplicas'],
  ['a uWSGI without workers', { ...baseSpec, uwsgi: { processes: 0 } }, 'spec.uwsgi.processes'],
  ['a quantity that is not one', { ...baseSpec, resources: { requests: { memory: '1 GB' } } }, 'spec.resources.requests.memory'],
  ['a spread without its topology key', { ...baseSpec, topologySpreadConstraints: [{ maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' }] }, 'spec.topologySpreadConstraints[0].topologyKey'],
  ['a grace period shorter than the drain', { ...baseSpec, terminationGracePeriodSeconds: 5 }, 'spec.terminationGracePeriodSeconds'],
  ['a rollout that can neither add nor remove a pod', { ...baseSpec, strategy: { rollingUpdate: { maxSurge: 0 } } }, 'spec.strategy.rollingUpdate'],
  ['a trust_flush option it does not have', { ...baseSpec, trustFlush: { args: ['--all'] } }, 'spec.trustFlush.args[0]'],
  ['a bad trust_flush schedule', { ...baseSpec, trustFlush: { schedule: 'hourly' } }, 'spec.trustFlush.schedule'],
];

describe('the Keystone CRD and the codec agree', () => {
  it.each(cases)('on %s', async (what, spec, path) => {
    const name = `ks-${String(cases.findIndex(([n]) => n === what))}`;
    const server = await client.create({ type: keystoneType, namespace, name }, body(name, spec)).then(
      (created) => ({ accepted: true as const, created }),
      (error: unknown) => ({ accepted: false as const, error }),
    );
    if (path === undefined) {
      expect(server.accepted ? undefined : String(server.error)).toBeUndefined();
      const decoded = server.accepted ? decodeKeystone(server.created) : undefined;
      expect(decoded !== undefined && !isLeft(decoded) ? 'decoded' : decoded).toBe('decoded');
      return;
    }
    expect(server.accepted).toBe(false);
    const error = server.accepted ? undefined : server.error;
    expect(error).toBeInstanceOf(KeywardError);
    expect((error as KeywardError).code).toBe(422);
    expect((error as KeywardError).message).toContain(`${path}:`);
    const decoded = decodeKeystone({ ...body(name, spec), metadata: { name, namespace, uid: 'u', generation: 1 } });
    expect(isLeft(decoded) ? decoded.left.message : 'accepted').toContain(`${path}:`);
  });

  it('refuses a name too long for the names derived from it, as the codec does', async () => {
    const name = `k${'x'.repeat(45)}`;
    const refused = await client.create({ type: keystoneType, namespace, name }, body(name, baseSpec)).then(() => undefined, (error: unknown) => error);
    expect((refused as KeywardError | undefined)?.message).toContain('metadata.name:');
    const decoded = decodeKeystone({ ...body(name, baseSpec), metadata: { name, namespace, uid: 'u', generation: 1 } });
    expect(isLeft(decoded) ? decoded.left.message : 'accepted').toContain('metadata.name:');
  });

  it('applies the defaults the codec applies', async () => {
    const created = await client.create({ type: keystoneType, namespace, name: 'defaults' }, body('defaults', baseSpec));
    const decoded = decodeKeystone(created);
    expect(isLeft(decoded) ? undefined : decoded.right.spec).toEqual(created['spec']);
    expect(created['spec']).toMatchObject({ replicas: 3, fernet: { rotationSchedule: '0 0 * * 0', maxActiveKeys: 3 }, credentialKeys: { maxActiveKeys: 3 }, database: { database: 'keystone' }, bootstrap: { adminUser: 'admin', region: 'RegionOne', adminPasswordSecretRef: { key: 'password' } }, trustFlush: { schedule: '0 * * * *', suspend: false, args: [] } });
  });
});
