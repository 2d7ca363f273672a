// The Kopf operator's typed password policy, read as Keycloak's policy string; Keycloak's own string as it is.
import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeRealm } from '../../src/realm/decode.js';
import { baseSpec, decoded, realmObject } from './fixtures.js';

const policyOf = (passwordPolicy: unknown): unknown => decoded(realmObject({ ...baseSpec, passwordPolicy })).spec.passwordPolicy;
const refusal = (passwordPolicy: unknown): string => {
  const result = decodeRealm(realmObject({ ...baseSpec, passwordPolicy }));
  return isLeft(result) ? result.left.message : 'accepted';
};

describe('a realm\'s password policy', () => {
  it('takes Keycloak\'s policy string as it is', () => {
    expect(policyOf('length(12) and notUsername')).toBe('length(12) and notUsername');
  });

  it('reads the typed fields as the string they render, in the Kopf operator\'s order, switches only when on', () => {
    expect(policyOf({ regexPattern: '^[A-Za-z].*', notEmail: false, notUsername: true, upperCase: 1, length: 12, maxLength: 64, forceExpiredPasswordChange: 90, passwordHistory: 3, hashIterations: 27_500, specialChars: 1, digits: 2, lowerCase: 1 }))
      .toBe('length(12) and upperCase(1) and lowerCase(1) and digits(2) and specialChars(1) and notUsername and hashIterations(27500) and passwordHistory(3) and forceExpiredPasswordChange(90) and maxLength(64) and regexPattern(^[A-Za-z].*)');
    expect(policyOf({})).toBe('');
  });

  it('refuses a field it does not have, a value out of range, and what is neither form, naming the field', () => {
    expect(refusal({ minLength: 8 })).toMatch(/^spec\.passwordPolicy: the Kopf operator's password policy has the fields length, .*, regexPattern, not minLength$/);
    expect(refusal({ length: 0 })).toBe('spec.passwordPolicy.length: expected an integer from 1 to 2147483647, got 0');
    expect(refusal({ notUsername: 'yes' })).toBe('spec.passwordPolicy.notUsername: expected true or false, got "yes"');
    expect(refusal(12)).toBe('spec.passwordPolicy: passwordPolicy is Keycloak\'s policy string or the Kopf operator\'s object of typed fields');
  });
});
