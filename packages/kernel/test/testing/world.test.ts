import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { coreTypes, type ObjectRef } from '../../src/model/refs.js';
import { sensitive } from '../../src/model/sensitive.js';
import type { KeystoneAction } from '../../src/apis/keystone/actions.js';
import { simulateKeystone } from '../../src/apis/keystone/simulator.js';
import type { KubeObject, KubernetesAction } from '../../src/apis/kubernetes/actions.js';
import type { GetQuery } from '../../src/apis/kubernetes/queries.js';
import { PlanBuilder, type Plan } from '../../src/plan/plan.js';
import { InMemoryWorld } from '../../src/testing/world.js';
import { isQuiet } from '../../src/testing/matchers.js';

const ref = (name: string): ObjectRef => ({ type: coreTypes.configMap, namespace: 'ns', name });
/** A get of ConfigMap `name`, typed so its answer is a KubeObject. */
const get = (name: string, options: Omit<GetQuery, 'kind' | 'ref'> = {}): GetQuery => ({ kind: 'k8s.get', ref: ref(name), ...options });

/** A toy policy: ConfigMap "target" must hold `data`. */
function ensureConfigMap(observed: KubeObject | undefined, data: Record<string, string>): Plan<KubernetesAction> {
  const plan = new PlanBuilder<KubernetesAction>();
  if (observed === undefined) {
    plan.add({ kind: 'k8s.create', ref: ref('target'), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target', namespace: 'ns' }, data } }, 'missing');
  } else if (JSON.stringify(observed['data']) !== JSON.stringify(data)) {
    plan.add({ kind: 'k8s.patch', ref: ref('target'), patch: { type: 'merge', body: { data } }, precondition: { resourceVersion: observed.metadata.resourceVersion ?? '' } }, 'drifted');
  }
  return plan.build();
}

describe('InMemoryWorld', () => {
  it('records an event note as the real handler writes it: escaped', async () => {
    const world = new InMemoryWorld();
    const plan = new PlanBuilder<KubernetesAction>();
    plan.add({ kind: 'k8s.event', regarding: ref('target'), type: 'Warning', reason: 'InvalidSpec', note: 'secret "a\u202Eb" is\ninvalid', action: 'Validate' }, 'tell');
    await world.run(plan.build());
    expect(world.events.map((e) => e.note)).toEqual(['secret "a\\u{202E}b" is\\u{000A}invalid']);
  });

  it('supports convergence tests: reconcile, apply, reconcile again gives nothing to do', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }).filter((k) => /^[a-z]+$/.test(k)), fc.string(), { maxKeys: 4 }), async (data) => {
        const world = new InMemoryWorld();
        const first = await world.run(ensureConfigMap(world.get(ref('target')), data));
        expect(first.ok).toBe(true);
        expect(isQuiet(ensureConfigMap(world.get(ref('target')), data))).toBe(true);
      }),
    );
  });

  it('answers a whenAbsent get only when the get it names found nothing', () => {
    const world = new InMemoryWorld();
    world.put(coreTypes.configMap, { metadata: { name: 'source', namespace: 'ns' } });
    const queries = { copy: get('copy'), source: get('source', { whenAbsent: 'copy' }) };
    expect(world.query(queries).source?.metadata.name).toBe('source');
    world.put(coreTypes.configMap, { metadata: { name: 'copy', namespace: 'ns' } });
    expect(world.query(queries)).toEqual({ copy: expect.objectContaining({ metadata: expect.objectContaining({ name: 'copy' }) as unknown }) as unknown, source: undefined });
    // Any kind of query may wait for another entry now, so the message names an entry rather than a get.
    expect(() => world.query({ source: get('source', { whenAbsent: 'nothing' }) })).toThrow('query source: whenAbsent must name another entry of the same observe');
  });

  it('reads an object without the labels a get requires as absent', () => {
    const world = new InMemoryWorld();
    world.put(coreTypes.configMap, { metadata: { name: 'foreign', namespace: 'ns' } });
    world.put(coreTypes.configMap, { metadata: { name: 'ours', namespace: 'ns', labels: { owner: 'us' } } });
    const answers = world.query({
      foreign: get('foreign', { requireLabels: { owner: 'us' } }),
      ours: get('ours', { requireLabels: { owner: 'us' } }),
    });
    expect({ foreign: answers.foreign?.metadata.name, ours: answers.ours?.metadata.name }).toEqual({ foreign: undefined, ours: 'ours' });
  });

  it('keeps objects with finalizers until the last one is removed, then collects their dependents', async () => {
    const world = new InMemoryWorld();
    const owner = world.put(coreTypes.configMap, { metadata: { name: 'owner', namespace: 'ns', finalizers: ['f'] } });
    world.put(coreTypes.secret, { metadata: { name: 'dependent', namespace: 'ns', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' }] } });
    const plan = new PlanBuilder<KubernetesAction>();
    plan.add({ kind: 'k8s.delete', ref: ref('owner') }, 'delete');
    await world.run(plan.build());
    expect(world.get(ref('owner'))?.metadata.deletionTimestamp).toBeDefined();

    const release = new PlanBuilder<KubernetesAction>();
    release.add({ kind: 'k8s.removeFinalizer', ref: ref('owner'), finalizer: 'f' }, 'release');
    await world.run(release.build());
    expect(world.get(ref('owner'))).toBeUndefined();
    expect(world.get({ type: coreTypes.secret, namespace: 'ns', name: 'dependent' })).toBeUndefined();
  });

  it('simulates Keystone: log in, create, list, revoke', async () => {
    const world = new InMemoryWorld({ keystone: simulateKeystone });
    const userId = world.apis.keystone.addUser('nova', 'pw');
    const plan = new PlanBuilder<KubernetesAction | KeystoneAction>();
    const auth = plan.add({ kind: 'keystone.authenticate', endpoint: 'memory', userName: 'nova', userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive('pw') }, 'log in');
    const created = plan.add({ kind: 'keystone.createApplicationCredential', session: auth.output('session'), name: 'c1', description: 'd', roles: ['service'], unrestricted: false }, 'create');
    plan.add(
      { kind: 'k8s.create', ref: { type: coreTypes.secret, namespace: 'ns', name: 's' }, object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' }, stringData: { id: created.output('id'), secret: created.output('secret') } } },
      'store',
    );
    expect((await world.run(plan.build())).ok).toBe(true);
    const [credential] = world.apis.keystone.credentials(userId);
    const stored = world.get({ type: coreTypes.secret, namespace: 'ns', name: 's' })?.['data'] as Record<string, string>;
    expect(world.apis.keystone.credentialWorks(credential?.id ?? '', Buffer.from(stored['secret'] ?? '', 'base64').toString())).toBe(true);

    const wrong = new PlanBuilder<KeystoneAction>();
    wrong.add({ kind: 'keystone.authenticate', endpoint: 'memory', userName: 'nova', userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive('nope') }, 'log in');
    expect((await world.run(wrong.build())).error).toMatchObject({ code: 401 });
  });
});
