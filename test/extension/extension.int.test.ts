import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { coreTypes } from '@keyward/kernel';
import { KubeClient, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller } from '@keyward/runtime/controller';
import { Ledger, RECORD_LABEL, ledgerController, ledgerRuntime } from './ledger.js';

let kube: KubeClient;
let namespace: string;
const ledger = new Ledger();

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('ledger');
}, 120_000);

afterAll(() => {
  kube.close();
});

describe('an API module and a controller written outside core, against the real API server', () => {
  it('records a labelled ConfigMap in the ledger once, and ignores an unlabelled one', async () => {
    const running = new Controller(ledgerController, {
      kube,
      namespace,
      config: null,
      apis: apiSet(kubernetesRuntime(kube, { reportingController: 'example.com/ledger', reportingInstance: 'test' }), ledgerRuntime(ledger), controlRuntime),
    });
    await running.start();
    try {
      await kube.create({ type: coreTypes.configMap, namespace, name: 'plain' }, { metadata: { name: 'plain' }, data: { message: 'not for the ledger' } });
      await kube.create({ type: coreTypes.configMap, namespace, name: 'greeting' }, { metadata: { name: 'greeting', labels: { [RECORD_LABEL]: 'true' } }, data: { message: 'hello' } });
      await waitFor(() => Promise.resolve(ledger.entries.length > 0 ? true : undefined), { what: 'a ledger entry', timeoutMs: 60_000, intervalMs: 100 });
      const again = await running.reconcileKey(`${namespace}/greeting`);
      expect(again.plan?.steps).toEqual([]);
      expect(ledger.entries).toEqual([`${namespace}/greeting: hello`]);
    } finally {
      await running.stop();
    }
  });
});
