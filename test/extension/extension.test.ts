import { describe, expect, it } from '@jest/globals';
import { coreTypes, renderPlanText, InMemoryWorld, reconcileOnce } from '@keyward/kernel';
import { KubeClient, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller } from '@keyward/runtime/controller';
import { actionKinds } from '@keyward/kernel/testing';
import { KubeConfig } from '@kubernetes/client-node';
import { Ledger, RECORD_LABEL, entryOf, ledgerController, ledgerRuntime, simulateLedger } from './ledger.js';

const ref = { type: coreTypes.configMap, namespace: 'team', name: 'greeting' };

function world() {
  const w = new InMemoryWorld({ ledger: simulateLedger });
  w.put(coreTypes.configMap, { metadata: { name: 'greeting', namespace: 'team', labels: { [RECORD_LABEL]: 'true' } }, data: { message: 'hello' } });
  return w;
}

describe('an API module and a controller written outside core', () => {
  it('runs in the in-memory world: the ConfigMap is recorded once', async () => {
    const w = world();
    const first = await reconcileOnce(ledgerController, w, ref, { config: null });
    expect(first.result?.ok).toBe(true);
    expect(w.apis.ledger.ledger.entries).toEqual(['team/greeting: hello']);
    expect(w.events.map((event) => event.reason)).toEqual(['Recorded']);

    const second = await reconcileOnce(ledgerController, w, ref, { config: null });
    expect(second.decision.kind === 'planned' ? actionKinds(second.decision.plan) : 'not planned').toEqual([]);
    expect(w.apis.ledger.ledger.entries).toHaveLength(1);
  });

  it('renders its steps in a plan with the words its module gives them', async () => {
    const { decision } = await reconcileOnce(ledgerController, world(), ref, { config: null, dryRun: true });
    if (decision.kind !== 'planned') throw new Error(`expected a plan, got ${decision.kind}`);
    expect(renderPlanText(decision.plan, ledgerController.apis, 'ConfigMap team/greeting')).toBe([
      'ConfigMap team/greeting',
      '1. append an entry to the ledger',
      '   why: the ConfigMap is not in the ledger yet',
      '     + entry: "team/greeting: hello"',
      '2. record Normal event Recorded on ConfigMap team/greeting',
      '   why: say so',
      '     note: recorded in the ledger',
    ].join('\n'));
  });

  it('cannot be composed without its handler: the compiler refuses the API set', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({ clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
    const kube = new KubeClient(kubeConfig);
    const kubernetes = kubernetesRuntime(kube, { reportingController: 'example.com/ledger', reportingInstance: 'test' });
    const complete = new Controller(ledgerController, { kube, config: null, apis: apiSet(kubernetes, ledgerRuntime(new Ledger()), controlRuntime) });
    // @ts-expect-error -- no module in this set handles ledger.append or answers ledger.entries
    const incomplete = new Controller(ledgerController, { kube, config: null, apis: apiSet(kubernetes, controlRuntime) });
    expect([complete.name, incomplete.name]).toEqual(['ledger-recorder', 'ledger-recorder']);
    kube.close();
  });

  it('records what entryOf says', () => {
    expect(entryOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'b' }, data: { message: 'm' } })).toBe('b/a: m');
  });
});
