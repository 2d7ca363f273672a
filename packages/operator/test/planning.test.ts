import { describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { PlanBuilder, coreTypes, kubernetesApi, vocabulary, type AnyQuery, type ControllerDefinition, type GetQuery, type KubeObject, type KubernetesAction, type ListQuery } from '@keyward/core';
import { interpret } from '@keyward/core/interpreter';
import { NEW_UID, asApplied, namespaceOf } from '../src/planning/manifest.js';
import { planRounds } from '../src/planning/rounds.js';
import { KubeSandbox } from '../src/planning/sandbox.js';

const secret = (name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '4711', ...extra }, data: { key: 'dmFsdWU=' },
});

/** A cluster of `objects` that records every read it answers. */
function cluster(objects: readonly KubeObject[]): { read: (query: AnyQuery) => Promise<unknown>; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    read: (query) => {
      if (query.kind === 'k8s.get') {
        const { ref } = query as GetQuery;
        reads.push(`get ${ref.name}`);
        return Promise.resolve(objects.find((object) => object.metadata.name === ref.name));
      }
      reads.push(`list ${(query as ListQuery).type.plural}`);
      return Promise.resolve(objects);
    },
  };
}

const run = (sandbox: KubeSandbox, action: KubernetesAction) =>
  interpret({ steps: [{ id: 's1', action, reason: 'test' }] }, { handlers: sandbox.handlers(), vocabulary: vocabulary(kubernetesApi) });

describe('KubeSandbox', () => {
  it('reads each object from the cluster once, then answers from memory with the cluster\'s resourceVersion', async () => {
    const { read, reads } = cluster([secret('a'), secret('b')]);
    const sandbox = new KubeSandbox(read);
    const get: GetQuery = { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: 'ns', name: 'a' } };
    expect(await sandbox.read(get)).toEqual({ ...secret('a'), metadata: { ...secret('a').metadata, resourceVersion: '4711' } });
    await sandbox.read(get);
    const list: ListQuery = { kind: 'k8s.list', type: coreTypes.secret, namespace: 'ns' };
    expect(((await sandbox.read(list)) as KubeObject[]).map((object) => object.metadata.name)).toEqual(['a', 'b']);
    await sandbox.read(list);
    expect(reads).toEqual(['get a', 'list secrets']);
  });

  it('applies writes in memory only, and what they change shows in later reads', async () => {
    const { read, reads } = cluster([secret('a')]);
    const sandbox = new KubeSandbox(read);
    const ref = { type: coreTypes.secret, namespace: 'ns', name: 'a' };
    // A resourceVersion precondition guards against a stale view, which one writer cannot have.
    const labelled = await run(sandbox, { kind: 'k8s.patch', ref, patch: { type: 'merge', body: { metadata: { labels: { team: 'x' } } } }, precondition: { resourceVersion: 'stale' } });
    expect(labelled.ok).toBe(true);
    const changed = await sandbox.get(ref);
    expect(changed?.metadata.labels).toEqual({ team: 'x' });
    expect(changed?.metadata.resourceVersion).not.toBe('4711');

    expect((await run(sandbox, { kind: 'k8s.delete', ref })).ok).toBe(true);
    expect(await sandbox.get(ref)).toBeUndefined();
    expect(reads).toEqual(['get a']);
  });

  it('holds objects of a manifest in place of the cluster\'s', async () => {
    const { read, reads } = cluster([secret('a')]);
    const sandbox = new KubeSandbox(read);
    sandbox.hold(coreTypes.secret, { ...secret('a'), data: { key: 'bmV3' } });
    expect((await sandbox.get({ type: coreTypes.secret, namespace: 'ns', name: 'a' }))?.['data']).toEqual({ key: 'bmV3' });
    expect(reads).toEqual([]);
  });
});

