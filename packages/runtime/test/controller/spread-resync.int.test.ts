// A definition that spreads its resync, against the real API server: controllers of two namespaces share the
// process's one loop for their period, and it re-checks each of their objects once per round; a period of 0
// re-checks nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { vocabulary, PlanBuilder, controlApi, kubernetesApi, type ResourceType, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { controlRuntime, apiSet } from '@keyward/kernel/interpreter';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { Controller } from '../../src/controller/controller.js';
import { ResyncLoops, type ResyncLoop } from '../../src/controller/resync-loop.js';

const widgets: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };
const PERIOD_MS = 1_500;

type TestAction = KubernetesAction | ControlAction;

/** Reconciles per "namespace/name". */
const reconciles = new Map<string, number>();

/** A controller that only counts its reconciles, spreading its resync over `periodMs`. */
const spreading = (name: string, periodMs: number): ControllerDefinition<KubeObject, Record<string, never>, null, TestAction> => ({
  name,
  apis: vocabulary(kubernetesApi, controlApi),
  primary: { type: widgets, decode: (object) => right(object) },
  secondary: () => [],
  observe: () => ({}),
  reconcile: ({ primary }) => {
    const key = `${primary.metadata.namespace ?? ''}/${primary.metadata.name}`;
    reconciles.set(key, (reconciles.get(key) ?? 0) + 1);
    return new PlanBuilder<TestAction>().build();
  },
  reportFailure: () => new PlanBuilder<TestAction>().build(),
  reportInvalid: () => new PlanBuilder<TestAction>().build(),
  spreadResyncMs: () => periodMs,
});

/** The process's loops, recording which periods controllers asked for. */
class RecordingLoops extends ResyncLoops {
  readonly asked: number[] = [];
  override loop(periodMs: number): ResyncLoop {
    this.asked.push(periodMs);
    return super.loop(periodMs);
  }
}

let kube: KubeClient;
let teamA: string;
let teamB: string;
let quiet: string;
const loops = new RecordingLoops();
const controllers: Controller<KubeObject, Record<string, never>, null, TestAction>[] = [];

async function createWidget(namespace: string, name: string): Promise<void> {
  await kube.create({ type: widgets, namespace, name }, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size: 1, limit: 2 } });
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  [teamA, teamB, quiet] = await Promise.all(['spread-a', 'spread-b', 'spread-off'].map((prefix) => createTestNamespace(prefix))) as [string, string, string];
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), controlRuntime);
  for (const [namespace, definition] of [[teamA, spreading('spread', PERIOD_MS)], [teamB, spreading('spread', PERIOD_MS)], [quiet, spreading('spread-off', 0)]] as const) {
    const controller = new Controller(definition, { kube, apis, config: null, namespace, resyncLoops: loops });
    await controller.start();
    controllers.push(controller);
  }
  await Promise.all([createWidget(teamA, 'one'), createWidget(teamA, 'two'), createWidget(teamB, 'three'), createWidget(quiet, 'four')]);
});

afterAll(async () => {
  await Promise.all(controllers.map((controller) => controller.stop()));
  loops.stop();
  kube.close();
});

describe('a spread resync', () => {
  it('puts the controllers of one period in one loop, which re-checks each of their objects every round; a period of 0 joins none', async () => {
    expect(loops.asked).toEqual([PERIOD_MS, PERIOD_MS]);
    const spread = [`${teamA}/one`, `${teamA}/two`, `${teamB}/three`];
    // Created (one reconcile each), then checked by three rounds of the loop.
    await waitFor(async () => Promise.resolve(spread.every((key) => (reconciles.get(key) ?? 0) >= 4) ? true : undefined), { what: 'three rounds of the resync loop', timeoutMs: 60_000, intervalMs: 100 });
    // A round checks each key once: after three rounds no key is ahead of another by more than the round under way.
    const counts = spread.map((key) => reconciles.get(key) ?? 0);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    // The controller whose period is 0 reconciled its object when it was created, and never again.
    expect(reconciles.get(`${quiet}/four`)).toBe(1);
  });
});
