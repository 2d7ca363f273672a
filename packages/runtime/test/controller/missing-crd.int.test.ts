// A controller whose CRD is not installed: the manager says so once, runs the others, is ready, and starts it
// once the CRD is installed; a read of a type whose CRD is missing fails naming the CRD.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { right } from 'fp-ts/lib/Either.js';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { adminKubeConfig, createTestNamespace, freeLoopbackPort, installCrds, waitFor } from '@keyward/test-env';
import { coreTypes, vocabulary, PlanBuilder, controlApi, kubernetesApi, type ResourceType, type ControllerDefinition, type PlanFailure, type KubeObject } from '@keyward/kernel';
import { type ListQuery, type ListIfServedQuery, type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { controlRuntime, apiSet } from '@keyward/kernel/interpreter';
import { Controller } from '../../src/controller/controller.js';
import { recordingLogger } from './recording-logger.js';
import { Manager } from '../../src/controller/manager.js';

type TestAction = KubernetesAction | ControlAction;

const group = `g${randomBytes(4).toString('hex')}.keyward.test`;
const gadgets: ResourceType = { group, version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true };
const gadgetCrd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } } }],
  },
};
const gizmoGroup = `z${randomBytes(4).toString('hex')}.keyward.test`;
/** Another operator's kind, which a controller reads when it is there; its CRD is installed in the middle of a test. */
const gizmos: ResourceType = { group: gizmoGroup, version: 'v1', kind: 'Gizmo', plural: 'gizmos', namespaced: true };
const gizmoCrd: V1CustomResourceDefinition = {
  ...gadgetCrd,
  metadata: { name: `gizmos.${gizmoGroup}` },
  spec: { ...gadgetCrd.spec, group: gizmoGroup, names: { kind: 'Gizmo', plural: 'gizmos', singular: 'gizmo', listKind: 'GizmoList' } },
};
const crds: ResourceType = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false };
/** A type no CRD serves, ever. */
const sprockets: ResourceType = { group: `s${randomBytes(4).toString('hex')}.keyward.test`, version: 'v1', kind: 'Sprocket', plural: 'sprockets', namespaced: true };

let kube: KubeClient;
let namespace: string;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('missing-crd');
  await kube.create({ type: coreTypes.configMap, namespace, name: 'one' }, { metadata: { name: 'one' } });
  await kube.create({ type: coreTypes.configMap, namespace, name: 'two' }, { metadata: { name: 'two' } });
}, 120_000);

afterAll(async () => {
  await kube.delete({ type: crds, name: `gadgets.${group}` });
  await kube.delete({ type: crds, name: `gizmos.${gizmoGroup}` });
  kube.close();
});

/** A controller that records the objects it reconciles and the failures it reports, reading `reads` in observe. */
function recorder(name: string, type: ResourceType, reads?: ResourceType) {
  const reconciled = new Set<string>();
  const failures: (PlanFailure & { readonly object: string })[] = [];
  const definition: ControllerDefinition<KubeObject, Readonly<Record<string, ListQuery | undefined>>, null, TestAction> = {
    name,
    apis: vocabulary(kubernetesApi, controlApi),
    primary: { type, decode: (object) => right(object) },
    secondary: () => [],
    observe: (object) => ({ others: reads === undefined ? undefined : { kind: 'k8s.list', type: reads, namespace: object.metadata.namespace ?? '' } }),
    reconcile: ({ primary }) => {
      reconciled.add(primary.metadata.name);
      return new PlanBuilder<TestAction>().build();
    },
    reportFailure: (primary, failure) => {
      failures.push({ ...failure, object: primary.metadata.name });
      return new PlanBuilder<TestAction>().build();
    },
    reportInvalid: () => new PlanBuilder<TestAction>().build(),
  };
  return { definition, reconciled, failures };
}