describe('asApplied', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const document: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { x: '2' }, status: { ignored: true } };
  const sameData = (a: KubeObject, b: KubeObject): boolean => JSON.stringify(a['data']) === JSON.stringify(b['data']);

  it('creates a new object as the API server would: namespace, a uid known after apply, generation 1, no status', () => {
    expect(asApplied(document, 'ns', undefined, now, sameData)).toEqual({
      apiVersion: 'v1', kind: 'ConfigMap', data: { x: '2' },
      metadata: { name: 'c', labels: { a: 'b' }, namespace: 'ns', uid: NEW_UID, generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    });
  });

  it('applies the file\'s content, labels and annotations over the cluster\'s metadata and status, moving the generation on when the content changes', () => {
    const existing: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', uid: 'u', resourceVersion: '9', generation: 3, finalizers: ['f'] }, data: { x: '1' }, status: { kept: true } };
    expect(asApplied(document, 'ns', existing, now, sameData)).toEqual({
      apiVersion: 'v1', kind: 'ConfigMap', data: { x: '2' }, status: { kept: true },
      metadata: { name: 'c', namespace: 'ns', uid: 'u', resourceVersion: '9', generation: 4, finalizers: ['f'], labels: { a: 'b' } },
    });
    expect(asApplied({ ...document, data: { x: '1' } }, 'ns', existing, now, sameData).metadata.generation).toBe(3);
  });

  it('turns a Secret\'s stringData into data, as the API server does', () => {
    const applied = asApplied({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } }, 'ns', undefined, now, sameData);
    expect(applied['data']).toEqual({ k: 'dg==' });
    expect(applied['stringData']).toBeUndefined();
  });
});

describe('namespaceOf', () => {
  const object: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
  it('takes the file\'s namespace, else --namespace, else the kubeconfig\'s, and refuses a file that contradicts --namespace', () => {
    expect(namespaceOf(object, coreTypes.secret, undefined, 'default', 'f.yaml')).toBe('default');
    expect(namespaceOf(object, coreTypes.secret, 'flag', 'default', 'f.yaml')).toBe('flag');
    expect(namespaceOf({ ...object, metadata: { name: 's', namespace: 'own' } }, coreTypes.secret, undefined, 'default', 'f.yaml')).toBe('own');
    expect(() => namespaceOf({ ...object, metadata: { name: 's', namespace: 'own' } }, coreTypes.secret, 'flag', 'default', 'f.yaml')).toThrow('Secret s in f.yaml is in namespace own, not in --namespace flag');
    expect(namespaceOf(object, coreTypes.namespace, 'flag', 'default', 'f.yaml')).toBeUndefined();
  });
});

/** Labels a Secret that does not exist, and reports the failure as a Warning event. */
const labeller: ControllerDefinition<KubeObject, Record<string, never>, null, KubernetesAction> = {
  name: 'labeller',
  apis: vocabulary(kubernetesApi),
  primary: { type: coreTypes.secret, decode: right },
  secondary: () => [],
  observe: () => ({}),
  reconcile: () => {
    const plan = new PlanBuilder<KubernetesAction>();
    plan.add({ kind: 'k8s.patch', ref: { type: coreTypes.secret, namespace: 'ns', name: 'nowhere' }, patch: { type: 'merge', body: { metadata: { labels: { team: 'x' } } } } }, 'label it');
    return plan.build();
  },
  reportFailure: (primary, failure) => {
    const plan = new PlanBuilder<KubernetesAction>();
    plan.add({ kind: 'k8s.event', regarding: { type: coreTypes.secret, namespace: 'ns', name: primary.metadata.name }, type: 'Warning', reason: failure.reason, note: failure.message, action: 'Label' }, 'report');
    return plan.build();
  },
  reportInvalid: () => ({ steps: [] }),
};

describe('planRounds', () => {
  const rounds = (definition: typeof labeller) => {
    const sandbox = new KubeSandbox(cluster([secret('a')]).read);
    return planRounds(definition, secret('a'), { config: null, now: new Date('2026-03-01T12:00:00Z'), maxRounds: 6, sandbox, handlers: {} });
  };

  const strict: typeof labeller = { ...labeller, errorPolicy: () => ({ next: 'waitForChange', report: true }) };
  it.each([
    [labeller, 'retries with backoff'],
    [strict, 'waits for the object to change'],
  ])('ends at a step that fails in the sandbox, saying what the controller does next (%#)', async (definition, then) => {
    const outcome = await rounds(definition);
    expect(outcome).toMatchObject({ kind: 'planned', end: { kind: 'failed', message: expect.stringContaining('not found') as unknown, then } });
    expect(outcome.kind === 'planned' ? outcome.plans : []).toHaveLength(1);
  });
});
