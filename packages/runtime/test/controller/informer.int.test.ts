import { createHook } from 'node:async_hooks';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { adminKubeConfig, createTestNamespace, startEnvironment, waitFor } from '@keyward/test-env';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { ContentType } from '../../src/apis/kubernetes/io/client.js';
import { coreTypes, type ResourceType, type KubeObject } from '@keyward/kernel';
import { Informer, type InformerEvent, type InformerOptions, type InformerStats } from '../../src/controller/informer.js';
import { loopbackKubeConfig } from './loopback-cluster.js';

/** The CRD the test environment installs; its watch cache starts when the CRD is created, long after RV 1. */
const widgetType: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };
const LABELS = { 'app.kubernetes.io/managed-by': 'keyward-informer-test' };

let client: KubeClient;
/** Informers a test started; stopped after it even when it fails. */
let running: Informer[] = [];

beforeAll(() => {
  client = new KubeClient(adminKubeConfig());
});

afterEach(async () => {
  await Promise.all(running.map((informer) => informer.stop()));
  running = [];
});

afterAll(() => {
  client.close();
});

interface Seen {
  readonly type: InformerEvent['type'];
  readonly key: string;
  readonly resourceVersion: string | undefined;
  /** The informer's stats when the event was delivered: tells a relist's events from a watch's. */
  readonly stats: InformerStats;
  readonly object: KubeObject;
}

interface Probe {
  readonly informer: Informer;
  readonly events: Seen[];
  readonly problems: string[];
}

function informerFor(kube: KubeClient, options: Omit<InformerOptions, 'onProblem'>): Probe {
  const problems: string[] = [];
  const informer = new Informer(kube, { ...options, onProblem: (message, error) => { problems.push(`${message}${error instanceof Error ? ` (${error.message})` : ''}`); } });
  const events: Seen[] = [];
  informer.subscribe((event) => {
    const { namespace, name, resourceVersion } = event.object.metadata;
    events.push({ type: event.type, key: `${namespace ?? ''}/${name}`, resourceVersion, stats: informer.stats(), object: event.object });
  });
  running.push(informer);
  return { informer, events, problems };
}

const secretRef = (namespace: string, name: string) => ({ type: coreTypes.secret, namespace, name });

function createSecret(kube: KubeClient, namespace: string, name: string, { labelled = true } = {}): Promise<KubeObject> {
  return kube.create(secretRef(namespace, name), { apiVersion: 'v1', kind: 'Secret', metadata: { name, ...(labelled ? { labels: LABELS } : {}) }, stringData: { key: name } });
}

function summary(events: readonly Seen[]): string[] {
  return events.map((e) => `${e.type} ${e.key}`);
}

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  await waitFor(() => Promise.resolve(condition() ? true : undefined), { what, timeoutMs, intervalMs: 50 });
}

function sorted(values: readonly string[]): string[] {
  return [...values].sort();
}

