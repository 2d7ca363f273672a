import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { KubeClient, type KubeRequestInfo } from '../../src/apis/kubernetes/io/client.js';
import { coreTypes } from '@keyward/kernel';
import type { InformerEvent } from '../../src/controller/informer.js';
import { SharedInformers } from '../../src/controller/shared-informers.js';

let admin: KubeClient;
let namespace: string;
/**
 * The test's ConfigMaps carry this label and its informers select it: the controller manager publishes a
 * kube-root-ca.crt ConfigMap into every namespace, whenever it gets to it, and that one must not count.
 */
const OURS = { suite: 'shared-informers' };

beforeAll(async () => {
  admin = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('shared-informers');
  await admin.create({ type: coreTypes.configMap, namespace, name: 'first' }, { metadata: { name: 'first', labels: OURS }, data: { n: '1' } });
}, 120_000);

afterAll(() => {
  admin.close();
});

/** A client that counts its list and watch requests of ConfigMaps. */
function countingClient(): { client: KubeClient; requests: KubeRequestInfo[] } {
  const requests: KubeRequestInfo[] = [];
  const client = new KubeClient(adminKubeConfig(), { onRequest: (info) => { if (info.resource.includes('configmaps')) requests.push(info); } });
  return { client, requests };
}

describe('SharedInformers', () => {
  it('lists and watches a scope once for every user, and replays what it holds to a late one', async () => {
    const { client, requests } = countingClient();
    const informers = new SharedInformers(client);
    try {
      const first = informers.acquire({ type: coreTypes.configMap, namespace, labels: OURS });
      const firstSeen: string[] = [];
      first.subscribe((event: InformerEvent) => { firstSeen.push(`${event.type} ${event.object.metadata.name}`); });
      await first.start();

      const late = informers.acquire({ type: coreTypes.configMap, namespace, labels: OURS });
      const lateSeen: string[] = [];
      late.subscribe((event: InformerEvent) => { lateSeen.push(`${event.type} ${event.object.metadata.name}`); });
      await late.start();
      expect([informers.size, firstSeen, lateSeen]).toEqual([1, ['added first'], ['added first']]);

      await admin.create({ type: coreTypes.configMap, namespace, name: 'second' }, { metadata: { name: 'second', labels: OURS }, data: { n: '2' } });
      await waitFor(() => Promise.resolve(lateSeen.includes('added second') && firstSeen.includes('added second') ? true : undefined), { what: 'both users told', timeoutMs: 30_000, intervalMs: 50 });
      expect(requests.filter((request) => request.verb === 'list')).toHaveLength(1);

      // Another scope is another watch.
      const labelled = informers.acquire({ type: coreTypes.configMap, namespace, labels: { ...OURS, team: 'a' } });
      await labelled.start();
      expect(informers.size).toBe(2);
      expect(labelled.list()).toEqual([]);

      // The watch stays while someone uses it; the last release stops it.
      await first.release();
      expect(informers.size).toBe(2);
      await late.release();
      await labelled.release();
      expect(informers.size).toBe(0);
    } finally {
      await informers.stop();
      client.close();
    }
  });
});
