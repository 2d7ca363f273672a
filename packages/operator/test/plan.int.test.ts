import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { right } from 'fp-ts/lib/Either.js';
import { parse as parseYaml, stringify } from 'yaml';
import { WRITE_VERBS, adminKubeConfig, createTestNamespace, keystoneAdmin, rememberSecret, serviceAccountIdentity, settledAuditEventsOf, testEnvironment, type ServiceAccountIdentity } from '@keyward/test-env';
import { PlanBuilder, controlApi, coreTypes, defineControllerModule, kubernetesApi, sensitive, vocabulary, type ControlAction, type ControllerDefinition, type KubeObject, type KubernetesAction, type ResourceType, reconcileOnce } from '@keyward/kernel';
import { ContentType, KeystoneClient, KubeClient } from '@keyward/runtime/io';
import { clusterTarget } from '@keyward/runtime/controller';
import { ACIDSecretKey, CR_FINALIZER, LABEL_APPLICATION_CREDENTIALS, LABEL_SERVICE, appCredController, appCredType, type AppCredConfig } from '@keyward/keystone-appcred';
import { apiKeyType } from '@keyward/apikey-enforcement';
import { operatorApis } from '../src/apis.js';
import { parsePlanConfig, type PlanConfig } from '../src/config.js';
import { MODULES, erasedModule, moduleConfig, moduleNamed } from '../src/controllers.js';
import { EXIT_CODES } from '../src/exit-codes.js';
import { planCommand, type PlanCatalog } from '../src/plan.js';
import { approval } from './requests.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
let kube: KubeClient;
let namespace: string;
let userName: string;
/** `keyward plan` runs as a ServiceAccount of its own, bound to cluster-admin: a write would succeed, and show. */
let planner: ServiceAccountIdentity;
/** Manifests for `plan -f`. */
let manifests: string;
const clusterRoleBinding = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false } as const;

