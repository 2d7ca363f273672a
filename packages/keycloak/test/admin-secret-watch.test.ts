import { describe, expect, it } from '@jest/globals';
import type { PlanFailure } from '@keyward/kernel';
import { adminSecretWhileRefused } from '../src/admin-secret-watch.js';
import { defaultKeycloakConfig } from '../src/config.js';

const config = { ...defaultKeycloakConfig, keycloakUrl: 'http://keycloak:8080', keycloakAdminSecret: { namespace: 'keyward-system', name: 'keycloak-admin' } };
const failure = (reason: string): PlanFailure => ({ step: 'read the current state', action: 'read', reason, message: 'refused', retryable: true });

describe('the admin Secret an object waits on', () => {
  it('is referred to only after a reconcile failed on the admin credentials', () => {
    for (const reason of ['AdminLoginRefused', 'AdminSecretNotFound', 'AdminCredentialsIncomplete']) {
      expect(adminSecretWhileRefused.of({}, config, failure(reason))).toEqual([config.keycloakAdminSecret]);
    }
  });

  it('is not referred to by an object that reconciled, or failed for another reason, or without a configured Secret', () => {
    expect(adminSecretWhileRefused.of({}, config)).toEqual([]);
    expect(adminSecretWhileRefused.of({}, config, failure('KeycloakUnavailable'))).toEqual([]);
    expect(adminSecretWhileRefused.of({}, { ...config, keycloakAdminSecret: undefined }, failure('AdminLoginRefused'))).toEqual([]);
  });
});
