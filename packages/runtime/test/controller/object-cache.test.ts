import { describe, expect, it } from '@jest/globals';
import { coreTypes, type KubeObject } from '@keyward/kernel';
import { ObjectCache, cachedForm, diffSnapshot, keyOf, type InformerEvent } from '../../src/controller/object-cache.js';

function secret(name: string, resourceVersion: string, namespace = 'ns'): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, resourceVersion, namespace } };
}

function snapshot(...objects: KubeObject[]): Map<string, KubeObject> {
  return new Map(objects.map((object) => [keyOf(object), object]));
}

/** Events as "type name@rv" (and "<-rv" for the old version of an update), for readable tables. */
function summary(events: readonly InformerEvent[]): string[] {
  return events.map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion ?? '?'}${e.type === 'updated' ? `<-${e.old.metadata.resourceVersion ?? '?'}` : ''}`);
}

describe('diffSnapshot (what a relist delivers)', () => {
  const a1 = secret('a', '1');
  const a2 = secret('a', '2');
  const b1 = secret('b', '1');
  const c3 = secret('c', '3');

  it.each<{ name: string; old: KubeObject[]; list: KubeObject[]; events: string[] }>([
    { name: 'first list: everything is added, in list order', old: [], list: [b1, a1], events: ['added b@1', 'added a@1'] },
    { name: 'nothing changed: no events', old: [a1, b1], list: [a1, b1], events: [] },
    { name: 'a changed resourceVersion: updated with the old object', old: [a1], list: [a2], events: ['updated a@2<-1'] },
    { name: 'b is gone: deleted with its last known state', old: [a1, b1], list: [a1], events: ['deleted b@1'] },
    { name: 'empty list: everything is deleted', old: [a1, b1], list: [], events: ['deleted a@1', 'deleted b@1'] },
    { name: 'all at once', old: [a1, b1], list: [a2, c3], events: ['updated a@2<-1', 'added c@3', 'deleted b@1'] },
    {
      name: 'same name in another namespace is another object',
      old: [secret('a', '1', 'x')],
      list: [secret('a', '1', 'y')],
      events: ['added a@1', 'deleted a@1'],
    },
  ])('$name', ({ old, list, events }) => {
    const result = diffSnapshot(snapshot(...old), list);
    expect(summary(result.events)).toEqual(events);
    expect([...result.objects.values()]).toEqual(list);
  });

  it('an object without resourceVersion always counts as updated', () => {
    const bare: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'ns' } };
    expect(summary(diffSnapshot(snapshot(bare), [bare]).events)).toEqual(['updated a@?<-?']);
  });

  it('does not change the old snapshot', () => {
    const old = snapshot(a1, b1);
    diffSnapshot(old, [c3]);
    expect([...old.keys()]).toEqual(['ns/a', 'ns/b']);
  });
});

describe('ObjectCache', () => {
  it.each<{ name: string; steps: (['upsert' | 'remove', KubeObject])[]; events: string[]; keys: string[] }>([
    { name: 'upsert of a new object adds it', steps: [['upsert', secret('a', '1')]], events: ['added a@1'], keys: ['ns/a'] },
    { name: 'upsert with a new resourceVersion updates', steps: [['upsert', secret('a', '1')], ['upsert', secret('a', '2')]], events: ['added a@1', 'updated a@2<-1'], keys: ['ns/a'] },
    { name: 'upsert with the same resourceVersion is no event', steps: [['upsert', secret('a', '1')], ['upsert', secret('a', '1')]], events: ['added a@1'], keys: ['ns/a'] },
    { name: 'remove of a cached object deletes it', steps: [['upsert', secret('a', '1')], ['remove', secret('a', '2')]], events: ['added a@1', 'deleted a@2'], keys: [] },
    { name: 'remove of an unknown object is no event', steps: [['remove', secret('a', '2')]], events: [], keys: [] },
    { name: 'cluster-scoped objects are keyed by name', steps: [['upsert', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', resourceVersion: '1' } }]], events: ['added n@1'], keys: ['n'] },
  ])('$name', ({ steps, events, keys }) => {
    const cache = new ObjectCache();
    const delivered = steps.flatMap(([op, object]) => {
      const event = op === 'upsert' ? cache.upsert(object) : cache.remove(object);
      return event === undefined ? [] : [event];
    });
    expect(summary(delivered)).toEqual(events);
    expect(cache.keys()).toEqual(keys);
  });

  it('replace swaps the content and reports the difference', () => {
    const cache = new ObjectCache();
    cache.upsert(secret('a', '1'));
    cache.upsert(secret('b', '1'));
    expect(summary(cache.replace([secret('a', '1'), secret('c', '5')]))).toEqual(['added c@5', 'deleted b@1']);
    expect(cache.keys()).toEqual(['ns/a', 'ns/c']);
    expect(cache.get('ns', 'b')).toBeUndefined();
    expect(cache.get('ns', 'c')?.metadata.resourceVersion).toBe('5');
  });

  it('lists all objects or those of one namespace', () => {
    const cache = new ObjectCache();
    cache.replace([secret('a', '1', 'x'), secret('b', '1', 'y'), secret('c', '1', 'x')]);
    expect(cache.list().map(keyOf)).toEqual(['x/a', 'y/b', 'x/c']);
    expect(cache.list('x').map(keyOf)).toEqual(['x/a', 'x/c']);
    expect(cache.list('z')).toEqual([]);
    expect(cache.size).toBe(3);
  });
});

describe('cachedForm', () => {
  it('drops managedFields and keeps everything else', () => {
    const object = cachedForm(coreTypes.secret, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'a', namespace: 'ns', resourceVersion: '7', labels: { app: 'x' }, managedFields: [{ manager: 'keyward' }] },
      data: { key: 'dmFsdWU=' },
    });
    expect(object).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'ns', resourceVersion: '7', labels: { app: 'x' } }, data: { key: 'dmFsdWU=' } });
    expect('managedFields' in object.metadata).toBe(false);
  });

  it.each([
    { name: 'missing', given: {}, expected: { apiVersion: 'apps/v1', kind: 'Deployment' } },
    { name: 'empty', given: { apiVersion: '', kind: '' }, expected: { apiVersion: 'apps/v1', kind: 'Deployment' } },
    { name: 'present (kept as sent)', given: { apiVersion: 'apps/v1beta2', kind: 'Deployment' }, expected: { apiVersion: 'apps/v1beta2', kind: 'Deployment' } },
  ])('fills apiVersion and kind from the type when $name', ({ given, expected }) => {
    expect(cachedForm(coreTypes.deployment, { ...given, metadata: { name: 'd' } })).toMatchObject(expected);
  });
});
