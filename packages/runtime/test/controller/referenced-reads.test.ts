// Reads of objects a controller's primaries refer to: answered by their watch once it has listed (absent
// objects included), by the API server before that or when no watch covers them. A list of a type that may
// not be served is answered with undefined when it is not.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, type ResourceType, type KubeObject } from '@keyward/kernel';
import { type ListQuery } from '@keyward/kernel/plan';
import type { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesQueries } from '../../src/apis/kubernetes/io/queries.js';
import { KeywardError, type WatchedByReference } from '@keyward/kernel/interpreter';
import { ReferencedWatches } from '../../src/controller/referenced-watches.js';
import { queryReader } from '../../src/controller/query-reader.js';

const keystoneApis: ResourceType = { group: 'keystone.openstack.org', version: 'v1beta1', kind: 'KeystoneAPI', plural: 'keystoneapis', namespaced: true };
const object = (name: string, labels?: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns', ...(labels === undefined ? {} : { labels }) } });

/** A client that records what reaches the API server and answers every read with `fromServer`. */
function server(fromServer: KubeObject) {
  const asked: string[] = [];
  const kube = {
    get: (ref: { name: string }) => { asked.push(`get ${ref.name}`); return Promise.resolve(fromServer); },
    listAll: (type: ResourceType) => { asked.push(`list ${type.plural}`); return Promise.resolve({ items: [fromServer], resourceVersion: '1' }); },
  };
  return { asked, kube: kube as unknown as KubeClient };
}

/** The password Secret watched by name, and every KeystoneAPI of the namespace. */
const watched: WatchedByReference = {
  get: (type, namespace, name) => {
    if (namespace !== 'ns') return undefined;
    if (type.plural === 'secrets' && name === 'password') return { object: object('password') };
    if (type.plural === 'secrets' && name === 'gone') return { object: undefined };
    if (type.plural === 'keystoneapis') return { object: name === 'keystone' ? object('keystone') : undefined };
    return undefined;
  },
  list: (type, namespace) => (type.plural === 'keystoneapis' && namespace === 'ns' ? [object('keystone', { a: 'b' })] : undefined),
};

describe('reads of referenced objects', () => {
  it('are answered by their watch, an absent object too, without a request', async () => {
    const { asked, kube } = server(object('from-the-server'));
    const queries = kubernetesQueries(kube, { caches: [], referenced: watched });
    expect((await queries['k8s.get']({ kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: 'ns', name: 'password' } }))?.metadata.name).toBe('password');
    expect(await queries['k8s.get']({ kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: 'ns', name: 'gone' } })).toBeUndefined();
    expect((await queries['k8s.get']({ kind: 'k8s.get', ref: { type: keystoneApis, namespace: 'ns', name: 'keystone' } }))?.metadata.name).toBe('keystone');
    expect((await queries['k8s.list']({ kind: 'k8s.list', type: keystoneApis, namespace: 'ns' }))?.map((o) => o.metadata.name)).toEqual(['keystone']);
    expect(await queries['k8s.list']({ kind: 'k8s.list', type: keystoneApis, namespace: 'ns', labels: { a: 'c' } })).toEqual([]);
    // A label the read requires still decides.
    expect(await queries['k8s.get']({ kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: 'ns', name: 'password' }, requireLabels: { mine: 'yes' } })).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('go to the API server when no watch covers them (another name, another namespace, no watch at all)', async () => {
    const { asked, kube } = server(object('from-the-server'));
    const queries = kubernetesQueries(kube, { caches: [], referenced: watched });
    await queries['k8s.get']({ kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: 'ns', name: 'other' } });
    await queries['k8s.list']({ kind: 'k8s.list', type: keystoneApis, namespace: 'elsewhere' });
    await kubernetesQueries(kube, { caches: [] })['k8s.get']({ kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: 'ns', name: 'password' } });
    expect(asked).toEqual(['get other', 'list keystoneapis', 'get password']);
  });
});

describe('a list that asks only if the type is served', () => {
  const gizmos: ResourceType = { group: 'gizmo.example', version: 'v1', kind: 'Gizmo', plural: 'gizmos', namespaced: true };
  const notFound = () => new KeywardError({ api: 'kubernetes', code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', retryable: true });
  /** A client whose lists fail with `error`, counting them. */
  function failing(error: () => Error) {
    const asked: string[] = [];
    const kube = { listAll: (type: ResourceType) => { asked.push(`list ${type.plural}`); return Promise.reject(error()); } };
    return { asked, kube: kube as unknown as KubeClient };
  }

  it('is answered with the objects when the type is served, and with undefined when the API server says it is not', async () => {
    const { kube } = server(object('from-the-server'));
    expect((await kubernetesQueries(kube, { caches: [] })['k8s.list']({ kind: 'k8s.list', type: gizmos, namespace: 'ns', ifServed: true }))?.map((o) => o.metadata.name)).toEqual(['from-the-server']);
    const missing = failing(notFound);
    expect(await kubernetesQueries(missing.kube, { caches: [] })['k8s.list']({ kind: 'k8s.list', type: gizmos, namespace: 'ns', ifServed: true })).toBeUndefined();
    expect(missing.asked).toEqual(['list gizmos']);
  });

  it('still fails on any other error, and a list that needs the type still fails when it is not served', async () => {
    const refused = failing(() => new KeywardError({ api: 'kubernetes', code: 403, reason: 'Forbidden', message: 'forbidden', retryable: false }));
    await expect(kubernetesQueries(refused.kube, { caches: [] })['k8s.list']({ kind: 'k8s.list', type: gizmos, namespace: 'ns', ifServed: true })).rejects.toMatchObject({ code: 403 });
    const missing = failing(notFound);
    const read = queryReader(kubernetesQueries(missing.kube, { caches: [] }));
    const needed: ListQuery = { kind: 'k8s.list', type: gizmos, namespace: 'ns' };
    await expect(read(needed)).rejects.toMatchObject({ reason: 'CRDNotInstalled' });
  });

  it('is answered by a watch that found the type not served, without a request and without a word in the log', async () => {
    const missing = failing(notFound);
    const problems: string[] = [];
    const woken: string[] = [];
    const reporter = { problem: (message: string) => { problems.push(message); }, recovered: () => undefined, release: () => undefined };
    const watches = new ReferencedWatches(missing.kube, (owner) => { woken.push(owner); }, () => reporter);
    try {
      watches.track('ns/a', [{ type: gizmos, namespace: 'ns' }]);
      await waitUntil(() => watches.notServed(gizmos, 'ns'));
      expect(watches.notServed(gizmos, 'elsewhere')).toBe(false);
      const queries = kubernetesQueries(missing.kube, { caches: [], referenced: watches });
      const before = missing.asked.length;
      expect(await queries['k8s.list']({ kind: 'k8s.list', type: gizmos, namespace: 'ns', ifServed: true })).toBeUndefined();
      expect(missing.asked).toHaveLength(before);
      expect(problems).toEqual([]);
      expect(woken).toEqual([]);
    } finally {
      await watches.stop();
    }
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
