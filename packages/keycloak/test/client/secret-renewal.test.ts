import { describe, expect, it } from '@jest/globals';
import { DAY_MS, HOUR_MS } from '@keyward/kernel/model';
import { isOutputRef } from '@keyward/kernel/plan';
import { actionKinds, actionsOf } from '@keyward/kernel/testing';
import { CREDENTIALS_KEYS } from '../../src/client/secret.js';
import { NOW, REALM, at, baseSpec, clientObject, keycloakClient, planFor, storedSecret } from './harness.js';

const converged = () => {
  const first = planFor(clientObject(), { client: keycloakClient() });
  return storedSecret(actionsOf(first, 'k8s.apply')[0]?.object ?? {});
};

describe('regenerateSecret fires once per change of its token', () => {
  it.each([
    ['a new token', 'rotate-2', 'rotate-1', true],
    ['the token acted upon', 'rotate-1', 'rotate-1', false],
    ['the old operator\'s true, never acted upon', true, undefined, true],
    ['the old operator\'s true, acted upon', true, 'true', false],
    ['false', false, undefined, false],
    ['an empty token', '', undefined, false],
  ] as const)('%s', (_what, token, actedUpon, fires) => {
    const status = { realm: REALM, ...(actedUpon === undefined ? {} : { secretRegeneratedFor: actedUpon }) };
    const plan = planFor(clientObject({ ...baseSpec, regenerateSecret: token }, status), { client: keycloakClient(), credentials: converged() });
    expect(actionKinds(plan).includes('keycloak.regenerateClientSecret')).toBe(fires);
    if (!fires) return;
    expect(actionKinds(plan)).toEqual(['k8s.patch', 'keycloak.regenerateClientSecret', 'k8s.apply', 'k8s.status']);
    // The Secret gets the regeneration's output, and status records the token so the next reconcile does not fire again.
    const secret = (actionsOf(plan, 'k8s.apply')[0]?.object['stringData'] as Record<string, unknown>)[CREDENTIALS_KEYS.clientSecret];
    expect(secret).toEqual({ kind: 'output', step: plan.steps[1]?.id, output: 'secret' });
    // A plan made from a stale object (its status not yet showing the last regeneration) stops before Keycloak is touched.
    expect(actionsOf(plan, 'k8s.patch')[0]).toMatchObject({ patch: { type: 'merge', body: {} }, precondition: { resourceVersion: '7' } });
    const recorded = actionsOf(plan, 'k8s.status')[0]?.status as Record<string, unknown>;
    expect(recorded['secretRegeneratedFor']).toBe(token === true ? 'true' : token);
    const next = planFor(clientObject({ ...baseSpec, regenerateSecret: token }, recorded), { client: keycloakClient(), credentials: converged() });
    expect(actionKinds(next)).not.toContain('keycloak.regenerateClientSecret');
  });
});

describe('scheduled rotation, with a fixed now', () => {
  const rotating = { ...baseSpec, secretRotation: { enabled: true, rotationPeriod: '90d' } };
  /** A converged client whose last rotation was at `last`. */
  const planAt = (last: Date | undefined) => {
    const status = { realm: REALM, ...(last === undefined ? {} : { lastSecretRotation: at(last) }) };
    const settled = actionsOf(planFor(clientObject(baseSpec, status), { client: keycloakClient() }), 'k8s.status')[0]?.status ?? status;
    return planFor(clientObject(rotating, settled), { client: keycloakClient(), credentials: converged() });
  };

  it('regenerates when the period has passed, records the rotation, and waits a whole period', () => {
    const plan = planAt(new Date(NOW.getTime() - 90 * DAY_MS));
    expect(actionKinds(plan)).toEqual(['k8s.patch', 'keycloak.regenerateClientSecret', 'k8s.apply', 'k8s.status', 'control.requeueAfter']);
    expect(actionsOf(plan, 'k8s.status')[0]?.status).toMatchObject({ lastSecretRotation: at(NOW) });
    expect(actionsOf(plan, 'control.requeueAfter')[0]?.afterMs).toBe(90 * DAY_MS);
    expect(isOutputRef((actionsOf(plan, 'k8s.apply')[0]?.object['stringData'] as Record<string, unknown>)[CREDENTIALS_KEYS.clientSecret])).toBe(true);
  });

  it('before the period ends, writes nothing and requeues for exactly the time left', () => {
    const plan = planAt(new Date(NOW.getTime() - 90 * DAY_MS + 5 * HOUR_MS));
    expect(actionKinds(plan)).toEqual(['control.requeueAfter']);
    expect(actionsOf(plan, 'control.requeueAfter')[0]?.afterMs).toBe(5 * HOUR_MS);
  });

  it('starts the period of a client with no recorded rotation rather than rotating at once', () => {
    const plan = planAt(undefined);
    expect(actionKinds(plan)).toEqual(['k8s.status', 'control.requeueAfter']);
    expect(actionsOf(plan, 'k8s.status')[0]?.status).toMatchObject({ lastSecretRotation: at(NOW) });
    expect(actionsOf(plan, 'control.requeueAfter')[0]?.afterMs).toBe(90 * DAY_MS);
  });

  it('reads periods in minutes and hours too', () => {
    const plan = planFor(clientObject({ ...baseSpec, secretRotation: { enabled: true, rotationPeriod: '1h30m' } }, { realm: REALM, lastSecretRotation: at(NOW) }), { client: keycloakClient(), credentials: converged() });
    expect(actionsOf(plan, 'control.requeueAfter')[0]?.afterMs).toBe(1.5 * HOUR_MS);
  });
});