describe('Informer against the real API server', () => {
  it('initial list fills the cache and delivers one added event per object before start() resolves', async () => {
    const namespace = await createTestNamespace('inf-list');
    await Promise.all(['a', 'b', 'c'].map((name) => createSecret(client, namespace, name)));
    const { informer, events, problems } = informerFor(client, { type: coreTypes.secret, namespace });
    // A handler that throws is reported and does not keep the next ones from their events.
    informer.subscribe(() => { throw new Error('handler bug'); });
    const later: string[] = [];
    informer.subscribe((event) => { later.push(event.type); });
    expect(informer.hasSynced()).toBe(false);

    await informer.start();
    expect(later).toEqual(['added', 'added', 'added']);
    expect(problems.filter((p) => p.includes("a handler threw on the 'added' event") && p.includes('handler bug'))).toHaveLength(3);

    expect(informer.hasSynced()).toBe(true);
    expect(sorted(informer.keys())).toEqual([`${namespace}/a`, `${namespace}/b`, `${namespace}/c`]);
    expect(sorted(summary(events))).toEqual([`added ${namespace}/a`, `added ${namespace}/b`, `added ${namespace}/c`]);
    expect(informer.get(namespace, 'b')).toMatchObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'b', namespace } });
    expect(informer.list(namespace)).toHaveLength(3);
    expect(informer.list('elsewhere')).toEqual([]);
    expect(informer.stats()).toEqual({ lists: 1, relists: 0, watchRestarts: 0 });
  });

  it('create, update and delete arrive as events and keep the cache current', async () => {
    const namespace = await createTestNamespace('inf-crud');
    const { informer, events } = informerFor(client, { type: coreTypes.secret, namespace });
    const unsubscribed: string[] = [];
    const unsubscribe = informer.subscribe((event) => { unsubscribed.push(event.type); });
    await informer.start();
    expect(events).toEqual([]);
    unsubscribe();

    const created = await createSecret(client, namespace, 's');
    await until('the added event', () => events.length === 1);
    expect(events[0]).toMatchObject({ type: 'added', key: `${namespace}/s`, resourceVersion: created.metadata.resourceVersion });
    // Watch objects keep their type, so handlers can tell kinds apart.
    expect(events[0]?.object).toMatchObject({ apiVersion: 'v1', kind: 'Secret' });

    const patched = await client.patch(secretRef(namespace, 's'), { stringData: { key: 'changed' } }, ContentType.mergePatch);
    await until('the updated event', () => events.length === 2);
    const updated = events[1];
    expect(updated).toMatchObject({ type: 'updated', resourceVersion: patched.metadata.resourceVersion });
    expect(informer.get(namespace, 's')?.['data']).toEqual({ key: Buffer.from('changed').toString('base64') });

    expect(await client.delete(secretRef(namespace, 's'))).toBe(true);
    await until('the deleted event', () => events.length === 3);
    expect(events[2]).toMatchObject({ type: 'deleted', key: `${namespace}/s` });
    expect(informer.get(namespace, 's')).toBeUndefined();
    expect(informer.keys()).toEqual([]);
    expect(unsubscribed).toEqual([]);
  });

  it('updated events carry the previous object; a patch that changes nothing delivers none', async () => {
    const namespace = await createTestNamespace('inf-upd');
    const { informer, events } = informerFor(client, { type: coreTypes.secret, namespace });
    await informer.start();
    const created = await createSecret(client, namespace, 's');
    // A patch that changes nothing is a no-op on the server: no new resourceVersion, no event.
    await client.patch(secretRef(namespace, 's'), { metadata: { labels: LABELS } }, ContentType.mergePatch);
    const patched = await client.patch(secretRef(namespace, 's'), { metadata: { annotations: { touched: 'yes' } } }, ContentType.mergePatch);
    await until('the update', () => events.some((e) => e.resourceVersion === patched.metadata.resourceVersion));

    expect(summary(events)).toEqual([`added ${namespace}/s`, `updated ${namespace}/s`]);
    const last = events[1]?.object;
    expect(last?.metadata.annotations).toEqual({ touched: 'yes' });
    let old: KubeObject | undefined;
    informer.subscribe((event) => { if (event.type === 'updated') old = event.old; });
    await client.patch(secretRef(namespace, 's'), { metadata: { annotations: { touched: 'again' } } }, ContentType.mergePatch);
    await until('the second update', () => old !== undefined);
    expect(old?.metadata.resourceVersion).toBe(patched.metadata.resourceVersion);
    expect(old?.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
  });

  it('label selector: lists, watches and caches only matching objects', async () => {
    const namespace = await createTestNamespace('inf-labels');
    await createSecret(client, namespace, 'listed');
    await createSecret(client, namespace, 'unlisted', { labelled: false });
    const { informer, events } = informerFor(client, { type: coreTypes.secret, namespace, labels: LABELS });
    await informer.start();
    expect(informer.keys()).toEqual([`${namespace}/listed`]);

    await createSecret(client, namespace, 'unlabelled', { labelled: false });
    await createSecret(client, namespace, 'labelled');
    // The labelled Secret was created after the unlabelled one, so once it is seen the other would have been too.
    await until('the labelled Secret', () => informer.get(namespace, 'labelled') !== undefined);

    // Gaining the label makes an object appear; losing it makes it disappear.
    await client.patch(secretRef(namespace, 'unlisted'), { metadata: { labels: LABELS } }, ContentType.mergePatch);
    await until('the newly labelled Secret', () => informer.get(namespace, 'unlisted') !== undefined);
    await client.patch(secretRef(namespace, 'listed'), { metadata: { labels: null } }, ContentType.mergePatch);
    await until('the unlabelled Secret to leave', () => informer.get(namespace, 'listed') === undefined);

    expect(summary(events)).toEqual([`added ${namespace}/listed`, `added ${namespace}/labelled`, `added ${namespace}/unlisted`, `deleted ${namespace}/listed`]);
    expect(sorted(informer.keys())).toEqual([`${namespace}/labelled`, `${namespace}/unlisted`]);
  });

  it('strips managedFields from cached objects and from events', async () => {
    const namespace = await createTestNamespace('inf-mf');
    const listed = await createSecret(client, namespace, 'listed');
    expect(listed.metadata['managedFields']).toBeDefined();
    const { informer, events } = informerFor(client, { type: coreTypes.secret, namespace });
    await informer.start();
    const watched = await createSecret(client, namespace, 'watched');
    expect(watched.metadata['managedFields']).toBeDefined();
    await until('the watched Secret', () => events.length === 2);

    for (const object of [...informer.list(), ...events.map((e) => e.object)]) {
      expect(object.metadata).not.toHaveProperty('managedFields');
      expect(object.metadata.uid).toBeDefined();
    }
  });

  it('a 410 Gone relists and replaces the cache: missed deletes, updates and creates become events', async () => {
    const namespace = await createTestNamespace('inf-410');
    const widgetRef = (name: string) => ({ type: widgetType, namespace, name });
    const createWidget = (name: string) => client.create(widgetRef(name), { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size: 1, limit: 10 } });
    await Promise.all(['keep', 'change', 'gone'].map(createWidget));
    // A long first backoff keeps the informer blind between the 410 and its relist, while the test changes things.
    const backoffMs = 4_000;
    const { informer, events, problems } = informerFor(client, { type: widgetType, namespace, backoff: { baseMs: backoffMs } });
    await informer.start();
    expect(events).toHaveLength(3);

    // The widgets' watch cache began when their CRD was created: resourceVersion 1 is too old for it.
    informer.restartWatchFrom('1');
    await until('the 410', () => problems.some((p) => p.includes('too old resource version')));
    const restartsBeforeRelist = informer.stats().watchRestarts;
    expect(informer.stats().relists).toBe(0);

    await client.delete(widgetRef('gone'));
    const changed = await client.patch(widgetRef('change'), { spec: { size: 2 } }, ContentType.mergePatch);
    await createWidget('new');
    // Still blind: otherwise the changes below could have come from the next watch rather than from the relist.
    expect(informer.stats().relists).toBe(0);

    await until('the relisted cache', () => sorted(informer.keys()).join() === [`${namespace}/change`, `${namespace}/keep`, `${namespace}/new`].join());
    expect(informer.get(namespace, 'change')?.metadata.resourceVersion).toBe(changed.metadata.resourceVersion);
    const fromRelist = events.slice(3);
    expect(sorted(summary(fromRelist))).toEqual([`added ${namespace}/new`, `deleted ${namespace}/gone`, `updated ${namespace}/change`]);
    // Delivered by the relist itself: before any further watch was opened.
    for (const event of fromRelist) expect(event.stats).toEqual({ lists: 2, relists: 1, watchRestarts: restartsBeforeRelist });
    expect(fromRelist.find((e) => e.type === 'deleted')?.object.metadata.name).toBe('gone');

    // And the informer watches again afterwards.
    await createWidget('after');
    await until('a widget created after the relist', () => informer.get(namespace, 'after') !== undefined);
    expect(informer.stats().relists).toBe(1);
  });

  it('watchdog: restarts a silent watch from the last resourceVersion and keeps following changes', async () => {
    const namespace = await createTestNamespace('inf-quiet');
    await createSecret(client, namespace, 'before');
    const { informer, events, problems } = informerFor(client, { type: coreTypes.secret, namespace, silenceTimeoutMs: 1_000, watchTimeoutSeconds: 120 });
    await informer.start();

    await until('two watchdog restarts', () => informer.stats().watchRestarts >= 2, 10_000);
    expect(problems.filter((p) => p.includes('silent'))).not.toHaveLength(0);

    await createSecret(client, namespace, 'after');
    await until('the Secret created after the restarts', () => informer.get(namespace, 'after') !== undefined);
    expect(summary(events)).toEqual([`added ${namespace}/before`, `added ${namespace}/after`]);
    // Restarted watches resume from the last resourceVersion: no relist.
    expect(informer.stats()).toMatchObject({ lists: 1, relists: 0 });
  });

  it('resumes from the last resourceVersion, without relisting, when the server ends a watch', async () => {
    const namespace = await createTestNamespace('inf-timeout');
    const { informer, events } = informerFor(client, { type: coreTypes.secret, namespace, watchTimeoutSeconds: 1 });
    await informer.start();
    await until('two server-side watch timeouts', () => informer.stats().watchRestarts >= 2, 10_000);
    await createSecret(client, namespace, 'later');
    await client.delete(secretRef(namespace, 'later'));
    await until('the Secret created and deleted after the timeouts', () => events.length === 2);
    // Watching again from the list's resourceVersion would replay the add and the delete.
    const restarts = informer.stats().watchRestarts;
    await until('two more server-side watch timeouts', () => informer.stats().watchRestarts >= restarts + 2, 10_000);
    expect(summary(events)).toEqual([`added ${namespace}/later`, `deleted ${namespace}/later`]);
    expect(informer.keys()).toEqual([]);
    expect(informer.stats()).toMatchObject({ lists: 1, relists: 0 });
  });

  it('stop() leaves no watch, socket or timer behind', async () => {
    const namespace = await createTestNamespace('inf-stop');
    const handles = trackHandles();
    const own = new KubeClient(adminKubeConfig());
    try {
      const stopped = informerFor(own, { type: coreTypes.secret, namespace });
      const witness = informerFor(own, { type: coreTypes.secret, namespace });
      await Promise.all([stopped.informer.start(), witness.informer.start()]);
      await createSecret(own, namespace, 'one');
      await until('both watches to deliver', () => stopped.events.length === 1 && witness.events.length === 1);
      // Two watch connections and two watchdog timers at least: the probe sees what an informer holds.
      expect(handles.referenced().filter((type) => type === 'TCPWRAP').length).toBeGreaterThanOrEqual(2);
      expect(handles.referenced().filter((type) => type === 'Timeout').length).toBeGreaterThanOrEqual(2);

      await stopped.informer.stop();
      await createSecret(own, namespace, 'two');
      await until('the witness to see the second Secret', () => witness.events.length === 2);
      expect(summary(stopped.events)).toEqual([`added ${namespace}/one`]);

      await witness.informer.stop();
    } finally {
      own.close();
    }
    await handles.released('sockets and timers to be released');
  });

  it('keeps retrying the first list while the server is unreachable; stop() then rejects start() and clears the retry timer', async () => {
    const port = await closedPort();
    const own = new KubeClient(loopbackKubeConfig(port));
    const handles = trackHandles();
    const { informer, problems } = informerFor(own, { type: coreTypes.secret, backoff: { baseMs: 1_000 } });
    const started = informer.start();
    await until('two failed lists', () => problems.length >= 2);
    expect(problems[0]).toMatch(/list failed; retrying in 1000 ms/);
    expect(problems[1]).toMatch(/list failed; retrying in 2000 ms/);
    expect(informer.hasSynced()).toBe(false);

    // stop() lands in the 2 s pause: it must end the wait and clear its timer, so no third list is tried.
    await informer.stop();
    expect(problems).toHaveLength(2);
    await expect(started).rejects.toThrow(/stopped before its first list/);
    own.close();
    await handles.released('the retry timer to be cleared', 1_000);
  });

  it('start() after stop() rejects', async () => {
    const { informer } = informerFor(client, { type: coreTypes.secret, namespace: 'default' });
    await informer.stop();
    await expect(informer.start()).rejects.toThrow(/stopped/);
  });
});

