import { describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { PlanBuilder, coreTypes, keystoneApi, kubernetesApi, vocabulary, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type AnyQuery, type GetQuery, type KeystoneAction, type KubernetesAction, type ListQuery } from '@keyward/kernel/plan';
import { interpret } from '@keyward/kernel/interpreter';
import { keystoneSandbox } from '../src/planning/keystone-sandbox.js';
import { NEW_UID, asApplied, namespaceOf } from '../src/planning/manifest.js';
import { renderJson, renderText, renderYaml, type PlannedObject } from '../src/planning/render.js';
import { planRounds } from '../src/planning/rounds.js';
import { KubeSandbox } from '../src/planning/sandbox.js';

const secret = (name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '4711', ...extra }, data: { key: 'dmFsdWU=' },
});

/** A cluster of `objects` that records every read it answers. */
function cluster(objects: readonly KubeObject[]): { read: (query: AnyQuery) => Promise<unknown>; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    read: (query) => {
      if (query.kind === 'k8s.get') {
        const { ref } = query as GetQuery;
        reads.push(`get ${ref.name}`);
        return Promise.resolve(objects.find((object) => object.metadata.name === ref.name));
      }
      reads.push(`list ${(query as ListQuery).type.plural}`);
      return Promise.resolve(objects);
    },
  };
}

const run = (sandbox: KubeSandbox, action: KubernetesAction) =>
  interpret({ steps: [{ id: 's1', action, reason: 'test' }] }, { handlers: sandbox.handlers(), vocabulary: vocabulary(kubernetesApi) });

describe('KubeSandbox', () => {
  it('reads each object from the cluster once, then answers from memory with the cluster\'s resourceVersion', async () => {
    const { read, reads } = cluster([secret('a'), secret('b')]);
    const sandbox = new KubeSandbox(read);
    const get: GetQuery = { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: 'ns', name: 'a' } };
    expect(await sandbox.read(get)).toEqual({ ...secret('a'), metadata: { ...secret('a').metadata, resourceVersion: '4711' } });
    await sandbox.read(get);
    const list: ListQuery = { kind: 'k8s.list', type: coreTypes.secret, namespace: 'ns' };
    expect(((await sandbox.read(list)) as KubeObject[]).map((object) => object.metadata.name)).toEqual(['a', 'b']);
    await sandbox.read(list);
    expect(reads).toEqual(['get a', 'list secrets']);
  });

  it('applies writes in memory only, and what they change shows in later reads', async () => {
    const { read, reads } = cluster([secret('a')]);
    const sandbox = new KubeSandbox(read);
    const ref = { type: coreTypes.secret, namespace: 'ns', name: 'a' };
    // A resourceVersion precondition guards against a stale view, which one writer cannot have.
    const labelled = await run(sandbox, { kind: 'k8s.patch', ref, patch: { type: 'merge', body: { metadata: { labels: { team: 'x' } } } }, precondition: { resourceVersion: 'stale' } });
    expect(labelled.ok).toBe(true);
    const changed = await sandbox.get(ref);
    expect(changed?.metadata.labels).toEqual({ team: 'x' });
    expect(changed?.metadata.resourceVersion).not.toBe('4711');

    expect((await run(sandbox, { kind: 'k8s.delete', ref })).ok).toBe(true);
    expect(await sandbox.get(ref)).toBeUndefined();
    expect(reads).toEqual(['get a']);
  });

  it('holds objects of a manifest in place of the cluster\'s', async () => {
    const { read, reads } = cluster([secret('a')]);
    const sandbox = new KubeSandbox(read);
    sandbox.hold(coreTypes.secret, { ...secret('a'), data: { key: 'bmV3' } });
    expect((await sandbox.get({ type: coreTypes.secret, namespace: 'ns', name: 'a' }))?.['data']).toEqual({ key: 'bmV3' });
    expect(reads).toEqual([]);
  });
});