function config(extra: readonly string[]): PlanConfig {
  // No operator runs in the test's namespace: the plan uses the settings given here.
  const parsed = parsePlanConfig(['--kubeconfig', planner.kubeconfig, '--namespace', namespace, '--operator-namespace', namespace, '--keystone-url', testEnvironment().keystone?.url ?? '', ...extra], {});
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

async function plan(extra: readonly string[]): Promise<{ status: number; output: string }> {
  let output = '';
  const status = await planCommand(config(extra), (text) => { output += text; });
  return { status, output };
}

/** The plan's text after its first line, which says where the controllers' settings came from, and the blank line. */
function withoutSettingsLine(output: string): string {
  const [settings, blank, ...rest] = output.split('\n');
  expect([settings?.startsWith('no settings of a running operator found in '), blank]).toEqual([true, '']);
  return rest.join('\n');
}

interface PlannedObject {
  readonly kind: string;
  readonly name: string;
  readonly plan?: { readonly steps: readonly { readonly kind: string }[] };
}

/** `keyward plan -o json`, parsed. */
async function planJson(extra: readonly string[]): Promise<PlannedObject[]> {
  const { status, output } = await plan([...extra, '--output', 'json']);
  expect(status).toBe(0);
  return (JSON.parse(output) as { objects: PlannedObject[] }).objects;
}

beforeAll(async () => {
  manifests = mkdtempSync(join(tmpdir(), 'keyward-plan-'));
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('plan');
  planner = await serviceAccountIdentity(namespace, 'planner');
  await kube.create({ type: clusterRoleBinding, name: `keyward-plan-test-${namespace}` }, {
    metadata: { name: `keyward-plan-test-${namespace}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'planner', namespace }],
  });
  userName = `plan-${randomBytes(3).toString('hex')}`;
  rememberSecret(PASSWORD);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
  await kube.create({ type: appCredType, namespace, name: 'ac-plan' }, {
    apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential',
    metadata: { name: 'ac-plan', namespace, finalizers: ['openstack.org/applicationcredential'] },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
  });
});

afterAll(async () => {
  rmSync(manifests, { recursive: true, force: true });
  await kube.delete({ type: clusterRoleBinding, name: `keyward-plan-test-${namespace}` });
  kube.close();
});

/** The planner's requests as the API server recorded them. */
async function requestsOfPlanner(): Promise<{ verb: string; resource: string }[]> {
  return (await settledAuditEventsOf(planner, namespace))
    .map((event) => ({ verb: event.verb, resource: [event.objectRef?.resource, event.objectRef?.subresource].filter(Boolean).join('/') }));
}

describe('keyward plan against the live cluster', () => {
  it('shows what would happen and why, with known-after-apply values, and changes nothing', async () => {
    const text = await plan(['--controllers', 'keystone-appcred', '--exit-code']);
    expect(text.status).toBe(2);
    expect(text.output).toContain(`KeystoneApplicationCredential ${namespace}/ac-plan`);
    expect(text.output).toContain(`authenticate to Keystone as ${userName}`);
    expect(text.output).toContain(`create Secret ${namespace}/ac-plan-(known after apply)-secret`);
    expect(text.output).toContain('why: no application credential exists yet');
    expect(text.output).not.toContain(PASSWORD);

    const json = await plan(['--controllers', 'keystone-appcred', '--output', 'json']);
    expect(json.status).toBe(0);
    const parsed = (JSON.parse(json.output) as { objects: { name: string; plan: { steps: { kind: string }[] } }[] }).objects;
    expect(parsed[0]?.plan.steps.map((s) => s.kind)).toContain('keystone.createApplicationCredential');

    // Nothing was written, counted where every write would have to go: the API server's audit log. The plan
    // read what it needed (the running operator's settings, the CRs and the password Secret; the Keystone URL is
    // given, so no KeystoneAPI) and did nothing else.
    const requests = await requestsOfPlanner();
    expect(requests.filter((request) => WRITE_VERBS.has(request.verb))).toEqual([]);
    expect(new Set(requests.map((request) => request.resource))).toEqual(new Set(['configmaps', 'keystoneapplicationcredentials', 'secrets']));
    expect((await kube.list(coreTypes.secret, { namespace })).items.map((s) => s.metadata.name)).toEqual(['osp-secret']);
    const keystone = new KeystoneClient({ baseUrl: testEnvironment().keystone?.url ?? '' });
    const login = await keystone.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) });
    expect(await keystone.listApplicationCredentials(login.token, login.userId)).toEqual([]);
  });

  it('says when there is nothing to plan', async () => {
    const empty = await plan(['--controllers', 'apikey-enforcement', '--exit-code']);
    expect(empty).toEqual({
      status: 0,
      output: `no settings of a running operator found in ${namespace} (no ConfigMap ${namespace}/keyward-settings); planning with --enforcement-namespace kuadrant\n\nno objects found\n`,
    });
  });

  it('plans the objects of the controllers --controllers selects, and only those', async () => {
    await kube.create({ type: coreTypes.secret, namespace, name: 'consumer-key' }, { metadata: { name: 'consumer-key' }, stringData: { api_key: 'not-a-real-key' } });
    await kube.create({ type: apiKeyType, namespace, name: 'key-plan' }, {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'key-plan', namespace },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'consumer-key' }, planTier: 'gold', useCase: 'plan', requestedBy: { userId: 'u', email: 'u@example.com' } },
    });
    const planned = async (controllers: string): Promise<string[]> => (await planJson(['--controllers', controllers])).map((object) => `${object.kind} ${object.name}`);

    expect(await planned('apikey-enforcement')).toEqual(['APIKey key-plan']);
    expect(await planned('keystone-appcred')).toEqual(['KeystoneApplicationCredential ac-plan']);
    expect(await planned('apikey-enforcement,keystone-appcred')).toEqual(['KeystoneApplicationCredential ac-plan', 'APIKey key-plan']);
    const text = await plan(['--controllers', 'apikey-enforcement']);
    expect(text.output).toContain(`APIKey ${namespace}/key-plan`);
    expect(text.output).not.toContain('KeystoneApplicationCredential');

    // However the controllers are selected, plan only reads.
    const requests = await requestsOfPlanner();
    expect(requests.filter((request) => WRITE_VERBS.has(request.verb))).toEqual([]);
  });

  it('plans the kubeconfig context\'s namespace without -n, and every namespace with -A, as kubectl selects them', async () => {
    const plan = async (argv: readonly string[]): Promise<{ code: number; names: string[] }> => {
      const parsed = parsePlanConfig(['--operator-namespace', namespace, '--keystone-url', testEnvironment().keystone?.url ?? '', '--controllers', 'keystone-appcred', '-o', 'json', ...argv], {});
      if (!parsed.ok) throw new Error(parsed.error);
      let output = '';
      const code = await planCommand(parsed.config, (text) => { output += text; });
      return { code, names: code === EXIT_CODES.ok ? (JSON.parse(output) as { objects: { namespace: string; name: string }[] }).objects.map((object) => `${object.namespace}/${object.name}`) : [] };
    };
    const names = async (argv: readonly string[]): Promise<string[]> => {
      const { code, names: planned } = await plan(argv);
      expect(code).toBe(EXIT_CODES.ok);
      return planned;
    };
    // The planner's kubeconfig names no namespace: its context's is `default`, which has none of the test's.
    expect(await names(['--kubeconfig', planner.kubeconfig])).toEqual([]);
    const inNamespace = join(manifests, 'kubeconfig-in-namespace');
    const kubeconfig = parseYaml(readFileSync(planner.kubeconfig, 'utf8')) as { contexts: { context: Record<string, string> }[] };
    for (const { context } of kubeconfig.contexts) context['namespace'] = namespace;
    writeFileSync(inNamespace, stringify(kubeconfig), { mode: 0o600 });
    expect(await names(['--kubeconfig', inNamespace])).toEqual([`${namespace}/ac-plan`]);
    // Every namespace: the context's (`default`) has none, so finding the test's proves -A looks beyond it. The
    // cluster is shared with other test files, whose objects come and go (and may fail to plan) while it plans, so
    // the pass is narrowed to this test's name, which no other file uses.
    expect(await names(['--kubeconfig', planner.kubeconfig, '-A', '--name', 'ac-plan'])).toEqual([`${namespace}/ac-plan`]);
    expect(await names(['--kubeconfig', inNamespace, '-n', 'default'])).toEqual([]);
  });

  it('configures the controllers with their options, as run does: --revoke-on-delete plans the revocation of a deleted CR\'s credential', async () => {
    const ref = { type: appCredType, namespace, name: 'ac-retire' };
    await kube.create({ type: coreTypes.secret, namespace, name: 'ac-retire-secret' }, {
      metadata: { name: 'ac-retire-secret', labels: { [LABEL_APPLICATION_CREDENTIALS]: 'true', [LABEL_SERVICE]: 'retire' } },
      stringData: { [ACIDSecretKey]: 'retired-credential-id' },
    });
    await kube.create(ref, {
      apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential',
      metadata: { name: 'ac-retire', namespace, finalizers: [CR_FINALIZER] },
      spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
    });
    // Deleted, it stays until the controller releases it: its finalizer holds it.
    await kube.delete(ref);
    try {
      const steps = async (extra: readonly string[]): Promise<string[]> => {
        const [object, ...others] = await planJson(['--controllers', 'keystone-appcred', '--name', 'ac-retire', ...extra]);
        expect(others).toEqual([]);
        return object?.plan?.steps.map((step) => step.kind) ?? [];
      };
      const kept = await steps([]);
      expect(kept).toContain('k8s.removeFinalizer');
      expect(kept).not.toContain('keystone.revokeApplicationCredential');
      expect(await steps(['--revoke-on-delete'])).toContain('keystone.revokeApplicationCredential');
      expect(await steps(['--no-revoke-on-delete'])).toEqual(kept);
    } finally {
      await kube.patch(ref, { metadata: { finalizers: null } }, ContentType.mergePatch);
    }
  });
});

/** A manifest file of `objects`, as kubectl would take it. */
function manifest(name: string, objects: readonly object[]): string {
  const file = join(manifests, name);
  writeFileSync(file, objects.map((object) => stringify(object)).join('---\n'));
  return file;
}

/** A KeystoneApplicationCredential as a person writes it: no namespace (it comes from --namespace), no status. */
function appCred(name: string, spec: Record<string, unknown>): object {
  return { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name }, spec };
}

/** What each reconcile of a `plan -o json` object does, by step kind, and why they end. */
function rounds(object: { plan?: { steps: readonly { kind: string }[] }; later?: readonly { steps: readonly { kind: string }[] }[]; end?: string } | undefined): { kinds: string[][]; end: string | undefined } {
  const plans = object?.plan === undefined ? [] : [object.plan, ...(object.later ?? [])];
  return { kinds: plans.map((plan) => plan.steps.map((step) => step.kind)), end: object?.end };
}

/** Whether `parts` appear in `text` in this order. */
function inOrder(text: string, parts: readonly string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

describe('keyward plan -f against the live cluster', () => {
  it('plans the whole creation of a new object, reconcile after reconcile, and writes nothing', async () => {
    const file = manifest('new.yaml', [appCred('ac-fresh', { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] })]);
    const text = await plan(['--controllers', 'keystone-appcred', '-f', file, '--exit-code']);
    expect(text.status).toBe(2);
    // Before, a new object was "invalid spec: metadata: namespace and uid are required", with status 0.
    expect(inOrder(text.output, [
      `KeystoneApplicationCredential ${namespace}/ac-fresh (new)`,
      'reconcile 1:', `patch KeystoneApplicationCredential ${namespace}/ac-fresh (merge patch)`, '+ metadata.finalizers[0]: "openstack.org/applicationcredential"',
      `authenticate to Keystone as ${userName}`, 'create application credential ac-fresh-',
      `create Secret ${namespace}/ac-fresh-(known after apply)-secret`, '+ metadata.ownerReferences[0].uid: "(known after apply)"',
      '+ status.secretName: ac-fresh-(known after apply)-secret', '+ status.observedGeneration: 1',
      'reconcile 2:', 'check again in',
    ])).toBe(true);
    expect(text.output).not.toContain('reconcile 3');
    expect(text.output).not.toContain(PASSWORD);

    const [object, ...others] = (JSON.parse((await plan(['--controllers', 'keystone-appcred', '-f', file, '--output', 'json'])).output) as { objects: Parameters<typeof rounds>[0][] }).objects;
    expect(others).toEqual([]);
    expect(rounds(object)).toEqual({
      kinds: [
        ['k8s.patch', 'keystone.authenticate', 'keystone.createApplicationCredential', 'k8s.create', 'k8s.status', 'control.requeueAfter'],
        ['control.requeueAfter'],
      ],
      end: 'quiet',
    });

    // Only reads, and nothing of the file exists afterwards: not the CR, not a credential in Keystone.
    const requests = await requestsOfPlanner();
    expect(requests.filter((request) => WRITE_VERBS.has(request.verb))).toEqual([]);
    expect(await kube.get({ type: appCredType, namespace, name: 'ac-fresh' })).toBeUndefined();
    const keystone = new KeystoneClient({ baseUrl: testEnvironment().keystone?.url ?? '' });
    const login = await keystone.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) });
    expect(await keystone.listApplicationCredentials(login.token, login.userId)).toEqual([]);
  });

  it('plans with the other objects of the file, as they would be applied together', async () => {
    // An approved APIKey whose consumer Secret exists only in the file.
    const key = {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'key-approved' },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'approved-consumer-key' }, planTier: 'gold', useCase: 'plan', requestedBy: { userId: 'u', email: 'u@example.com' } },
    };
    await kube.create({ type: apiKeyType, namespace, name: 'key-approved' }, { ...key, metadata: { name: 'key-approved', namespace } });
    await kube.patch({ type: apiKeyType, namespace, name: 'key-approved' }, approval('Approved'), ContentType.mergePatch, 'status');
    const consumerSecret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'approved-consumer-key' }, stringData: { api_key: 'a-key-only-the-file-has' } };
    const stepsOf = async (file: string): Promise<string[][]> =>
      rounds((JSON.parse((await plan(['--controllers', 'apikey-enforcement', '-f', file, '--output', 'json'])).output) as { objects: Parameters<typeof rounds>[0][] }).objects[0]).kinds;

    const alone = await plan(['--controllers', 'apikey-enforcement', '-f', manifest('key-alone.yaml', [key])]);
    expect(alone.output).toContain(`Secret ${namespace}/approved-consumer-key not found`);
    expect(await stepsOf(manifest('key-alone.yaml', [key]))).toEqual([['k8s.status'], []]);

    const together = manifest('key-with-secret.yaml', [consumerSecret, key]);
    expect(await stepsOf(together)).toEqual([['k8s.create'], []]);
    const text = await plan(['--controllers', 'apikey-enforcement', '-f', together]);
    expect(text.output).toContain(`APIKey ${namespace}/key-approved\n`);
    expect(text.output).not.toContain('a-key-only-the-file-has');
    expect(await kube.get({ type: coreTypes.secret, namespace, name: 'approved-consumer-key' })).toBeUndefined();
  });

  it('plans an existing object as the file changes it, over the cluster\'s metadata and status', async () => {
    const otherUser = `other-${randomBytes(3).toString('hex')}`;
    const generation = (await kube.get({ type: appCredType, namespace, name: 'ac-plan' }))?.metadata.generation ?? 0;
    const file = manifest('changed.yaml', [appCred('ac-plan', { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName: otherUser, roles: ['service'] })]);
    const text = await plan(['--controllers', 'keystone-appcred', '-f', file, '--exit-code']);
    expect(text.status).toBe(2);
    // Before, the cluster's copy was planned: the file's user was nowhere.
    expect(inOrder(text.output, [
      `KeystoneApplicationCredential ${namespace}/ac-plan\n`,
      'reconcile 1:', `authenticate to Keystone as ${otherUser}`, `+ status.observedGeneration: ${String(generation + 1)}`,
      'reconcile 2:', 'check again in',
    ])).toBe(true);
    expect(text.output).not.toContain(`as ${userName}`);

    // The same file as the cluster has it changes nothing the controller reads: the generation stays.
    const same = manifest('same.yaml', [appCred('ac-plan', { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] })]);
    expect((await plan(['--controllers', 'keystone-appcred', '-f', same])).output).toContain(`+ status.observedGeneration: ${String(generation)}\n`);
  });

  it('exits with the error of an invalid object, and says what is wrong with its spec', async () => {
    const file = manifest('invalid.yaml', [appCred('ac-invalid', { secret: 'osp-secret', passwordSelector: 'ServicePassword', roles: ['service'] })]);
    const text = await plan(['--controllers', 'keystone-appcred', '-f', file, '--exit-code']);
    expect({ ...text, output: withoutSettingsLine(text.output) }).toEqual({ status: 1, output: `KeystoneApplicationCredential ${namespace}/ac-invalid (new)\n  invalid spec: spec.userName: required\n` });
  });
});

type TestAction = KubernetesAction | ControlAction;

describe('keyward plan when a CRD is not installed', () => {
  const group = `g${randomBytes(4).toString('hex')}.keyward.test`;
  const gadgets: ResourceType = { group, version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true };
  const gadgetController: ControllerDefinition<KubeObject, Readonly<Record<string, never>>, null, TestAction> = {
    name: 'gadget-recorder',
    apis: vocabulary(kubernetesApi, controlApi),
    primary: { type: gadgets, decode: (object) => right(object) },
    secondary: () => [],
    observe: () => ({}),
    reconcile: () => new PlanBuilder<TestAction>().build(),
    reportFailure: () => new PlanBuilder<TestAction>().build(),
    reportInvalid: () => new PlanBuilder<TestAction>().build(),
  };
  const gadgetModule = defineControllerModule({ definition: gadgetController, defaultConfig: null, options: {}, rbac: [], crds: [] });
  const catalog: PlanCatalog = {
    // The operator's APIs handle every kind of both.
    modules: [...MODULES, erasedModule(gadgetModule)],
    apis: (client) => operatorApis({ kube: client, identity: 'plan' }),
  };
  const planWith = async (extra: readonly string[]): Promise<{ status: number; output: string }> => {
    let output = '';
    const status = await planCommand({ ...config(extra), controllers: ['gadget-recorder', 'keystone-appcred'] }, (text) => { output += text; }, catalog);
    return { status, output };
  };

  it('says so for that kind and plans the others', async () => {
    const text = await planWith(['--exit-code']);
    expect(text.output).toContain(`Gadget: CRD gadgets.${group} is not installed; install it (it comes with the operator that owns it) (nothing to plan)`);
    expect(text.output).toContain(`KeystoneApplicationCredential ${namespace}/ac-plan`);
    expect(text.status).toBe(2);
  });

  it('fails a file with an object of that kind, which could not be created, and still shows the others', async () => {
    const file = manifest('with-gadget.yaml', [
      { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g1' } },
      appCred('ac-plan', { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] }),
    ]);
    const text = await planWith(['-f', file]);
    expect(text.output).toContain(`Gadget: CRD gadgets.${group} is not installed; install it (it comes with the operator that owns it) (the object of the file cannot be created)`);
    expect(text.output).toContain(`KeystoneApplicationCredential ${namespace}/ac-plan`);
    expect(text.status).toBe(1);
  });
});

describe('keyward plan of an object whose password Secret lacks its key', () => {
  // A value in the Secret under another key: it must never show.
  const OTHER_VALUE = `other-${randomBytes(12).toString('hex')}`;
  const ref = () => ({ type: appCredType, namespace, name: 'ac-nokey' });
  const spec = () => ({ secret: 'osp-nokey', passwordSelector: 'ServicePassword', userName, roles: ['service'] });
  const missingKey = () => `Secret ${namespace}/osp-nokey has no key ServicePassword (or it is empty)`;

  beforeAll(async () => {
    rememberSecret(OTHER_VALUE);
    await kube.create({ type: coreTypes.secret, namespace, name: 'osp-nokey' }, { metadata: { name: 'osp-nokey' }, stringData: { OtherKey: OTHER_VALUE } });
  });

  // Before, both plans showed a clean creation (the plan's Keystone stand-in logged in without reading the
  // Secret), and --exit-code said 2, as for any change that converges.
  it('plans a new object of a file as failing at the login, as the controller would, and exits 3 with --exit-code', async () => {
    const file = manifest('nokey.yaml', [appCred('ac-nokey', spec())]);
    const text = await plan(['--controllers', 'keystone-appcred', '-f', file, '--exit-code']);
    expect(text.status).toBe(EXIT_CODES.fails);
    expect(inOrder(text.output, [
      `KeystoneApplicationCredential ${namespace}/ac-nokey (new)`,
      `patch KeystoneApplicationCredential ${namespace}/ac-nokey (merge patch)`, `authenticate to Keystone as ${userName}`,
      `fails at step 2, authenticate to Keystone as ${userName}`, `(PasswordKeyNotFound): ${missingKey()}`,
      'the steps after it are not taken; the controller reports Ready=False PasswordKeyNotFound and retries with backoff',
    ])).toBe(true);
    // One reconcile, so without a heading.
    expect(text.output).not.toContain('reconcile ');
    expect(text.output).not.toContain('now: ');
    for (const secret of [PASSWORD, OTHER_VALUE]) expect(text.output).not.toContain(secret);

    // Without --exit-code, the plan itself succeeded.
    const json = await plan(['--controllers', 'keystone-appcred', '-f', file, '--output', 'json']);
    expect(json.status).toBe(EXIT_CODES.ok);
    const [object] = (JSON.parse(json.output) as { objects: Record<string, unknown>[] }).objects;
    expect(object).toMatchObject({ name: 'ac-nokey', new: true, end: 'failed', step: 2, reason: 'PasswordKeyNotFound', message: missingKey(), then: 'retries with backoff', reported: { status: 'False', reason: 'PasswordKeyNotFound' } });
    expect(object).not.toHaveProperty('current');
    expect(await kube.get(ref())).toBeUndefined();
  });

  it('shows the condition the controller set, and the same failure, for the object on the cluster (--name)', async () => {
    await kube.create(ref(), { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'ac-nokey', namespace }, spec: spec() });
    const module = moduleNamed('keystone-appcred');
    const apis = operatorApis({ kube, identity: 'plan-test' });
    try {
      // The controller, through the one driver, against the real cluster: the finalizer and the name, the failed
      // login, then the failed login of the retry.
      const controllerConfig = moduleConfig(module, config([])) as AppCredConfig;
      for (let round = 0; round < 2; round++) await reconcileOnce(appCredController, clusterTarget(kube, apis), ref(), { config: controllerConfig });
      const status = (await kube.get(ref()))?.['status'] as { conditions?: { type: string; status: string; reason: string; message: string }[] } | undefined;
      const ready = status?.conditions?.find((condition) => condition.type === 'Ready');
      expect(ready).toMatchObject({ status: 'False', reason: 'PasswordKeyNotFound', message: expect.stringContaining(missingKey()) as unknown });

      const text = await plan(['--controllers', 'keystone-appcred', '--name', 'ac-nokey', '--exit-code']);
      expect(text.status).toBe(EXIT_CODES.fails);
      expect(inOrder(text.output, [
        `KeystoneApplicationCredential ${namespace}/ac-nokey\n`,
        `  now: Ready=False PasswordKeyNotFound: ${ready?.message ?? ''}\n`,
        `authenticate to Keystone as ${userName}`,
        `fails at step `, `, authenticate to Keystone as ${userName}`, `(PasswordKeyNotFound): ${missingKey()}`,
        'the controller reports Ready=False PasswordKeyNotFound and retries with backoff',
      ])).toBe(true);
      for (const secret of [PASSWORD, OTHER_VALUE]) expect(text.output).not.toContain(secret);

      // -o yaml says what -o json says (the two plans differ only in the time they plan at: the expiry asked for).
      const yaml = await plan(['--controllers', 'keystone-appcred', '--name', 'ac-nokey', '--output', 'yaml']);
      const json = await plan(['--controllers', 'keystone-appcred', '--name', 'ac-nokey', '--output', 'json']);
      const [object, ...others] = (parseYaml(yaml.output) as { objects: Record<string, unknown>[] }).objects;
      expect(others).toEqual([]);
      const { plan: _plan, ...shown } = object ?? {};
      const { plan: _jsonPlan, ...shownAsJson } = (JSON.parse(json.output) as { objects: Record<string, unknown>[] }).objects[0] ?? {};
      expect(shown).toEqual(shownAsJson);
      expect(shown).toMatchObject({ name: 'ac-nokey', current: { status: 'False', reason: 'PasswordKeyNotFound' }, end: 'failed', reason: 'PasswordKeyNotFound' });
      for (const secret of [PASSWORD, OTHER_VALUE]) expect(yaml.output).not.toContain(secret);

      // The plans wrote nothing: the controller's status is as it left it.
      expect(((await kube.get(ref()))?.['status'] as typeof status)?.conditions?.find((condition) => condition.type === 'Ready')).toEqual(ready);
    } finally {
      apis.close();
      await kube.patch(ref(), { metadata: { finalizers: null } }, ContentType.mergePatch);
      await kube.delete(ref());
    }
  });
});
