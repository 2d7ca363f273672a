// The in-memory world applies as the API server does: each step below runs against both, and their results
// are compared, so the simulator is proven against the real thing rather than against our reading of it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminKubeConfig, createTestNamespace } from '@keyward/test-env';
import { ContentType, KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { FIELD_CONFLICT, type ApplyAction, type ObjectTemplate } from '@keyward/kernel/plan';
import { coreTypes, type KubeObject, type ObjectRef, type ResourceType } from '@keyward/kernel';
import { apiSet, interpret, type PlanResult } from '@keyward/kernel/interpreter';
import { InMemoryWorld } from '@keyward/kernel/testing';

const deploymentType: ResourceType = { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true };

let kube: KubeClient;
let namespace: string;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('ssa');
}, 120_000);

afterAll(() => {
  kube.close();
});

/** Both sides: the real API server and a world, each applying through its own handler. */
function sides() {
  const real = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }));
  const world = new InMemoryWorld();
  const apply = async (ref: ObjectRef, object: ObjectTemplate, force = false): Promise<[PlanResult, PlanResult]> => {
    const plan = { steps: [{ id: 's1', action: { kind: 'k8s.apply', ref, object, force } satisfies ApplyAction, reason: 'test' }] };
    return [await interpret(plan, real), await world.run(plan)];
  };
  return { world, apply };
}

/** What the comparison looks at: the fields a test states, without what each server adds of its own. */
function configMapView(object: KubeObject | undefined): unknown {
  return { labels: object?.metadata.labels, data: object?.['data'] };
}

describe('the in-memory world applies as the API server does', () => {
  it('removes fields a manager stops stating, keeps those others own, and refuses to take a field another manager owns unless forced', async () => {
    const { world, apply } = sides();
    const ref = { type: coreTypes.configMap, namespace, name: 'applied' };
    const body = (data: Record<string, string>, labels?: Record<string, string>): ObjectTemplate => ({
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace, ...(labels === undefined ? {} : { labels }) }, data,
    });
    const both = async (): Promise<[unknown, unknown]> => [configMapView(await kube.get(ref)), configMapView(world.get(ref))];

    await apply(ref, body({ x: '1', y: '2' }, { team: 'a' }));
    expect(await both()).toEqual([{ labels: { team: 'a' }, data: { x: '1', y: '2' } }, { labels: { team: 'a' }, data: { x: '1', y: '2' } }]);

    // Another writer adds a field of its own; we stop stating y and the label.
    await kube.patch(ref, { data: { z: 'theirs' } }, ContentType.mergePatch);
    world.update(ref, (object) => ({ ...object, data: { ...(object['data'] as object), z: 'theirs' } }));
    await apply(ref, body({ x: '1' }));
    const [real, simulated] = await both();
    expect(real).toEqual({ labels: undefined, data: { x: '1', z: 'theirs' } });
    expect(simulated).toEqual(real);

    // The other writer changes x: it owns x now, and our apply of another value conflicts, on both.
    await kube.patch(ref, { data: { x: 'edited' } }, ContentType.mergePatch);
    world.update(ref, (object) => ({ ...object, data: { ...(object['data'] as object), x: 'edited' } }));
    const [realConflict, worldConflict] = await apply(ref, body({ x: '1' }));
    expect([realConflict.error?.reason, realConflict.error?.retryable]).toEqual([FIELD_CONFLICT, false]);
    expect([worldConflict.error?.reason, worldConflict.error?.retryable]).toEqual([FIELD_CONFLICT, false]);

    // Forced, the apply takes x over.
    await apply(ref, body({ x: '1' }), true);
    expect(await both()).toEqual([{ labels: undefined, data: { x: '1', z: 'theirs' } }, { labels: undefined, data: { x: '1', z: 'theirs' } }]);
  });

  it('merges lists Kubernetes keys (containers by name): ours come and go, the other manager\'s stay', async () => {
    const { world, apply } = sides();
    const ref = { type: deploymentType, namespace, name: 'web' };
    const deployment = (containers: { name: string; image: string }[]) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } } },
    });
    // Someone else created it with a sidecar.
    await kube.create(ref, deployment([{ name: 'sidecar', image: 'sidecar:1' }]));
    world.put(deploymentType, deployment([{ name: 'sidecar', image: 'sidecar:1' }]));

    await apply(ref, deployment([{ name: 'api', image: 'api:1' }]));
    const containers = (object: KubeObject | undefined): unknown =>
      ((object?.['spec'] as { template: { spec: { containers: { name: string; image: string }[] } } } | undefined)?.template.spec.containers ?? []).map(({ name, image }) => `${name}=${image}`);
    const real = containers(await kube.get(ref));
    expect(real).toEqual(['sidecar=sidecar:1', 'api=api:1']);
    expect(containers(world.get(ref))).toEqual(real);

    // A container we stop stating goes; theirs stays.
    await apply(ref, deployment([{ name: 'worker', image: 'worker:1' }]));
    const after = containers(await kube.get(ref));
    expect(after).toEqual(['sidecar=sidecar:1', 'worker=worker:1']);
    expect(containers(world.get(ref))).toEqual(after);
  });
});
