import { describe, expect, it } from '@jest/globals';
import { coreTypes } from '../../src/model/refs.js';
import { vocabulary } from '../../src/plan/api.js';
import { PlanBuilder } from '../../src/plan/plan.js';
import { formatOutput } from '../../src/plan/values.js';
import { sensitive } from '../../src/model/sensitive.js';
import type { KeystoneAction } from '../../src/apis/keystone/actions.js';
import { simulateKeystone } from '../../src/apis/keystone/simulator.js';
import { kubernetesApi, type KubernetesAction } from '../../src/apis/kubernetes/index.js';
import { STOPPED, interpret } from '../../src/interpreter/interpret.js';
import type { Executor, HandlerTable } from '../../src/interpreter/types.js';
import { InMemoryWorld } from '../../src/testing/world.js';

const regarding = { type: coreTypes.secret, namespace: 'team-a', name: 'subject' };

const words = vocabulary(kubernetesApi);

/** Runs plans with the world's own Kubernetes handlers, or with `handlers` in their place. */
function executor(handlers: HandlerTable<KubernetesAction>): Executor<KubernetesAction> {
  return { handlers, vocabulary: words };
}

function threeEvents() {
  const plan = new PlanBuilder<KubernetesAction>();
  for (const reason of ['First', 'Second', 'Third']) {
    plan.add(
      { kind: 'k8s.event', regarding, type: 'Normal', reason, note: reason, action: 'Test' },
      `record ${reason}`,
      () => ({ action: { kind: 'k8s.event', regarding, type: 'Normal', reason: `Undo${reason}`, note: 'undo', action: 'Test' }, reason: 'undo' }),
    );
  }
  return plan.build();
}

describe('interpret with a signal', () => {
  it('starts no step once aborted, lets the running one finish, and runs no compensation', async () => {
    const world = new InMemoryWorld();
    const handlers = world.kube.handlers();
    const stopping = new AbortController();
    const result = await interpret(threeEvents(), executor({
      ...handlers,
      'k8s.event': async (action, context) => {
        // The stop arrives while the second step runs.
        if (action.reason === 'Second') stopping.abort();
        return handlers['k8s.event'](action, context);
      },
    }), { signal: stopping.signal });

    expect(result.steps.map((s) => s.outcome)).toEqual(['applied', 'applied', 'skipped']);
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ reason: STOPPED, retryable: true });
    expect(result.compensations).toEqual([]);
    expect(world.events.map((e) => e.reason)).toEqual(['First', 'Second']);
  });

  it('runs nothing when aborted before it starts, and everything when never aborted', async () => {
    const world = new InMemoryWorld();
    const stopped = await interpret(threeEvents(), executor(world.kube.handlers()), { signal: AbortSignal.abort() });
    expect(stopped.steps.map((s) => s.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(world.events).toEqual([]);

    const whole = await interpret(threeEvents(), executor(world.kube.handlers()), { signal: new AbortController().signal });
    expect(whole.ok).toBe(true);
    expect(world.events.map((e) => e.reason)).toEqual(['First', 'Second', 'Third']);
  });
});

describe('step summaries', () => {
  it('show an output known once its step ran: a name made from an id reads as the name, not "(known after apply)"', async () => {
    const world = new InMemoryWorld({ keystone: simulateKeystone });
    const userId = world.apis.keystone.addUser('nova', 'pw');
    const plan = new PlanBuilder<KubernetesAction | KeystoneAction>();
    const session = plan.add({ kind: 'keystone.authenticate', endpoint: 'memory', userName: 'nova', userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive('pw') }, 'log in').output('session');
    const id = plan.add({ kind: 'keystone.createApplicationCredential', session, name: 'c1', description: 'd', roles: ['service'], unrestricted: false }, 'create').output('id');
    const name = formatOutput(id, { before: 'nova-', length: 5, after: '-secret' });
    plan.add({ kind: 'k8s.create', ref: { type: coreTypes.secret, namespace: 'ns', name }, object: { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns' } } }, 'store');

    const result = await world.run(plan.build());
    const [created] = world.apis.keystone.credentials(userId);
    expect(result.steps[2]?.summary).toBe(`create Secret ns/nova-${(created?.id ?? '').slice(0, 5)}-secret`);
    expect(result.steps[2]?.summary).not.toContain('known after apply');
  });
});