describe('Informer across a kube-apiserver restart (its own environment)', () => {
  it('misses no delete made right after the restart', async () => {
    const env = await startEnvironment({ ownership: 'session', keystone: false, log: () => undefined });
    try {
      const kube = new KubeClient(env.kubeConfig());
      const namespace = 'default';
      await createSecret(kube, namespace, 'a');
      await createSecret(kube, namespace, 'b');
      const { informer, events, problems } = informerFor(kube, { type: coreTypes.secret, namespace, labels: LABELS });
      await informer.start();
      expect(sorted(informer.keys())).toEqual(['default/a', 'default/b']);

      const restartStarted = performance.now();
      const noticed = until('the informer to notice', () => problems.length > 0, 60_000).then(() => performance.now());
      await env.restartComponent('kube-apiserver');
      const ready = performance.now();

      const fresh = new KubeClient(env.kubeConfig());
      try {
        expect(await fresh.delete(secretRef(namespace, 'b'))).toBe(true);
        await createSecret(fresh, namespace, 'c');
      } finally {
        fresh.close();
      }
      await until('the cache to be exactly {a, c}', () => sorted(informer.keys()).join() === 'default/a,default/c', 60_000);
      const followed = performance.now();

      expect(summary(events.filter((e) => e.key === 'default/b'))).toEqual(['added default/b', 'deleted default/b']);
      expect(summary(events.filter((e) => e.key === 'default/c'))).toEqual(['added default/c']);
      expect(informer.stats().watchRestarts).toBeGreaterThan(0);
      expect(problems.some((p) => p.includes('watch'))).toBe(true);
      process.stderr.write(
        `[informer] apiserver restart took ${ms(ready - restartStarted)}; noticed after ${ms((await noticed) - restartStarted)}; cache followed ${ms(followed - ready)} after it was ready; ` +
          `stats ${JSON.stringify(informer.stats())}; b deleted at ${JSON.stringify(events.find((e) => e.type === 'deleted')?.stats)}; problems:\n  ${problems.join('\n  ')}\n`,
      );
      await informer.stop();
      kube.close();
    } finally {
      await Promise.all(running.map((informer) => informer.stop()));
      running = [];
      await env.stop();
    }
  }, 300_000);
});

