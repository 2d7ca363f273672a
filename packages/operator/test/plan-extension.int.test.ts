// `keyward plan` shows the steps of a controller and an API the operator was not built with, through the same
// code that plans the operator's own: a program embedding Keyward passes its controller modules and APIs.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminKubeConfig, createTestNamespace, testEnvironment } from '@keyward/test-env';
import { coreTypes, defineControllerModule } from '@keyward/kernel';
import { KubeClient, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Ledger, RECORD_LABEL, ledgerController, ledgerRuntime } from '../../../test/extension/ledger.js';
import { erasedModule } from '../src/controllers.js';
import { parsePlanConfig } from '../src/config.js';
import { planCommand, type PlanCatalog } from '../src/plan.js';

const ledgerModule = defineControllerModule({ definition: ledgerController, defaultConfig: null, options: {}, rbac: [], crds: [] });

let kube: KubeClient;
let namespace: string;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('plan-ledger');
  await kube.create({ type: coreTypes.configMap, namespace, name: 'greeting' }, { metadata: { name: 'greeting', labels: { [RECORD_LABEL]: 'true' } }, data: { message: 'hello' } });
}, 120_000);

afterAll(() => {
  kube.close();
});

describe('keyward plan with controllers of an embedding program', () => {
  it('renders the steps of an API module written outside core, and runs none of them', async () => {
    const ledger = new Ledger();
    const catalog: PlanCatalog = {
      // The ledger module's kinds are all handled by the APIs below.
      modules: [erasedModule(ledgerModule)],
      apis: (client) => apiSet(kubernetesRuntime(client, { reportingController: 'example.com/ledger', reportingInstance: 'plan' }), ledgerRuntime(ledger), controlRuntime),
    };
    const parsed = parsePlanConfig(['--kubeconfig', testEnvironment().kubeconfig, '--namespace', namespace, '--exit-code'], {});
    if (!parsed.ok) throw new Error(parsed.error);
    let output = '';
    const status = await planCommand({ ...parsed.config, controllers: ['ledger-recorder'] }, (text) => { output += text; }, catalog);
    expect(output).toContain(`ConfigMap ${namespace}/greeting`);
    expect(output).toContain('1. append an entry to the ledger');
    expect(output).toContain(`+ entry: "${namespace}/greeting: hello"`);
    expect(status).toBe(2);
    expect(ledger.entries).toEqual([]);
  });
});
