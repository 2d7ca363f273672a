// What follows a failed Keycloak reconcile: a spec Keycloak refused (400, 422 on a step of the plan) waits for
// an edit of the object; a create whose resource a read found made meanwhile is read again at once, unreported;
// every other failure follows the kernel's default policy.
import { describe, expect, it } from '@jest/globals';
import { defaultErrorPolicy } from '@keyward/kernel/plan';
import type { KeywardErrorFields } from '@keyward/kernel/interpreter';
import { keycloakErrorPolicy } from '../src/problems.js';

const error = (code: number, reason: string, api = 'keycloak'): KeywardErrorFields => ({ api, code, reason, message: `HTTP ${String(code)}`, retryable: code >= 500 });

describe('keycloakErrorPolicy', () => {
  it.each([
    [400, 'BadRequest', 'keycloak.create'],
    [422, 'Invalid', 'keycloak.update'],
  ])('waits for an edit after Keycloak refused a step as the spec makes it (%d)', (code, reason, action) => {
    expect(keycloakErrorPolicy(error(code, reason), action)).toEqual({ next: 'waitForEdit', report: true });
  });

  it.each([
    ['a refused read', error(400, 'BadRequest'), 'observe'],
    ['a refusal of Kubernetes', error(422, 'Invalid', 'kubernetes'), 'k8s.apply'],
    ['a server error', error(500, 'ServerError'), 'keycloak.update'],
    ['a stale view', error(409, 'Conflict', 'kubernetes'), 'k8s.status'],
    ['a failure of an unknown step', error(400, 'BadRequest'), undefined],
    ['a create Keycloak answered 409 that no read confirmed', error(409, 'Conflict'), 'keycloak.create'],
    ['a retryable 409 of an update', { ...error(409, 'Conflict'), retryable: true }, 'keycloak.update'],
  ])('follows the default policy for %s', (_what, failed, action) => {
    expect(keycloakErrorPolicy(failed, action)).toEqual(defaultErrorPolicy(failed));
  });

  it('reads again at once, without a report, after a create whose resource a read right after found (a retryable 409)', () => {
    expect(keycloakErrorPolicy({ ...error(409, 'Conflict'), retryable: true }, 'keycloak.create')).toEqual({ next: 'retry', report: false });
  });
});
