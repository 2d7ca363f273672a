import { describe, expect, it } from '@jest/globals';
import { decode } from '@keyward/kernel/model';
import { refusedJsPolicies } from '../../src/client/js-policy-guard.js';
import { ClientSpecCodec, type KeycloakClientSpec } from '../../src/client/spec.js';
import { baseSpec } from './harness.js';

const spec = (policies: unknown[]): KeycloakClientSpec => {
  const decoded = decode(ClientSpecCodec, { ...baseSpec, settings: { serviceAccountsEnabled: true }, authorizationSettings: { policies } });
  if (decoded._tag === 'Left') throw new Error('the spec does not decode');
  return decoded.right;
};

describe('JavaScript authorization policies', () => {
  const scripted = spec([{ name: 'readers', type: 'role', roles: [{ name: 'reader' }] }, { name: 'scripted', type: 'js', code: '$evaluation.grant();' }]);

  it('refuses a client stating one unless the operator allows them, naming the policies and the option', () => {
    expect(refusedJsPolicies(scripted, false)).toMatch(/\(scripted\).*--keycloak-allow-js-policies/s);
    expect(refusedJsPolicies(scripted, true)).toBeUndefined();
  });

  it('lets a client without one through', () => {
    expect(refusedJsPolicies(spec([{ name: 'readers', type: 'role', roles: [{ name: 'reader' }] }]), false)).toBeUndefined();
    expect(refusedJsPolicies(spec([]), false)).toBeUndefined();
  });
});
