// A KeycloakRealm tells what it cannot do by one Warning event per new problem: a realm it may not take over,
// a Keycloak that does not answer, a server error Keycloak answers the same way on every try.
import { describe, expect, it } from '@jest/globals';
import type { Plan, PlanFailure } from '@keyward/kernel';
import { actionsOf } from '@keyward/kernel/testing';
import { CR_NAME, CR_NAMESPACE, MANAGED_BY } from '../../src/ownership.js';
import { keycloakRealmController } from '../../src/realm/controller.js';
import { reportFailure } from '../../src/realm/report.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { driven } from '../driven.js';
import { NOW, baseSpec, config, decoded, observedRealm, plan, realmObject } from './fixtures.js';

const statusWritten = (p: Plan<KeycloakRealmAction>): Record<string, unknown> => {
  const status = actionsOf(p, 'k8s.status')[0]?.status;
  if (status === undefined) throw new Error('the plan writes no status');
  return status;
};
const eventsOf = (p: Plan<KeycloakRealmAction>) => actionsOf(p, 'k8s.event').map((event) => `${event.type} ${event.reason}`);

describe('a realm it may not take over', () => {
  it.each([
    ['no object owns', observedRealm({ realmFields: { attributes: {} } }), 'NotOwned'],
    ['another object owns', observedRealm({ realmFields: { attributes: { [MANAGED_BY]: 'keyward', [CR_NAMESPACE]: 'team-b', [CR_NAME]: 'their-realm' } } }), 'OwnedByAnother'],
  ])('(%s) is told by one Warning event, not again on the next reconcile', (_what, realm, reason) => {
    const first = plan(realmObject(baseSpec), { realm });
    expect(eventsOf(first)).toEqual([`Warning ${reason}`]);
    expect(plan(realmObject(baseSpec, { status: statusWritten(first) }), { realm }).steps).toEqual([]);
  });

  it('is told again for a new spec it still refuses', () => {
    const realm = observedRealm({ realmFields: { attributes: {} } });
    const first = plan(realmObject(baseSpec), { realm });
    const edited = { ...realmObject({ ...baseSpec, displayName: 'Edited' }, { status: statusWritten(first) }) };
    const next = plan({ ...edited, metadata: { ...edited.metadata, generation: 4 } }, { realm });
    expect(eventsOf(next)).toEqual(['Warning NotOwned']);
  });
});

const failure = (reason: string, message: string): PlanFailure => ({ step: 'create realm shop', action: 'keycloak.create', reason, message, retryable: true });

describe('a failed step', () => {
  it('an outage is told once, not on every retry', () => {
    const down = failure('Unavailable', 'Keycloak is unreachable (ECONNREFUSED)');
    const first = reportFailure(decoded(realmObject(baseSpec)), down, NOW);
    expect(eventsOf(first)).toEqual(['Warning Unavailable']);
    expect(reportFailure(decoded(realmObject(baseSpec, { status: statusWritten(first) })), down, NOW).steps).toEqual([]);
  });

  it('a server error answered the same way again is named so, once', () => {
    const broken = failure('ServerError', 'HTTP 500: unknown_error');
    const first = reportFailure(decoded(realmObject(baseSpec)), broken, NOW);
    const second = reportFailure(decoded(realmObject(baseSpec, { status: statusWritten(first) })), broken, NOW);
    expect(eventsOf(second)).toEqual(['Warning KeycloakFailsTheSameWay']);
    expect(reportFailure(decoded(realmObject(baseSpec, { status: statusWritten(second) })), broken, NOW).steps).toEqual([]);
  });
});

describe('a spec Keycloak refused (400)', () => {
  const badRequest: PlanFailure = { step: 'create identity provider x', action: 'keycloak.create', reason: 'BadRequest', message: 'HTTP 400: invalid provider', retryable: false };
  const realm = observedRealm();
  const refused = reportFailure(decoded(realmObject(baseSpec)), badRequest, NOW);

  it('is Stalled, told once, and its generation recorded', () => {
    expect(statusWritten(refused)['refusedGeneration']).toBe(3);
    expect(eventsOf(refused)).toEqual(['Warning BadRequest']);
  });

  it('is not sent again while the generation is the same', async () => {
    const again = await driven(keycloakRealmController, realmObject({ ...baseSpec, displayName: 'Not yet' }, { status: statusWritten(refused) }), { realm, smtpPasswordSecret: undefined }, { config, now: NOW });
    expect(again.steps).toEqual([]);
    expect(again.reads).toBe(0);
    expect(again.outcome.requeue).toEqual({ kind: 'onEdit' });
  });

  it('is sent again once the spec changed, and the record goes', () => {
    const edited = realmObject({ ...baseSpec, displayName: 'Edited' }, { status: statusWritten(refused) });
    const next = plan({ ...edited, metadata: { ...edited.metadata, generation: 4 } }, { realm });
    expect(next.steps.map((step) => step.action.kind)).toContain('keycloak.update');
    expect(statusWritten(next)).not.toHaveProperty('refusedGeneration');
  });
});
