// A small controller for the driver's and the test kit's tests: it keeps a copy of each ConfigMap.
import { left, right } from 'fp-ts/lib/Either.js';
import { coreTypes, type ObjectRef } from '../../src/model/refs.js';
import { vocabulary } from '../../src/plan/api.js';
import type { ControllerDefinition } from '../../src/plan/controller.js';
import { PlanBuilder } from '../../src/plan/plan.js';
import { controlApi, type ControlAction } from '../../src/apis/control/index.js';
import { kubernetesApi, type GetQuery, type KubeObject, type KubernetesAction } from '../../src/apis/kubernetes/index.js';
import { InMemoryWorld } from '../../src/testing/world.js';

export type Action = KubernetesAction | ControlAction;

export interface CopyQueries {
  readonly [name: string]: GetQuery | undefined;
  readonly copy: GetQuery;
}

export const NAMESPACE = 'ns';
export const NOW = new Date('2026-03-01T12:00:00Z');
export const ref = (name: string): ObjectRef => ({ type: coreTypes.configMap, namespace: NAMESPACE, name });

/**
 * Keeps a copy "<name>-copy" of each ConfigMap's data. What its annotation `test/fail` names goes wrong on the
 * way: "conflict" patches with a stale resourceVersion, "missing" patches an object that does not exist.
 * Failures and invalid objects are reported as Warning events.
 */
export const copier: ControllerDefinition<KubeObject, CopyQueries, null, Action> = {
  name: 'copier',
  apis: vocabulary(kubernetesApi, controlApi),
  primary: {
    type: coreTypes.configMap,
    decode: (object) => (object['data'] === undefined ? left({ message: 'data: required', problems: [{ path: 'data', message: 'required' }] }) : right(object)),
  },
  secondary: () => [],
  observe: (primary) => ({ copy: { kind: 'k8s.get', ref: ref(`${primary.metadata.name}-copy`) } }),
  reconcile: ({ primary, observed }) => {
    const plan = new PlanBuilder<Action>();
    const name = `${primary.metadata.name}-copy`;
    if (observed.copy === undefined) {
      plan.add({ kind: 'k8s.create', ref: ref(name), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NAMESPACE }, data: primary['data'] as Record<string, string> } }, 'the copy is missing');
    }
    const fail = primary.metadata.annotations?.['test/fail'];
    if (fail === 'conflict') plan.add({ kind: 'k8s.patch', ref: ref(primary.metadata.name), patch: { type: 'merge', body: {} }, precondition: { resourceVersion: 'stale' } }, 'a write from a stale view');
    if (fail === 'missing') plan.add({ kind: 'k8s.patch', ref: ref('nowhere'), patch: { type: 'merge', body: {} } }, 'a write to nothing');
    plan.add({ kind: 'control.requeueAfter', afterMs: 60_000 }, 'check again');
    return plan.build();
  },
  reportFailure: (primary, failure) => {
    const plan = new PlanBuilder<Action>();
    plan.add({ kind: 'k8s.event', regarding: ref(primary.metadata.name), type: 'Warning', reason: `Failed${failure.reason}`, note: `${failure.step} (${failure.action}): ${failure.message}`, action: 'Copy' }, 'report');
    return plan.build();
  },
  reportInvalid: (object, failure) => {
    const plan = new PlanBuilder<Action>();
    plan.add({ kind: 'k8s.event', regarding: ref(object.metadata.name), type: 'Warning', reason: 'InvalidSpec', note: failure.message, action: 'Validate' }, 'report');
    return plan.build();
  },
};

export function worldWith(name: string, fields: { data?: Record<string, string>; annotations?: Record<string, string> }): InMemoryWorld {
  const world = new InMemoryWorld();
  world.put(coreTypes.configMap, { metadata: { name, namespace: NAMESPACE, ...(fields.annotations === undefined ? {} : { annotations: fields.annotations }) }, ...(fields.data === undefined ? {} : { data: fields.data }) });
  return world;
}