describe('asApplied', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const document: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { x: '2' }, status: { ignored: true } };
  const sameData = (a: KubeObject, b: KubeObject): boolean => JSON.stringify(a['data']) === JSON.stringify(b['data']);

  it('creates a new object as the API server would: namespace, a uid known after apply, generation 1, no status', () => {
    expect(asApplied(document, 'ns', undefined, now, sameData)).toEqual({
      apiVersion: 'v1', kind: 'ConfigMap', data: { x: '2' },
      metadata: { name: 'c', labels: { a: 'b' }, namespace: 'ns', uid: NEW_UID, generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    });
  });

  it('applies the file\'s content, labels and annotations over the cluster\'s metadata and status, moving the generation on when the content changes', () => {
    const existing: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', uid: 'u', resourceVersion: '9', generation: 3, finalizers: ['f'] }, data: { x: '1' }, status: { kept: true } };
    expect(asApplied(document, 'ns', existing, now, sameData)).toEqual({
      apiVersion: 'v1', kind: 'ConfigMap', data: { x: '2' }, status: { kept: true },
      metadata: { name: 'c', namespace: 'ns', uid: 'u', resourceVersion: '9', generation: 4, finalizers: ['f'], labels: { a: 'b' } },
    });
    expect(asApplied({ ...document, data: { x: '1' } }, 'ns', existing, now, sameData).metadata.generation).toBe(3);
  });

  it('turns a Secret\'s stringData into data, as the API server does', () => {
    const applied = asApplied({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } }, 'ns', undefined, now, sameData);
    expect(applied['data']).toEqual({ k: 'dg==' });
    expect(applied['stringData']).toBeUndefined();
  });
});

describe('namespaceOf', () => {
  const object: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
  it('takes the file\'s namespace, else --namespace, else the kubeconfig\'s, and refuses a file that contradicts --namespace', () => {
    expect(namespaceOf(object, coreTypes.secret, undefined, 'default', 'f.yaml')).toBe('default');
    expect(namespaceOf(object, coreTypes.secret, 'flag', 'default', 'f.yaml')).toBe('flag');
    expect(namespaceOf({ ...object, metadata: { name: 's', namespace: 'own' } }, coreTypes.secret, undefined, 'default', 'f.yaml')).toBe('own');
    expect(() => namespaceOf({ ...object, metadata: { name: 's', namespace: 'own' } }, coreTypes.secret, 'flag', 'default', 'f.yaml')).toThrow('Secret s in f.yaml is in namespace own, not in --namespace flag');
    expect(namespaceOf(object, coreTypes.namespace, 'flag', 'default', 'f.yaml')).toBeUndefined();
  });
});

/** Labels a Secret that does not exist, and reports the failure as a Warning event. */
const labeller: ControllerDefinition<KubeObject, Record<string, never>, null, KubernetesAction> = {
  name: 'labeller',
  apis: vocabulary(kubernetesApi),
  primary: { type: coreTypes.secret, decode: right },
  secondary: () => [],
  observe: () => ({}),
  reconcile: () => {
    const plan = new PlanBuilder<KubernetesAction>();
    plan.add({ kind: 'k8s.patch', ref: { type: coreTypes.secret, namespace: 'ns', name: 'nowhere' }, patch: { type: 'merge', body: { metadata: { labels: { team: 'x' } } } } }, 'label it');
    return plan.build();
  },
  reportFailure: (primary, failure) => {
    const plan = new PlanBuilder<KubernetesAction>();
    plan.add({ kind: 'k8s.event', regarding: { type: coreTypes.secret, namespace: 'ns', name: primary.metadata.name }, type: 'Warning', reason: failure.reason, note: failure.message, action: 'Label' }, 'report');
    return plan.build();
  },
  reportInvalid: () => ({ steps: [] }),
};

