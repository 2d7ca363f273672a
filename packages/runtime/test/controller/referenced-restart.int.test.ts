// An API server restart under a controller whose 30 primaries each name their own password Secret in one
// namespace: the Secrets share one watch, so the watches that fail and restart are bounded by the types and
// namespaces watched, not by the Secrets; the log says so in a couple of lines rather than one per watch and
// retry; and once the server is back, a changed Secret still wakes the one primary that names it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { startEnvironment, waitFor, type Environment } from '@keyward/test-env';
import { coreTypes, vocabulary, PlanBuilder, controlApi, kubernetesApi, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { controlRuntime, apiSet } from '@keyward/kernel/interpreter';
import { ContentType, KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { Controller, type RuntimeLogger } from '../../src/controller/controller.js';

const NAMESPACE = 'default';
const PRIMARIES = 30;
const LABEL = 'referenced-restart-test/primary';

type TestAction = KubernetesAction | ControlAction;

/** Reconciled primaries, by name, in order. */
const reconciled: string[] = [];

/** ConfigMaps that each name a password Secret in data.secret, as a KeystoneApplicationCredential does. */
const definition: ControllerDefinition<KubeObject, Record<string, never>, null, TestAction> = {
  name: 'referenced-restart-test',
  apis: vocabulary(kubernetesApi, controlApi),
  primary: { type: coreTypes.configMap, decode: (object) => right(object) },
  secondary: () => [],
  referenced: [{ type: coreTypes.secret, of: (primary) => [{ namespace: NAMESPACE, name: String((primary['data'] as Record<string, unknown> | undefined)?.['secret']) }] }],
  observe: () => ({}),
  reconcile: ({ primary }) => {
    reconciled.push(primary.metadata.name);
    return new PlanBuilder<TestAction>().build();
  },
  reportFailure: () => new PlanBuilder<TestAction>().build(),
  reportInvalid: () => new PlanBuilder<TestAction>().build(),
};

interface Line { readonly level: string; readonly message: string; readonly meta: Record<string, unknown> | undefined }

const lines: Line[] = [];
const logger: RuntimeLogger = {
  child: () => logger,
  debug: () => undefined,
  info: (message, meta) => lines.push({ level: 'info', message, meta }),
  warn: (message, meta) => lines.push({ level: 'warn', message, meta }),
  error: (message, meta) => lines.push({ level: 'error', message, meta }),
};
/** Problems the informers reported (each a failed list or watch), by resource. */
const problems: string[] = [];

let env: Environment;
let kube: KubeClient;
let controller: Controller<KubeObject, Record<string, never>, null, TestAction>;
const names = Array.from({ length: PRIMARIES }, (_, i) => `restart-${String(i)}`);

const passwordSecret = (name: string, password: string) => ({ metadata: { name: `${name}-password` }, stringData: { password } });

beforeAll(async () => {
  env = await startEnvironment({ ownership: 'session', keystone: false, log: () => undefined });
  kube = new KubeClient(env.kubeConfig());
  for (const name of names) {
    await kube.create({ type: coreTypes.secret, namespace: NAMESPACE, name: `${name}-password` }, passwordSecret(name, 'first'));
    await kube.create({ type: coreTypes.configMap, namespace: NAMESPACE, name }, { metadata: { name, labels: { [LABEL]: 'yes' } }, data: { secret: `${name}-password` } });
  }
  const kubernetes = kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' });
  const apis = apiSet(kubernetes, controlRuntime);
  controller = new Controller(definition, {
    kube, apis, config: null, namespace: NAMESPACE, logger, burstWatches: false,
    observer: { onInformerProblem: (resource) => problems.push(resource) },
  });
  await controller.start();
  await waitFor(() => Promise.resolve(names.every((name) => reconciled.includes(name)) ? true : undefined), { what: 'every primary reconciled', timeoutMs: 60_000, intervalMs: 100 });
}, 180_000);

afterAll(async () => {
  await controller.stop();
  kube.close();
  await env.stop();
});

describe('an API server restart under 30 primaries naming 30 password Secrets', () => {
  it('restarts watches by type and namespace, logs the storm in two lines, and a changed Secret still wakes its primary', async () => {
    lines.length = 0;
    problems.length = 0;
    await env.stopComponent('kube-apiserver', { graceMs: 0 });
    // Long enough for every watch to notice and retry a few times.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await env.startComponent('kube-apiserver');
    await waitFor(() => Promise.resolve(lines.some((line) => line.message === 'the watches are back') ? true : undefined), { what: 'the watches to be back', timeoutMs: 60_000, intervalMs: 100 });

    const warnings = lines.filter((line) => line.level === 'warn');
    const storm = warnings.find((line) => line.message === 'many watches failed at once');
    const back = lines.find((line) => line.message === 'the watches are back');
    // What was measured, for the record: failed attempts reported, and the lines that told of them.
    process.stdout.write(`API server restart: ${String(problems.length)} failed list/watch attempts (${JSON.stringify(countOf(problems))}), ${String(warnings.length)} warning lines; storm ${JSON.stringify(storm?.meta)}, back ${JSON.stringify(back?.meta)}\n`);

    // Two watches: the primaries', and one for all 30 Secrets.
    expect(storm?.meta?.['watches']).toBe(2);
    expect(storm?.meta?.['resources']).toEqual({ configmaps: 1, secrets: 1 });
    expect(back?.meta?.['watches']).toBe(2);
    expect(new Set(problems)).toEqual(new Set(['configmaps', 'secrets']));
    expect(warnings).toEqual([storm]);

    reconciled.length = 0;
    await kube.patch({ type: coreTypes.secret, namespace: NAMESPACE, name: 'restart-7-password' }, { stringData: { password: 'second' } }, ContentType.mergePatch);
    await waitFor(() => Promise.resolve(reconciled.includes('restart-7') ? true : undefined), { what: 'the changed Secret to wake its primary', timeoutMs: 30_000, intervalMs: 100 });
    expect(reconciled).toEqual(['restart-7']);
  }, 180_000);
});

function countOf(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
