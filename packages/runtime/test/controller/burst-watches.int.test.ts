import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { adminKubeConfig, createTestNamespace, serviceAccountIdentity, waitFor } from '@keyward/test-env';
import { KubeClient, type KubeRequestInfo } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesQueries } from '../../src/apis/kubernetes/io/queries.js';
import { coreTypes, type KubeObject } from '@keyward/kernel';
import { type BurstRead, type GetQuery } from '@keyward/kernel/plan';
import { BurstWatches, type BurstWatchOptions } from '../../src/controller/burst-watches.js';

const SECRETS = 40;

/** Reads one object as a controller's observe would have it read. */
type Reader = (query: GetQuery) => Promise<KubeObject | undefined>;

/** What the reader sent and what the burst watches said, for one test. */
interface Rig {
  readonly runner: Reader;
  readonly bursts: BurstWatches;
  readonly gets: () => number;
  readonly said: string[];
  /** The watched-namespace counts reported for metrics, in order. */
  readonly counts: number[];
  readonly close: () => Promise<void>;
}

let rigs: Rig[] = [];

afterEach(async () => {
  await Promise.all(rigs.map((rig) => rig.close()));
  rigs = [];
});

function rig(options: BurstWatchOptions, kubeConfig = adminKubeConfig()): Rig {
  let gets = 0;
  const kube = new KubeClient(kubeConfig, { onRequest: (info: KubeRequestInfo) => { if (info.verb === 'get') gets += 1; } });
  const said: string[] = [];
  const counts: number[] = [];
  const bursts = new BurstWatches(kube, { watching: (namespaces) => { counts.push(namespaces); }, info: (message) => { said.push(message); }, problem: (message, error) => { said.push(`problem: ${message}${error instanceof Error ? ` (${error.message})` : ''}`); } }, options);
  // No informer caches: every read is a GET unless a burst watch answers it.
  const answers = kubernetesQueries(kube, { caches: [], bursts });
  const runner: Reader = async (query) => answers['k8s.get'](query);
  const made: Rig = { runner, bursts, gets: () => gets, said, counts, close: async () => { await bursts.stop(); kube.close(); } };
  rigs.push(made);
  return made;
}

/** A namespace holding `count` Secrets named secret-<i>, each with its own value. */
async function namespaceWithSecrets(prefix: string, count: number): Promise<string> {
  const namespace = await createTestNamespace(prefix);
  const kube = new KubeClient(adminKubeConfig());
  try {
    for (let i = 0; i < count; i++) {
      const name = `secret-${String(i)}`;
      await kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { value: `value-${String(i)}` } });
    }
  } finally {
    kube.close();
  }
  return namespace;
}

function secretQuery(namespace: string, name: string, { optIn = true, fields }: { optIn?: boolean; fields?: string } = {}): GetQuery {
  const onBurst: BurstRead = { watch: 'namespace', ...(fields === undefined ? {} : { fields }) };
  return { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name }, ...(optIn ? { onBurst } : {}) };
}

async function valueOf(runner: Reader, query: GetQuery): Promise<string | undefined> {
  const secret = await runner(query);
  const data = secret?.['data'] as Record<string, string> | undefined;
  return data?.['value'] === undefined ? undefined : Buffer.from(data['value'], 'base64').toString();
}

async function watching(bursts: BurstWatches, count: number): Promise<void> {
  await waitFor(() => Promise.resolve(bursts.size === count ? true : undefined), { what: `${String(count)} namespace watches`, timeoutMs: 20_000, intervalMs: 20 });
}