/**
 * Follows the timers and TCP handles created from now on, to tell which are still alive and referenced, i.e.
 * would keep the Node process running (Watch's own unreferenced 30 s AbortSignal timer does not count).
 * `released` stops following new ones (the polling's own sleeps) and waits until the followed ones are gone.
 */
function trackHandles(): { referenced: () => string[]; released: (what: string, timeoutMs?: number) => Promise<void> } {
  const live = new Map<number, { readonly type: string; readonly resource: unknown }>();
  let following = true;
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (following && (type === 'Timeout' || type === 'TCPWRAP')) live.set(id, { type, resource });
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  const isReferenced = (resource: unknown): boolean =>
    !(typeof resource === 'object' && resource !== null && 'hasRef' in resource && typeof resource.hasRef === 'function') || (resource.hasRef as () => unknown)() === true;
  const referenced = (): string[] => [...live.values()].filter(({ resource }) => isReferenced(resource)).map(({ type }) => type);
  return {
    referenced,
    released: async (what, timeoutMs = 5_000) => {
      following = false;
      try {
        await until(what, () => referenced().length === 0, timeoutMs);
      } finally {
        hook.disable();
      }
    },
  };
}

function ms(value: number): string {
  return `${(value / 1000).toFixed(1)} s`;
}

/** A loopback port nothing listens on: one the OS just handed out and that was closed again. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}