function status(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

const until = (what: string, condition: () => boolean): Promise<true> =>
  waitFor(() => Promise.resolve(condition() ? true : undefined), { what, timeoutMs: 60_000, intervalMs: 50 });

describe('a controller whose CRD is not installed', () => {
  it('is said once and left out; the others run and the manager is ready; it starts once the CRD is installed', async () => {
    const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), controlRuntime);
    const gadget = recorder('gadget-recorder', gadgets);
    const configMap = recorder('configmap-recorder', coreTypes.configMap);
    const lines: string[] = [];
    const port = await freeLoopbackPort();
    const manager = new Manager({
      kube: new KubeClient(adminKubeConfig()),
      logger: recordingLogger(lines),
      metricsAddress: '0',
      healthAddress: `127.0.0.1:${String(port)}`,
      missingTypes: { recheckMs: 100 },
      runnables: ({ informers }) => [gadget.definition, configMap.definition].map((definition) => new Controller(definition, { kube, apis, config: null, namespace, informers })),
    });
    try {
      // Before, this never came back: the gadget informer retried its 404 for ever.
      await manager.start();
      await expect(status(port, '/readyz')).resolves.toBe(200);
      await until('the ConfigMaps reconciled', () => configMap.reconciled.has('one') && configMap.reconciled.has('two'));
      expect(lines.filter((line) => line.startsWith('error'))).toEqual([`error: CRD gadgets.${group} is not installed; gadget-recorder starts once it is`]);

      await installCrds(adminKubeConfig(), [gadgetCrd]);
      await until('the gadget controller started', () => lines.includes(`info: CRD gadgets.${group} is installed now: starting gadget-recorder`));
      await kube.create({ type: gadgets, namespace, name: 'first' }, { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'first' } });
      await until('the gadget reconciled', () => gadget.reconciled.has('first'));
      expect(lines.filter((line) => line.includes(`gadgets.${group}`))).toEqual([
        `error: CRD gadgets.${group} is not installed; gadget-recorder starts once it is`,
        `info: CRD gadgets.${group} is installed now: starting gadget-recorder`,
      ]);
    } finally {
      await manager.stop();
    }
  });

  it('fails a read of a type whose CRD is missing with a message that names the CRD, logged once for every object', async () => {
    const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), controlRuntime);
    const reader = recorder('sprocket-reader', coreTypes.configMap, sprockets);
    const lines: string[] = [];
    const controller = new Controller(reader.definition, { kube, apis, config: null, namespace, logger: recordingLogger(lines), backoff: { baseMs: 60_000, maxMs: 60_000 } });
    await controller.start();
    try {
      // The namespace also holds the kube-root-ca.crt ConfigMap the controller manager publishes into each one,
      // which fails alike; the test's own two are the ones followed here.
      const ours = (): (PlanFailure & { readonly object: string })[] => reader.failures.filter((failure) => ['one', 'two'].includes(failure.object)).sort((a, b) => a.object.localeCompare(b.object));
      await until('both ConfigMaps failed', () => ours().length >= 2);
      const crd = `sprockets.${sprockets.group}`;
      expect(ours().map((failure) => [failure.object, failure.reason, failure.message])).toEqual([
        ['one', 'CRDNotInstalled', `list sprockets in ${namespace}: CRD ${crd} is not installed (the API server does not serve sprockets in ${sprockets.group}/v1)`],
        ['two', 'CRDNotInstalled', `list sprockets in ${namespace}: CRD ${crd} is not installed (the API server does not serve sprockets in ${sprockets.group}/v1)`],
      ]);
      expect(lines.filter((line) => line.startsWith('error'))).toEqual([`error: CRD ${crd} is not installed; the objects that read sprockets fail until it is, and are retried with backoff`]);
    } finally {
      await controller.stop();
    }
  });

  it('watches a missing type its objects refer to without a warning per retry: the failed reads say it, once', async () => {
    const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), controlRuntime);
    const reader = recorder('sprocket-referrer', coreTypes.configMap, sprockets);
    const definition = { ...reader.definition, referenced: [{ type: sprockets, of: (object: KubeObject) => [{ namespace: object.metadata.namespace ?? '' }] }] };
    const lines: string[] = [];
    const controller = new Controller(definition, { kube, apis, config: null, namespace, logger: recordingLogger(lines, ['warn', 'error']), backoff: { baseMs: 200, maxMs: 200 } });
    await controller.start();
    try {
      // Retried several times, each time listing sprockets from the API server since their watch has not listed.
      await until('repeated failures', () => reader.failures.length >= 6);
      expect(new Set(reader.failures.map((failure) => failure.reason))).toEqual(new Set(['CRDNotInstalled']));
      // Besides each object's failure, only the one line: none from the watch's retries.
      expect(lines.filter((line) => line !== 'warn: reconcile failed')).toEqual([`error: CRD sprockets.${sprockets.group} is not installed; the objects that read sprockets fail until it is, and are retried with backoff`]);
    } finally {
      await controller.stop();
    }
  });

  it('answers a list that asks only if the type is served with undefined, quietly, and wakes its objects once the CRD is installed', async () => {
    const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), controlRuntime);
    const seen = new Map<string, readonly string[] | undefined>();
    const failures: (PlanFailure & { readonly object: string })[] = [];
    const definition: ControllerDefinition<KubeObject, Readonly<Record<string, ListIfServedQuery | undefined>>, null, TestAction> = {
      name: 'gizmo-reader',
      apis: vocabulary(kubernetesApi, controlApi),
      primary: { type: coreTypes.configMap, decode: (object) => right(object) },
      secondary: () => [],
      referenced: [{ type: gizmos, of: (object) => [{ namespace: object.metadata.namespace ?? '' }] }],
      observe: (object) => ({ gizmos: { kind: 'k8s.list', type: gizmos, namespace: object.metadata.namespace ?? '', ifServed: true } }),
      reconcile: ({ primary, observed }) => {
        seen.set(primary.metadata.name, observed['gizmos']?.map((gizmo) => gizmo.metadata.name));
        return new PlanBuilder<TestAction>().build();
      },
      reportFailure: (primary, failure) => {
        failures.push({ ...failure, object: primary.metadata.name });
        return new PlanBuilder<TestAction>().build();
      },
      reportInvalid: () => new PlanBuilder<TestAction>().build(),
    };
    const lines: string[] = [];
    const controller = new Controller(definition, { kube, apis, config: null, namespace, logger: recordingLogger(lines, ['warn', 'error']) });
    await controller.start();
    try {
      await until('both ConfigMaps reconciled', () => seen.has('one') && seen.has('two'));
      expect([...seen.values()]).toEqual([undefined, undefined]);

      await installCrds(adminKubeConfig(), [gizmoCrd]);
      await kube.create({ type: gizmos, namespace, name: 'g' }, { apiVersion: `${gizmoGroup}/v1`, kind: 'Gizmo', metadata: { name: 'g' } });
      // No requeue and no failure brings them back: the watch, listing again with backoff, wakes them.
      await until('both ConfigMaps saw the gizmo', () => seen.get('one')?.[0] === 'g' && seen.get('two')?.[0] === 'g');
      expect(failures).toEqual([]);
      expect(lines).toEqual([]);
    } finally {
      await controller.stop();
    }
  }, 90_000);
});