describe('planRounds', () => {
  const rounds = (definition: typeof labeller) => {
    const sandbox = new KubeSandbox(cluster([secret('a')]).read);
    return planRounds(definition, secret('a'), { config: null, now: new Date('2026-03-01T12:00:00Z'), maxRounds: 6, sandbox, handlers: {} });
  };

  const strict: typeof labeller = { ...labeller, errorPolicy: () => ({ next: 'waitForChange', report: true }) };
  it.each([
    [labeller, 'retries with backoff'],
    [strict, 'waits for the object to change'],
  ])('ends at a step that fails in the sandbox, saying what the controller does next (%#)', async (definition, then) => {
    const outcome = await rounds(definition);
    expect(outcome).toMatchObject({ kind: 'planned', end: { kind: 'failed', message: expect.stringContaining('not found') as unknown, then } });
    expect(outcome.kind === 'planned' ? outcome.plans : []).toHaveLength(1);
  });

  it('says that the controller sends nothing for a generation a recorded failure holds, and reads nothing for it', async () => {
    const { read, reads } = cluster([secret('a', { generation: 3 })]);
    const held: typeof labeller = { ...labeller, heldGeneration: () => 3 };
    const outcome = await planRounds(held, secret('a', { generation: 3 }), { config: null, now: new Date('2026-03-01T12:00:00Z'), maxRounds: 6, sandbox: new KubeSandbox(read), handlers: {} });
    expect(outcome).toEqual({ kind: 'planned', plans: [{ steps: [] }], end: { kind: 'held', generation: 3 } });
    expect(reads).toEqual([]);
    const text = renderText([{ entry: 'object', kind: 'Secret', namespace: 'ns', name: 'a', isNew: false, vocabulary: held.apis, outcome }]);
    expect(text).toBe('Secret ns/a\n  no changes\n  a failure recorded in status holds generation 3: the controller sends nothing for it again until the object is edited');
  });
});

type LoginAction = KubernetesAction | KeystoneAction;

/**
 * Logs in to Keystone with the password of Secret ns/pw, key `password`, then says it is ready; reports a
 * failure in its Ready condition, as the Keyward controllers do.
 */
const loginChecker: ControllerDefinition<KubeObject, Record<string, never>, null, LoginAction> = {
  name: 'login-checker',
  apis: vocabulary(kubernetesApi, keystoneApi),
  primary: { type: coreTypes.configMap, decode: right },
  secondary: () => [],
  observe: () => ({}),
  reconcile: ({ primary }) => {
    const plan = new PlanBuilder<LoginAction>();
    const ready = (primary['status'] as { conditions?: { status: string }[] } | undefined)?.conditions?.[0]?.status === 'True';
    if (ready) return plan.build();
    const ref = { type: coreTypes.configMap, namespace: 'ns', name: primary.metadata.name };
    plan.add({
      kind: 'keystone.authenticate', endpoint: 'http://keystone.test/v3', userName: 'svc', userDomain: 'Default', projectName: 'service', projectDomain: 'Default',
      password: { kind: 'secretKey', namespace: 'ns', name: 'pw', key: 'password' },
    }, 'log in');
    plan.add({ kind: 'k8s.status', ref, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'logged in', lastTransitionTime: '2026-03-01T12:00:00Z' }] } }, 'say so');
    return plan.build();
  },
  reportFailure: (primary, failure) => {
    const plan = new PlanBuilder<LoginAction>();
    const ref = { type: coreTypes.configMap, namespace: 'ns', name: primary.metadata.name };
    const condition = { type: 'Ready', status: 'False', reason: failure.reason, message: `${failure.step} failed: ${failure.message}`, lastTransitionTime: '2026-03-01T12:00:00Z' };
    plan.add({ kind: 'k8s.status', ref, status: { conditions: [condition] } }, 'report the failure');
    return plan.build();
  },
  reportInvalid: () => ({ steps: [] }),
};

