import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { inspect } from 'node:util';
import { findCondition, renderPlanJson, renderPlanText } from '@keyward/kernel';
import { actionKinds, isQuiet } from '@keyward/kernel/testing';
import { computeSecurityHash } from '../src/security-hash.js';
import { appCredApis } from '../src/vocabulary.js';
import { NS, PASSWORD, baseSpec, config, cr, credentials, crRef, days, holdFinalizer, plan, reconcileCr, recordedName, secretRef, secretsOf, setup } from './harness.js';

function dataOf(secret: Record<string, unknown> | undefined, key: string): string {
  return Buffer.from((secret?.['data'] as Record<string, string> | undefined)?.[key] ?? '', 'base64').toString();
}

describe('creating a credential', () => {
  it('creates the credential, an immutable labelled Secret and the status, then has nothing left to do', async () => {
    const { world, clock } = setup();
    const { result } = await reconcileCr(world, clock);
    expect(result?.ok).toBe(true);
    const current = cr(world);
    const secret = world.get(secretRef(current.status.secretName ?? ''));
    expect(current.status.secretName).toBe(`ac-barbican-${(current.status.acID ?? '').slice(0, 5)}-secret`);
    expect(secret?.metadata).toMatchObject({
      labels: { 'application-credentials': 'true', 'application-credential-service': 'barbican' },
      finalizers: ['openstack.org/ac-secret-protection'],
      ownerReferences: [expect.objectContaining({ kind: 'KeystoneApplicationCredential', name: 'ac-barbican', controller: true, blockOwnerDeletion: true })],
    });
    expect(secret?.['immutable']).toBe(true);
    expect(world.apis.keystone.credentialWorks(dataOf(secret, 'AC_ID'), dataOf(secret, 'AC_SECRET'))).toBe(true);
    expect(current.metadata.finalizers).toContain('openstack.org/applicationcredential');
    expect(current.status).toMatchObject({
      createdAt: '2026-03-01T12:00:00Z',
      expiresAt: '2027-03-01T12:00:00Z',
      rotationEligibleAt: '2026-08-31T12:00:00Z',
      securityHash: computeSecurityHash(baseSpec),
      observedGeneration: 1,
    });
    expect(current.status.lastRotated).toBeUndefined();
    expect(current.status.pendingACName).toBeUndefined();
    expect(findCondition(current.status.conditions, 'Ready')).toMatchObject({ status: 'True', message: 'Setup complete' });
    expect(world.events).toEqual([]);

    const again = plan(world, clock);
    expect(isQuiet(again)).toBe(true);
    expect(again.steps).toHaveLength(1);
    expect(again.steps[0]?.action).toEqual({ kind: 'control.requeueAfter', afterMs: days(183) + 1000 });
  });

  it('first records the name and adds the finalizer, in one patch guarded by the resourceVersion, then creates', () => {
    const { world, clock } = setup();
    const p = plan(world, clock);
    expect(actionKinds(p)).toEqual(['k8s.patch', 'keystone.authenticate', 'keystone.createApplicationCredential', 'k8s.create', 'k8s.status', 'control.requeueAfter']);
    const name = p.steps.find((s) => s.action.kind === 'keystone.createApplicationCredential')?.action;
    expect(p.steps[0]?.action).toMatchObject({
      patch: { type: 'merge', body: { metadata: { finalizers: ['openstack.org/applicationcredential'], annotations: { 'keystone.keyward.io/credential-name': name?.kind === 'keystone.createApplicationCredential' ? name.name : '' } } } },
      precondition: { resourceVersion: cr(world).metadata.resourceVersion },
    });
  });

  it('adds the finalizer alone when it creates nothing yet (no usable Keystone)', () => {
    const { world, clock } = setup();
    world.remove({ type: { group: 'keystone.openstack.org', version: 'v1beta1', kind: 'KeystoneAPI', plural: 'keystoneapis', namespaced: true }, namespace: NS, name: 'keystone' });
    expect(actionKinds(plan(world, clock))).toEqual(['k8s.addFinalizer']);
  });

  it('writes the name on the Secret too, which is how a later reconcile knows the creation finished', async () => {
    const { world, clock } = setup();
    await reconcileCr(world, clock);
    const secret = world.get(secretRef(cr(world).status.secretName ?? ''));
    const name = credentials(world)[0]?.name;
    expect(secret?.metadata.annotations).toEqual({ 'keystone.keyward.io/credential-name': name });
    expect(recordedName(world)).toBe(name);
  });

  it('names the credential <cr>-<5 characters> and describes it as upstream does', () => {
    const { world, clock } = setup();
    world.put(crRef().type, { ...(world.get(crRef()) ?? { metadata: { name: '' } }), metadata: { ...(world.get(crRef())?.metadata ?? { name: '' }), finalizers: ['openstack.org/applicationcredential'] } });
    const create = plan(world, clock, 3).steps.find((s) => s.action.kind === 'keystone.createApplicationCredential')?.action;
    expect(create).toMatchObject({
      name: expect.stringMatching(/^ac-barbican-[bcdfghjklmnpqrstvwxz2456789]{5}$/),
      description: 'Created by keystone-operator for AC CR openstack/ac-barbican (user: barbican)',
      roles: ['service'],
      accessRules: undefined,
      unrestricted: false,
      expiresAt: '2027-03-01T12:00:00.000000',
    });
  });

  it('never shows the password or the credential secret in a plan', async () => {
    const { world, clock } = setup();
    const p = plan(world, clock);
    for (const text of [renderPlanText(p, appCredApis), JSON.stringify(renderPlanJson(p, appCredApis)), inspect(p, { depth: 20 })]) {
      expect(text).not.toContain(PASSWORD);
    }
    expect(renderPlanText(p, appCredApis)).toContain('create Secret openstack/ac-barbican-(known after apply)-secret');
    await reconcileCr(world, clock);
    const secret = world.get(secretRef(cr(world).status.secretName ?? ''));
    expect(JSON.stringify(cr(world))).not.toContain(dataOf(secret, 'AC_SECRET'));
  });

  it('converges for any valid spec: reconcile, apply, reconcile again gives nothing to do', async () => {
    const rule = fc.record({ service: fc.constantFrom('compute', 'image'), path: fc.constantFrom('/servers', '/v2/**'), method: fc.constantFrom('GET', 'POST') });
    const spec = fc.record({
      roles: fc.uniqueArray(fc.constantFrom('service', 'admin', 'reader'), { minLength: 1, maxLength: 3 }),
      accessRules: fc.option(fc.uniqueArray(rule, { maxLength: 2, selector: (r) => `${r.method} ${r.service} ${r.path}` }), { nil: undefined }),
      unrestricted: fc.boolean(),
      expirationDays: fc.integer({ min: 2, max: 800 }),
    }).chain((s) => fc.integer({ min: 1, max: s.expirationDays - 1 }).map((gracePeriodDays) => ({ ...baseSpec, ...s, gracePeriodDays })));
    await fc.assert(
      fc.asyncProperty(spec, fc.nat(1000), async (s, seed) => {
        const { world, clock } = setup(s);
        expect((await reconcileCr(world, clock, seed)).result?.ok).toBe(true);
        expect(isQuiet(plan(world, clock, seed + 1))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});

describe('rotation', () => {
  it('is not due exactly at rotationEligibleAt, and is one millisecond later', async () => {
    const { world, clock } = setup();
    await reconcileCr(world, clock);
    clock.set('2026-08-31T12:00:00Z');
    expect(isQuiet(plan(world, clock))).toBe(true);
    clock.advance(1);
    expect(actionKinds(plan(world, clock))).toContain('keystone.createApplicationCredential');
  });

  it.each([
    ['a roles change', (world: ReturnType<typeof setup>['world']) => { world.put(crRef().type, { ...(world.get(crRef()) ?? { metadata: { name: '' } }), spec: { ...baseSpec, roles: ['service', 'admin'] } }); }],
    ['status.expiresAt patched into the past', (world: ReturnType<typeof setup>['world']) => {
      const object = world.get(crRef());
      world.put(crRef().type, { ...(object ?? { metadata: { name: '' } }), status: { ...(object?.['status'] as object), expiresAt: '2001-05-19T00:00:00Z' } });
    }],
    ['a deleted Secret', (world: ReturnType<typeof setup>['world']) => { world.remove(secretRef(cr(world).status.secretName ?? '')); }],
  ])('is triggered by %s, keeps the previous Secret and records an event', async (_trigger, change) => {
    const { world, clock } = setup();
    await reconcileCr(world, clock);
    const first = cr(world).status;
    clock.advance(days(1));
    change(world);
    const before = cr(world).status;
    const { result } = await reconcileCr(world, clock, 7);
    expect(result?.error).toBeUndefined();
    const after = cr(world).status;
    expect(after.acID).not.toBe(first.acID);
    expect(after.previousSecretName).toBe(first.secretName);
    expect(after.lastRotated).toBe('2026-03-02T12:00:00Z');
    expect(world.events).toEqual([expect.objectContaining({ type: 'Normal', reason: 'ApplicationCredentialRotated', regarding: `${NS}/ac-barbican`, reportingController: 'keystoneapplicationcredential-controller' })]);
    // Upstream's wording, byte for byte: alert rules match on it.
    expect(world.events[0]?.note).toBe(
      `Rotated credentials for user barbican. New expiration: ${String(after.expiresAt)}, next rotation eligible: ${String(after.rotationEligibleAt)} (grace period: 182 days). Previous credential expires: ${String(before.expiresAt)}`,
    );
    expect(isQuiet(plan(world, clock, 8))).toBe(true);
  });

  it('rewrites rotationEligibleAt at once when gracePeriodDays changes, and reschedules to it', async () => {
    const { world, clock } = setup();
    await reconcileCr(world, clock);
    const object = world.get(crRef());
    world.put(crRef().type, { ...(object ?? { metadata: { name: '' } }), spec: { ...baseSpec, gracePeriodDays: 30 } });
    const p = plan(world, clock);
    expect(actionKinds(p)).toEqual(['k8s.status', 'control.requeueAfter']);
    await world.run(p);
    // expiresAt 2027-03-01T12:00:00Z minus 30 days.
    expect(cr(world).status.rotationEligibleAt).toBe('2027-01-30T12:00:00Z');
    expect(p.steps[1]?.action).toEqual({ kind: 'control.requeueAfter', afterMs: Date.parse('2027-01-30T12:00:00Z') - clock.now().getTime() + 1_000 });
    expect(isQuiet(plan(world, clock))).toBe(true);
  });

  it('rotates when expiresAt is missing instead of never (upstream gap)', async () => {
    const { world, clock } = setup();
    await reconcileCr(world, clock);
    const object = world.get(crRef());
    const { expiresAt: _gone, ...status } = object?.['status'] as Record<string, unknown>;
    world.put(crRef().type, { ...(object ?? { metadata: { name: '' } }), status });
    expect(actionKinds(plan(world, clock))).toContain('keystone.createApplicationCredential');
  });

  it('does not rotate an object the upstream operator wrote with the same hash', () => {
    const upstreamStatus = {
      acID: '7b23dbac20bc4f048f937415c84bb329',
      secretName: 'ac-barbican-7b23d-secret',
      createdAt: '2026-02-01T09:02:28Z',
      expiresAt: '2027-02-01T09:02:28Z',
      rotationEligibleAt: '2026-08-03T09:02:28Z',
      securityHash: computeSecurityHash({ roles: ['service'], unrestricted: false }),
    };
    const { world, clock } = setup(baseSpec, upstreamStatus);
    world.put(secretRef('ac-barbican-7b23d-secret').type, {
      metadata: { name: 'ac-barbican-7b23d-secret', namespace: NS, labels: { 'application-credentials': 'true', 'application-credential-service': 'barbican' }, finalizers: ['openstack.org/ac-secret-protection'] },
      data: { AC_ID: Buffer.from(upstreamStatus.acID).toString('base64'), AC_SECRET: Buffer.from('s').toString('base64') },
    });
    const kinds = actionKinds(plan(world, clock));
    expect(kinds).not.toContain('keystone.createApplicationCredential');
    expect(kinds).not.toContain('keystone.authenticate');
  });
});

describe('handover to consumers', () => {
  it('keeps an old Secret while a consumer holds it, says who, and revokes and deletes it once released', async () => {
    const { world, clock } = setup();
    await reconcileCr(world, clock, 1);
    const oldest = cr(world).status.secretName ?? '';
    const oldestObject = world.get(secretRef(oldest));
    world.put(secretRef(oldest).type, { ...(oldestObject ?? { metadata: { name: '' } }), metadata: { ...(oldestObject?.metadata ?? { name: '' }), finalizers: ['openstack.org/ac-secret-protection', 'openstack.org/nova-ac-consumer'] } });
    const oldestId = cr(world).status.acID ?? '';

    for (const seed of [2, 3]) {
      const object = world.get(crRef());
      world.put(crRef().type, { ...(object ?? { metadata: { name: '' } }), status: { ...(object?.['status'] as object), expiresAt: '2001-01-01T00:00:00Z' } });
      await reconcileCr(world, clock, seed);
    }
    // current and previous are the two newest; the oldest is held by nova.
    await reconcileCr(world, clock, 4);
    expect(world.get(secretRef(oldest))).toBeDefined();
    expect(findCondition(cr(world).status.conditions, 'KeystoneApplicationCredentialReady')?.message).toContain(`old credential ${oldest} is still used by nova`);
    expect(credentials(world).map((c) => c.id)).toContain(oldestId);

    const held = world.get(secretRef(oldest));
    world.put(secretRef(oldest).type, { ...(held ?? { metadata: { name: '' } }), metadata: { ...(held?.metadata ?? { name: '' }), finalizers: ['openstack.org/ac-secret-protection'] } });
    expect((await reconcileCr(world, clock, 5)).result?.ok).toBe(true);
    expect(world.get(secretRef(oldest))).toBeUndefined();
    expect(credentials(world).map((c) => c.id)).not.toContain(oldestId);
    expect(secretsOf(world)).toHaveLength(2);
    expect(findCondition(cr(world).status.conditions, 'Ready')?.message).toBe('Setup complete');
    expect(isQuiet(plan(world, clock, 6))).toBe(true);
  });
});

describe('deletion', () => {
  async function deleteCr(revokeOnDelete: boolean) {
    const { world, clock } = setup();
    await reconcileCr(world, clock);
    const object = world.get(crRef());
    world.put(crRef().type, { ...(object ?? { metadata: { name: '' } }), metadata: { ...(object?.metadata ?? { name: '' }), deletionTimestamp: '2026-03-02T00:00:00Z' } });
    await reconcileCr(world, clock, 0, { ...config, revokeOnDelete });
    return world;
  }

  it('releases the Secrets and the CR without revoking by default', async () => {
    const world = await deleteCr(false);
    expect(world.get(crRef())).toBeUndefined();
    expect(secretsOf(world)).toEqual([]);
    expect(credentials(world)).toHaveLength(1);
  });

  it('revokes when the operator is told to', async () => {
    const world = await deleteCr(true);
    expect(world.get(crRef())).toBeUndefined();
    expect(credentials(world)).toEqual([]);
  });
});

describe('failures', () => {
  it('reports a missing password Secret by name, never with a password, and recovers when it appears', async () => {
    const { world, clock } = setup();
    world.remove(secretRef('osp-secret'));
    const { result } = await reconcileCr(world, clock);
    expect(result?.ok).toBe(false);
    const condition = findCondition(cr(world).status.conditions, 'KeystoneApplicationCredentialReady');
    expect(condition).toMatchObject({ status: 'False', reason: 'PasswordSecretNotFound' });
    expect(condition?.message).toContain('Secret openstack/osp-secret not found');
    expect(recordedName(world)).toMatch(/^ac-barbican-/);

    world.put(secretRef('osp-secret').type, { metadata: { name: 'osp-secret', namespace: NS }, data: { BarbicanPassword: Buffer.from(PASSWORD).toString('base64') } });
    expect((await reconcileCr(world, clock, 1)).result?.ok).toBe(true);
    expect(findCondition(cr(world).status.conditions, 'Ready')?.status).toBe('True');
    expect(credentials(world)).toHaveLength(1);
  });

  it('revokes a credential whose creation was interrupted before its Secret was stored', async () => {
    const { world, clock } = setup();
    const p = plan(world, clock, 1);
    const upToCreate = { steps: p.steps.slice(0, p.steps.findIndex((s) => s.action.kind === 'keystone.createApplicationCredential') + 1) };
    await world.run(upToCreate);
    expect(credentials(world)).toHaveLength(1);
    const orphan = credentials(world)[0];
    expect(recordedName(world)).toBe(orphan?.name);

    expect((await reconcileCr(world, clock, 2)).result?.ok).toBe(true);
    const ids = credentials(world).map((c) => c.id);
    expect(ids).toEqual([cr(world).status.acID]);
    expect(ids).not.toContain(orphan?.id);
    expect(cr(world).status.pendingACName).toBeUndefined();
  });

  it('retries an interrupted creation, and deletes with revocation, logging in before any write, so a retry Keystone refuses writes nothing', async () => {
    const { world, clock } = setup();
    const p = plan(world, clock, 1);
    await world.run({ steps: p.steps.slice(0, p.steps.findIndex((s) => s.action.kind === 'keystone.authenticate')) });
    expect(recordedName(world)).toMatch(/^ac-barbican-/);
    expect(actionKinds(plan(world, clock, 2)).slice(0, 3)).toEqual(['keystone.authenticate', 'k8s.patch', 'keystone.revokeApplicationCredential']);

    expect((await reconcileCr(world, clock, 3)).result?.ok).toBe(true);
    const object = world.get(crRef());
    world.put(crRef().type, { ...(object ?? { metadata: { name: '' } }), metadata: { ...(object?.metadata ?? { name: '' }), deletionTimestamp: '2026-03-01T12:00:00Z' } });
    expect(actionKinds(plan(world, clock, 4, { ...config, revokeOnDelete: true })).slice(0, 3)).toEqual(['keystone.authenticate', 'k8s.patch', 'keystone.revokeApplicationCredential']);
  });

  it('stops a plan made from a stale view before any Keystone call', async () => {
    const { world, clock } = setup();
    await reconcileCr(world, clock);
    const object = world.get(crRef());
    world.put(crRef().type, { ...(object ?? { metadata: { name: '' } }), status: { ...(object?.['status'] as object), expiresAt: '2001-01-01T00:00:00Z' } });
    const stale = plan(world, clock, 5);
    await reconcileCr(world, clock, 6);
    const before = credentials(world).length;
    const result = await world.run(stale);
    expect(result.error).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(result.steps[0]?.outcome).toBe('failed');
    expect(credentials(world)).toHaveLength(before);
  });

  it('waits for a ready KeystoneAPI and says why', () => {
    const { world, clock } = setup();
    holdFinalizer(world);
    world.remove({ type: { group: 'keystone.openstack.org', version: 'v1beta1', kind: 'KeystoneAPI', plural: 'keystoneapis', namespaced: true }, namespace: NS, name: 'keystone' });
    const p = plan(world, clock);
    expect(actionKinds(p)).toEqual(['k8s.status', 'control.requeueAfter']);
    expect(JSON.stringify(p.steps[0]?.action)).toContain('no KeystoneAPI in namespace openstack');
  });
});
