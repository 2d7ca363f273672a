import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { coreTypes } from '../../src/model/refs.js';
import { sensitive } from '../../src/model/sensitive.js';
import { vocabulary } from '../../src/plan/api.js';
import { PlanBuilder, changesAnything, requeueAfterMs } from '../../src/plan/plan.js';
import { renderPlanJson, renderPlanText } from '../../src/plan/render.js';
import { addStatusIfChanged } from '../../src/plan/status.js';
import { isFullyKnown, resolveTemplate, type OutputRef } from '../../src/plan/values.js';
import { controlApi, type ControlAction } from '../../src/apis/control/index.js';
import { keystoneApi, type KeystoneAction } from '../../src/apis/keystone/index.js';
import { kubernetesApi, type KubernetesAction } from '../../src/apis/kubernetes/index.js';

type TestAction = KubernetesAction | KeystoneAction | ControlAction;
const words = vocabulary(kubernetesApi, keystoneApi, controlApi);

const PASSWORD = 'correct-horse-battery-staple';
const secretRef = { type: coreTypes.secret, namespace: 'team-a', name: 'ac-nova-abcde-secret' };
const crType = { group: 'keystone.openstack.org', version: 'v1beta1', kind: 'KeystoneApplicationCredential', plural: 'keystoneapplicationcredentials', namespaced: true };
const crRef = { type: crType, namespace: 'team-a', name: 'ac-nova' };

function rotationPlan() {
  const plan = new PlanBuilder<TestAction>();
  const auth = plan.add(
    { kind: 'keystone.authenticate', endpoint: 'http://keystone.test/v3', userName: 'nova', userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) },
    'a credential must be created',
  );
  const credential = plan.add(
    { kind: 'keystone.createApplicationCredential', session: auth.output('session'), name: 'ac-nova-abcde', description: 'd', roles: ['service'], unrestricted: false, expiresAt: '2027-01-01T00:00:00.000000' },
    'the roles changed',
    (step) => ({ action: { kind: 'keystone.revokeApplicationCredential', session: auth.output('session'), id: step.output('id') }, reason: 'do not leave an unstored credential behind' }),
  );
  plan.add(
    { kind: 'k8s.create', ref: secretRef, object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: secretRef.name, namespace: 'team-a' }, stringData: { AC_ID: credential.output('id'), AC_SECRET: credential.output('secret') } } },
    'store the new credential',
  );
  addStatusIfChanged(plan, crRef, { secretName: 'old' }, { secretName: secretRef.name, acID: credential.output('id') });
  plan.add({ kind: 'control.requeueAfter', afterMs: 3_600_000 }, 'rotate when eligible');
  plan.add({ kind: 'control.requeueAfter', afterMs: 60_000 }, 'check the consumer again');
  return { plan: plan.build(), credential };
}

describe('plans', () => {
  it('number steps by position and reference outputs by step id', () => {
    const { plan, credential } = rotationPlan();
    expect(plan.steps.map((s) => s.id)).toEqual(['s1', 's2', 's3', 's4', 's5', 's6']);
    expect(credential.output('id')).toEqual({ kind: 'output', step: 's2', output: 'id' });
    expect(plan.steps[1]?.compensation?.action).toMatchObject({ kind: 'keystone.revokeApplicationCredential', id: { step: 's2', output: 'id' } });
  });

  it('are pure: the same decisions give equal plans', () => {
    expect(JSON.stringify(renderPlanJson(rotationPlan().plan, words))).toBe(JSON.stringify(renderPlanJson(rotationPlan().plan, words)));
  });

  it('report the earliest requeue and whether they change anything', () => {
    const { plan } = rotationPlan();
    expect(requeueAfterMs(plan)).toBe(60_000);
    expect(changesAnything(plan)).toBe(true);
    const idle = new PlanBuilder<ControlAction>();
    idle.add({ kind: 'control.requeueAfter', afterMs: 5 }, 'later');
    expect(changesAnything(idle.build())).toBe(false);
  });

  it('write status only when it differs', () => {
    const plan = new PlanBuilder<KubernetesAction>();
    addStatusIfChanged(plan, crRef, { a: 1, conditions: [{ type: 'Ready' }] }, { conditions: [{ type: 'Ready' }], a: 1 });
    expect(plan.build().steps).toEqual([]);
    addStatusIfChanged(plan, crRef, { a: 1 }, { a: 2 });
    expect(plan.build().steps).toHaveLength(1);
  });
});

describe('templates', () => {
  it('resolve outputs and reveal sensitive values only when resolved', () => {
    const ref: OutputRef<string> = { kind: 'output', step: 's2', output: 'secret' };
    const template = { stringData: { AC_SECRET: ref, PASSWORD: sensitive('p') }, skipped: undefined };
    expect(isFullyKnown(template)).toBe(false);
    expect(resolveTemplate(template, () => sensitive('from-step'))).toEqual({ stringData: { AC_SECRET: 'from-step', PASSWORD: 'p' } });
  });
});

describe('rendering', () => {
  it('shows steps, reasons, diffs and known-after-apply values as text', () => {
    const text = renderPlanText(rotationPlan().plan, words, 'KeystoneApplicationCredential team-a/ac-nova');
    expect(text).toContain('1. authenticate to Keystone as nova (project service, domain Default)');
    expect(text).toContain('why: the roles changed');
    expect(text).toContain('3. create Secret team-a/ac-nova-abcde-secret');
    expect(text).toContain('+ stringData.AC_SECRET: (known after apply)');
    expect(text).toContain('~ status.secretName: "old" => "ac-nova-abcde-secret"');
    expect(text).toContain('+ status.acID: (known after apply)');
    expect(text).toContain('if a later step fails: revoke application credential (known after apply)');
  });

  it('never prints a sensitive value, as text, JSON or through inspect', () => {
    const { plan } = rotationPlan();
    for (const rendered of [renderPlanText(plan, words), JSON.stringify(renderPlanJson(plan, words)), JSON.stringify(plan), inspect(plan, { depth: 10 })]) {
      expect(rendered).not.toContain(PASSWORD);
    }
  });

  it('says when there is nothing to do', () => {
    expect(renderPlanText({ steps: [] }, words)).toBe('no changes');
  });
});