describe('planRounds with the Keystone stand-in', () => {
  const PASSWORD = 'a-password-only-the-secret-has';
  const checker = (status?: object): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'checker', namespace: 'ns', uid: 'uid-checker', resourceVersion: '7' }, ...(status === undefined ? {} : { status }) });
  const passwordSecret = (data: Record<string, string>): KubeObject => ({ ...secret('pw'), data });
  const plannedWith = async (password: KubeObject, object: KubeObject): Promise<PlannedObject> => {
    const sandbox = new KubeSandbox(cluster([password, object]).read);
    const outcome = await planRounds(loginChecker, object, { config: null, now: new Date('2026-03-01T12:00:00Z'), maxRounds: 6, sandbox, handlers: keystoneSandbox() });
    return { entry: 'object', kind: 'ConfigMap', namespace: 'ns', name: 'checker', isNew: false, vocabulary: loginChecker.apis, outcome };
  };

  it('logs in with a password Secret that has the key, and settles', async () => {
    const planned = await plannedWith(passwordSecret({ password: Buffer.from(PASSWORD).toString('base64') }), checker());
    expect(planned.outcome).toMatchObject({ kind: 'planned', end: { kind: 'quiet' } });
  });

  // Before, the stand-in logged in whatever the Secret held: a CR whose Secret lacked its key planned a clean
  // creation, while the controller set Ready=False PasswordKeyNotFound.
  it('fails the login as the controller would when the Secret lacks the key, and shows the reported condition', async () => {
    const planned = await plannedWith(passwordSecret({ other: Buffer.from(PASSWORD).toString('base64') }), checker());
    expect(planned.outcome).toEqual({
      kind: 'planned',
      plans: [expect.anything()],
      end: {
        kind: 'failed', step: 1, summary: 'authenticate to Keystone as svc (project service, domain Default)', reason: 'PasswordKeyNotFound', message: 'Secret ns/pw has no key password (or it is empty)',
        then: 'retries with backoff',
        reported: { status: 'False', reason: 'PasswordKeyNotFound', message: 'authenticate to Keystone as svc (project service, domain Default) failed: Secret ns/pw has no key password (or it is empty)' },
      },
    });
  });

  it('renders the failure and the object\'s current condition, and no password', async () => {
    const current = { status: 'False', reason: 'PasswordKeyNotFound', message: 'log in failed: Secret ns/pw has no key password (or it is empty)' } as const;
    const planned = { ...await plannedWith(passwordSecret({ other: Buffer.from(PASSWORD).toString('base64') }), checker()), current };
    const text = renderText([planned]);
    expect(text).toContain('ConfigMap ns/checker\n  now: Ready=False PasswordKeyNotFound: log in failed: Secret ns/pw has no key password (or it is empty)\n');
    expect(text).toContain('\n  fails at step 1, authenticate to Keystone as svc (project service, domain Default) (PasswordKeyNotFound): Secret ns/pw has no key password (or it is empty)\n'
      + '  the steps after it are not taken; the controller reports Ready=False PasswordKeyNotFound and retries with backoff (later reconciles: not shown)');
    expect(text).not.toContain(PASSWORD);
    const [json] = (JSON.parse(renderJson([planned], {})) as { objects: unknown[] }).objects;
    expect(json).toMatchObject({ current, end: 'failed', reason: 'PasswordKeyNotFound', then: 'retries with backoff', reported: { status: 'False', reason: 'PasswordKeyNotFound' } });
    expect(renderYaml([planned], {})).not.toContain(PASSWORD);
  });

  it('shows a converged object\'s condition only when it is not Ready', async () => {
    const ready = { status: 'True', reason: 'Ready', message: 'logged in' } as const;
    const good = passwordSecret({ password: Buffer.from(PASSWORD).toString('base64') });
    const converged = { ...await plannedWith(good, checker({ conditions: [{ type: 'Ready', ...ready, lastTransitionTime: '2026-03-01T11:00:00Z' }] })), current: ready };
    expect(renderText([converged])).toBe('ConfigMap ns/checker\n  no changes');
  });
});

describe('renderYaml', () => {
  it('says what renderJson says, in YAML', async () => {
    const { parse } = await import('yaml');
    const sandbox = new KubeSandbox(cluster([secret('a')]).read);
    const outcome = await planRounds(labeller, secret('a'), { config: null, now: new Date('2026-03-01T12:00:00Z'), maxRounds: 6, sandbox, handlers: {} });
    const entries: PlannedObject[] = [{ entry: 'object', kind: 'Secret', namespace: 'ns', name: 'a', isNew: false, vocabulary: labeller.apis, outcome }];
    const settings = { operatorNamespace: 'keyward-system', operator: null, reason: 'none there', values: {} };
    const yaml = renderYaml(entries, settings);
    expect(yaml).toMatch(/^settings:\n {2}operatorNamespace: keyward-system\n/);
    expect(parse(yaml)).toEqual(JSON.parse(renderJson(entries, settings)));
  });
});
