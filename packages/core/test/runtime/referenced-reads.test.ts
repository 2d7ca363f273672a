// Reads of objects a controller's primaries refer to: answered by their watch once it has listed (absent
// objects included), by the API server before that or when no watch covers them.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, type ResourceType, type KubeObject } from '@keyward/vocabulary';
import type { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesQueries } from '../../src/apis/kubernetes/io/queries.js';
import type { WatchedByReference } from '@keyward/vocabulary/interpreter';

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
    expect((await queries['k8s.list']({ kind: 'k8s.list', type: keystoneApis, namespace: 'ns' })).map((o) => o.metadata.name)).toEqual(['keystone']);
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