describe('burst watches against the real API server', () => {
  it('after a burst of reads in one namespace answers the rest from a watch of it, with the same results', async () => {
    const namespace = await namespaceWithSecrets('burst', SECRETS);
    const { runner, bursts, gets, said } = rig({ threshold: 8, windowMs: 60_000, idleMs: 60_000 });
    for (let i = 0; i < 8; i++) expect(await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`))).toBe(`value-${String(i)}`);
    expect(gets()).toBe(8);
    await watching(bursts, 1);
    expect(said).toContain('many reads in one namespace: watching it while they last');

    for (let i = 8; i < SECRETS; i++) expect(await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`))).toBe(`value-${String(i)}`);
    expect(gets()).toBe(8);

    // A miss is not trusted: it asks the API, which finds nothing either.
    expect(await valueOf(runner, secretQuery(namespace, 'no-such-secret'))).toBeUndefined();
    expect(gets()).toBe(9);
    // Reads that did not opt in are GETs whatever is watched.
    expect(await valueOf(runner, secretQuery(namespace, 'secret-0', { optIn: false }))).toBe('value-0');
    expect(gets()).toBe(10);
  });

  it('sees a Secret written after the watch started, and its later edits', async () => {
    const namespace = await namespaceWithSecrets('burst-new', 8);
    const { runner, bursts } = rig({ threshold: 8, windowMs: 60_000, idleMs: 60_000 });
    for (let i = 0; i < 8; i++) await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`));
    await watching(bursts, 1);
    const writer = new KubeClient(adminKubeConfig());
    try {
      const ref = { type: coreTypes.secret, namespace, name: 'late' };
      await writer.create(ref, { metadata: { name: 'late' }, stringData: { value: 'first' } });
      expect(await valueOf(runner, secretQuery(namespace, 'late'))).toBe('first');
      await writer.patch(ref, { stringData: { value: 'second' } }, 'application/merge-patch+json');
      await waitFor(async () => ((await valueOf(runner, secretQuery(namespace, 'late'))) === 'second' ? true : undefined), { what: 'the edit', timeoutMs: 20_000, intervalMs: 50 });
    } finally {
      writer.close();
    }
  });

  it('holds only what the field selector selects; other objects are read by GET', async () => {
    const namespace = await namespaceWithSecrets('burst-fields', 8);
    const writer = new KubeClient(adminKubeConfig());
    try {
      for (const name of ['other-0', 'other-1']) {
        await writer.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, type: 'example.com/other', stringData: { value: name } });
      }
    } finally {
      writer.close();
    }
    const { runner, bursts, gets } = rig({ threshold: 8, windowMs: 60_000, idleMs: 60_000 });
    const opaque = { fields: 'type=Opaque' };
    for (let i = 0; i < 8; i++) await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`, opaque));
    await watching(bursts, 1);
    const before = gets();
    for (let i = 0; i < 8; i++) expect(await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`, opaque))).toBe(`value-${String(i)}`);
    expect(gets()).toBe(before);
    for (const name of ['other-0', 'other-1']) expect(await valueOf(runner, secretQuery(namespace, name, opaque))).toBe(name);
    expect(gets()).toBe(before + 2);
  });

  it('stops watching once the reads stop', async () => {
    const namespace = await namespaceWithSecrets('burst-idle', 8);
    const { runner, bursts, said, counts } = rig({ threshold: 8, windowMs: 60_000, idleMs: 2_000 });
    for (let i = 0; i < 8; i++) await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`));
    await watching(bursts, 1);
    await watching(bursts, 0);
    expect(said).toContain('the reads in the namespace stopped: no longer watching it');
    expect(counts).toEqual([1, 0]);
  });

  it('does not watch a namespace holding more objects than allowed: every read stays a GET', async () => {
    const namespace = await namespaceWithSecrets('burst-big', 20);
    const { runner, bursts, gets, said } = rig({ threshold: 4, windowMs: 60_000, idleMs: 60_000, maxObjects: 10 });
    for (let i = 0; i < 4; i++) await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`));
    await waitFor(() => Promise.resolve(said.length > 0 ? true : undefined), { what: 'the size check', timeoutMs: 20_000, intervalMs: 20 });
    expect(said).toEqual(['many reads in one namespace, but it is too big to watch: reading each object']);
    for (let i = 4; i < 20; i++) expect(await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`))).toBe(`value-${String(i)}`);
    expect(gets()).toBe(20);
    expect(bursts.size).toBe(0);
  });

  it('gives up the watch when the API server refuses it, and reads each object again', async () => {
    const namespace = await namespaceWithSecrets('burst-refused', 20);
    const admin = new KubeClient(adminKubeConfig());
    try {
      // Allowed to read and list Secrets here, not to watch them.
      const rbac = (kind: string, plural: string) => ({ group: 'rbac.authorization.k8s.io', version: 'v1', kind, plural, namespaced: true });
      await admin.create({ type: rbac('Role', 'roles'), namespace, name: 'read-secrets' }, { metadata: { name: 'read-secrets' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }] });
      await admin.create({ type: rbac('RoleBinding', 'rolebindings'), namespace, name: 'read-secrets' }, {
        metadata: { name: 'read-secrets' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-secrets' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace }],
      });
    } finally {
      admin.close();
    }
    const identity = await serviceAccountIdentity(namespace, 'reader');
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(identity.kubeconfig);
    const { runner, bursts, gets, said } = rig({ threshold: 4, windowMs: 60_000, idleMs: 60_000 }, kubeConfig);
    for (let i = 0; i < 4; i++) await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`));
    await waitFor(() => Promise.resolve(said.includes('the namespace watch ran into trouble: reading each object again') ? true : undefined), { what: 'the refused watch', timeoutMs: 20_000, intervalMs: 20 });
    expect(said.some((line) => line.includes('the watch failed') && line.includes('Forbidden'))).toBe(true);
    const before = gets();
    for (let i = 4; i < 20; i++) expect(await valueOf(runner, secretQuery(namespace, `secret-${String(i)}`))).toBe(`value-${String(i)}`);
    expect(gets() - before).toBe(16);
    expect(bursts.size).toBe(0);
  });
});
