import { describe, expect, it } from '@jest/globals';
import { coreTypes } from '../../src/model/refs.js';
import { sensitive } from '../../src/model/sensitive.js';
import type { AnyAction, AnyQuery } from '../../src/plan/actions.js';
import { defineApi, vocabulary } from '../../src/plan/api.js';
import { PlanBuilder, type Plan } from '../../src/plan/plan.js';
import { renderPlanJson, renderPlanText } from '../../src/plan/render.js';
import { controlApi, type ControlAction } from '../../src/apis/control/index.js';
import { keystoneApi, type KeystoneAction } from '../../src/apis/keystone/index.js';
import { kubernetesApi, type KubernetesAction } from '../../src/apis/kubernetes/index.js';

const secretRef = { type: coreTypes.secret, namespace: 'team-a', name: 'credentials' };
const SECRET = 'hunter2-but-longer';

/** A module of this test's own: one action with details, one without, and one query. */
interface PingAction {
  readonly kind: 'test.ping';
  readonly host: string;
}
interface WaveAction {
  readonly kind: 'test.wave';
}
interface LookQuery {
  readonly kind: 'test.look';
  readonly at: string;
}
const testApi = defineApi<PingAction | WaveAction, LookQuery>({
  name: 'test',
  actions: {
    'test.ping': { describe: (a) => `ping ${a.host}`, details: (a) => [`host: ${a.host}`] },
    'test.wave': { describe: () => 'wave' },
  },
  queries: { 'test.look': { describe: (q) => `look at ${q.at}` } },
});

describe('vocabulary', () => {
  const words = vocabulary(kubernetesApi, keystoneApi, controlApi, testApi);

  it('names its APIs in the order given', () => {
    expect(words.apis).toEqual(['kubernetes', 'keystone', 'control', 'test']);
  });

  it('describes each module\'s actions and queries by that module\'s presentations', () => {
    expect(words.describe({ kind: 'k8s.delete', ref: secretRef })).toBe('delete Secret team-a/credentials');
    expect(words.describe({ kind: 'keystone.createApplicationCredential', session: { endpoint: 'e', token: sensitive('t'), userId: 'u' }, name: 'ac-1', description: '', roles: [], unrestricted: false }))
      .toBe('create application credential ac-1');
    expect(words.describe({ kind: 'control.requeueAfter', afterMs: 90_000 })).toBe('check again in 1m30s');
    expect(words.describe({ kind: 'control.requeueAfter', afterMs: 15_811_139_000 })).toBe('check again in 182d23h');
    expect(words.describe({ kind: 'test.ping', host: 'example.org' })).toBe('ping example.org');
    expect(words.describeQuery({ kind: 'k8s.list', type: coreTypes.secret, namespace: 'team-a' })).toBe('list secrets in team-a');
    expect(words.describeQuery({ kind: 'test.look', at: 'the sky' })).toBe('look at the sky');
  });

  it('details an action by its module, and an action its module does not detail by nothing', () => {
    expect(words.details({ kind: 'test.ping', host: 'example.org' })).toEqual(['host: example.org']);
    expect(words.details({ kind: 'k8s.status', ref: secretRef, status: { phase: 'Ready' }, observed: { phase: 'Pending' } })).toEqual(['~ status.phase: "Pending" => "Ready"']);
    expect(words.details({ kind: 'test.wave' })).toEqual([]);
    expect(words.details({ kind: 'k8s.delete', ref: secretRef })).toEqual([]);
  });

  it('shows a kind none of its APIs presents by the kind alone (a plan read from elsewhere)', () => {
    const narrow = vocabulary(controlApi);
    // Cast: the types rule this out for plans built here; a plan decoded from JSON is not checked.
    const foreign = { kind: 'elsewhere.launch' } as AnyAction as ControlAction;
    expect(narrow.describe(foreign)).toBe('elsewhere.launch');
    expect(narrow.details(foreign)).toEqual([]);
    const query = { kind: 'elsewhere.read' } as AnyQuery as never;
    expect(narrow.describeQuery(query)).toBe('elsewhere.read');
  });

  it('refuses two APIs that define the same action kind, or the same query kind', () => {
    const copycat = defineApi<{ readonly kind: 'k8s.delete' }>({ name: 'copycat', actions: { 'k8s.delete': { describe: () => 'not really' } }, queries: {} });
    expect(() => vocabulary(kubernetesApi, copycat)).toThrow('APIs kubernetes and copycat both define the kind k8s.delete');
    const reader = defineApi<never, LookQuery>({ name: 'reader', actions: {}, queries: { 'test.look': { describe: () => 'look' } } });
    expect(() => vocabulary(testApi, reader)).toThrow('APIs test and reader both define the kind test.look');
  });
});

describe('rendering a plan with a vocabulary', () => {
  type Action = KubernetesAction | KeystoneAction | ControlAction;
  const words = vocabulary(kubernetesApi, keystoneApi, controlApi);

  /** Every place a plan may hold a secret: object bodies, patches, status, passwords, compensations. */
  function planWithSecrets() {
    const plan = new PlanBuilder<Action>();
    const auth = plan.add(
      { kind: 'keystone.authenticate', endpoint: 'http://keystone.test/v3', userName: 'nova', userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(SECRET) },
      'log in',
    );
    plan.add({ kind: 'k8s.apply', ref: secretRef, object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: secretRef.name }, stringData: { password: sensitive(SECRET) } } }, 'apply');
    plan.add(
      { kind: 'k8s.create', ref: secretRef, object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: secretRef.name }, data: { password: sensitive(SECRET), list: [sensitive(SECRET)] } } },
      'create',
      () => ({ action: { kind: 'k8s.patch', ref: secretRef, patch: { type: 'merge', body: { stringData: { password: sensitive(SECRET) } } } }, reason: 'undo' }),
    );
    plan.add({ kind: 'k8s.patch', ref: secretRef, patch: { type: 'json', operations: [{ op: 'replace', path: '/stringData/password', value: sensitive(SECRET) }] } }, 'json patch');
    plan.add({ kind: 'k8s.status', ref: secretRef, status: { token: sensitive(SECRET) }, observed: {} }, 'status');
    plan.add({ kind: 'keystone.revokeApplicationCredential', session: auth.output('session'), name: 'ac-1' }, 'revoke');
    return plan.build();
  }

  it('shows every sensitive value as (sensitive), as text and as JSON', () => {
    const plan = planWithSecrets();
    const text = renderPlanText(plan, words);
    const json = JSON.stringify(renderPlanJson(plan, words));
    for (const rendered of [text, json]) {
      expect(rendered).not.toContain(SECRET);
      expect(rendered).toContain('(sensitive)');
    }
    expect(text).toContain('+ stringData.password: (sensitive)');
    expect(text).toContain('replace /stringData/password: (sensitive)');
    expect(text).toContain('+ status.token: (sensitive)');
  });

  it('shows a step of a kind the vocabulary does not present by its kind', () => {
    // A plan read from elsewhere (a file, another version): its kinds are not checked against the types.
    const foreign = { steps: [{ id: 's1', action: { kind: 'elsewhere.launch' }, reason: 'read from a file' }] } as Plan as Plan<ControlAction>;
    const narrow = vocabulary(controlApi);
    expect(renderPlanText(foreign, narrow)).toBe('1. elsewhere.launch\n   why: read from a file');
    expect(renderPlanJson(foreign, narrow)).toEqual({ steps: [{ id: 's1', kind: 'elsewhere.launch', summary: 'elsewhere.launch', reason: 'read from a file', action: { kind: 'elsewhere.launch' } }] });
  });
});
