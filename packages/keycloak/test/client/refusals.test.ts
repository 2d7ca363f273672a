// How a KeycloakClient reports what it cannot do: one Warning event per new problem, a spec Keycloak refused
// (400) not sent again until the spec changes, and a server error Keycloak answers the same way on every try
// named as such.
import { describe, expect, it } from '@jest/globals';
import type { Plan, PlanFailure } from '@keyward/kernel';
import { actionKinds, actionsOf } from '@keyward/kernel/testing';
import { keycloakClientController } from '../../src/client/controller.js';
import { reportClientFailure } from '../../src/client/report.js';
import type { ClientAction } from '../../src/client/vocabulary.js';
import { driven } from '../driven.js';
import { NOW, REALM, baseSpec, clientObject, config, keycloakClient, planFor, realmObject } from './harness.js';

/** The status a plan writes, as the next reconcile reads it back. */
const statusWritten = (plan: Plan<ClientAction>): Record<string, unknown> => {
  const status = actionsOf(plan, 'k8s.status')[0]?.status;
  if (status === undefined) throw new Error('the plan writes no status');
  return status;
};

const readyOf = (status: Record<string, unknown>) => (status['conditions'] as { type: string; reason: string }[]).find((c) => c.type === 'Ready');

const eventsOf = (plan: Plan<ClientAction>) => actionsOf(plan, 'k8s.event').map((event) => `${event.type} ${event.reason}`);

const stranger = keycloakClient({ attributes: { 'io.kubernetes.cr-namespace': 'team-b', 'io.kubernetes.cr-name': 'other' } });

describe('refusals before Keycloak is changed', () => {
  it.each([
    ['a namespace the realm does not grant', { realm: realmObject({ grants: ['team-b'] }) }, 'NotAuthorized'],
    ['a client another object owns', { client: stranger }, 'Conflict'],
    ['a client no object owns', { client: keycloakClient({ fields: { attributes: {} } }) }, 'NotOwned'],
  ])('%s: one Warning event with the status, none on the next reconcile', (_what, world, reason) => {
    const first = planFor(clientObject(), world);
    expect(eventsOf(first)).toEqual([`Warning ${reason}`]);
    const again = planFor(clientObject(baseSpec, statusWritten(first)), world);
    expect(actionKinds(again)).toEqual([]);
  });
});

const failure = (reason: string, retryable: boolean, message = 'HTTP 500: unknown_error'): PlanFailure => ({ step: `create client shop-web in realm ${REALM}`, action: 'keycloak.create', reason, message, retryable });

describe('a failed step', () => {
  it('is told by one Warning event per new reason, not per retry', () => {
    const client = clientObject();
    const first = reportClientFailure(client, failure('Unavailable', true, 'unreachable'), NOW);
    expect(eventsOf(first)).toEqual(['Warning Unavailable']);
    const again = reportClientFailure(clientObject(baseSpec, statusWritten(first)), failure('Unavailable', true, 'unreachable'), NOW);
    expect(actionKinds(again)).toEqual([]);
  });

  it('a server error answered the same way again is named so, told once, and then left as it is', () => {
    const first = reportClientFailure(clientObject(), failure('ServerError', true), NOW);
    expect(readyOf(statusWritten(first))?.reason).toBe('ServerError');
    const second = reportClientFailure(clientObject(baseSpec, statusWritten(first)), failure('ServerError', true), NOW);
    expect(readyOf(statusWritten(second))?.reason).toBe('KeycloakFailsTheSameWay');
    expect(eventsOf(second)).toEqual(['Warning KeycloakFailsTheSameWay']);
    const third = reportClientFailure(clientObject(baseSpec, statusWritten(second)), failure('ServerError', true), NOW);
    expect(actionKinds(third)).toEqual([]);
  });

  it('a server error with another message is a new one', () => {
    const first = reportClientFailure(clientObject(), failure('ServerError', true), NOW);
    const other = reportClientFailure(clientObject(baseSpec, statusWritten(first)), failure('ServerError', true, 'HTTP 502'), NOW);
    expect(readyOf(statusWritten(other))?.reason).toBe('ServerError');
  });
});

describe('a spec Keycloak refused (400)', () => {
  const refused = reportClientFailure(clientObject(), failure('BadRequest', false, 'HTTP 400: invalid_input'), NOW);

  it('is Stalled, told once, and its generation recorded', () => {
    expect(readyOf(statusWritten(refused))?.reason).toBe('BadRequest');
    expect(statusWritten(refused)['refusedGeneration']).toBe(3);
    expect(eventsOf(refused)).toEqual(['Warning BadRequest']);
  });

  it('is not sent again while the generation is the same, whatever wakes it', async () => {
    const again = await driven(keycloakClientController, clientObject(baseSpec, statusWritten(refused)), { realm: realmObject(), client: undefined, credentials: undefined, providedSecret: undefined }, { config, now: NOW });
    expect(again.steps).toEqual([]);
    expect(again.reads).toBe(0);
    expect(again.outcome.requeue).toEqual({ kind: 'onEdit' });
  });

  it('is sent again once the spec changed, and the record goes once Keycloak took it', () => {
    const edited = clientObject(baseSpec, statusWritten(refused), { generation: 4 });
    const plan = planFor(edited, { client: undefined });
    expect(actionKinds(plan)).toContain('keycloak.create');
    expect(statusWritten(plan)).not.toHaveProperty('refusedGeneration');
  });
});
