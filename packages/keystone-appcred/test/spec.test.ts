import { describe, expect, it } from '@jest/globals';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { MAX_EXPIRATION_DAYS } from '../src/api.js';
import { decodeAppCred } from '../src/decode.js';
import { baseSpec } from './harness.js';

const object = (spec: unknown) => ({
  apiVersion: 'keystone.openstack.org/v1beta1',
  kind: 'KeystoneApplicationCredential',
  metadata: { name: 'ac-barbican', namespace: 'openstack', uid: 'u', generation: 1 },
  ...(spec === undefined ? {} : { spec }),
});

function rejection(spec: unknown): string {
  const decoded = decodeAppCred(object(spec));
  if (!isLeft(decoded)) throw new Error('expected the spec to be rejected');
  return decoded.left.message;
}

describe('InvalidSpec messages name the field as a user writes it and the value written', () => {
  it.each([
    ['no spec', undefined, 'spec: required'],
    ['a spec that is no object', 'barbican', 'spec: expected an object, got "barbican"'],
    ['no roles', { ...baseSpec, roles: undefined }, 'spec.roles: required'],
    ['a role listed twice', { ...baseSpec, roles: ['service', 'admin', 'service'] }, 'spec.roles[2]: duplicate of spec.roles[0] ("service")'],
    [
      'an access rule listed twice',
      { ...baseSpec, accessRules: [{ service: 'compute', path: '/servers', method: 'GET' }, { service: 'compute', path: '/servers', method: 'GET' }] },
      'spec.accessRules[1]: duplicate of spec.accessRules[0] ("GET compute /servers")',
    ],
    ['an empty role', { ...baseSpec, roles: ['service', ''] }, 'spec.roles[1]: expected a string of 1 to 255 characters (not only spaces), got ""'],
    ['an access rule path Keystone refuses', { ...baseSpec, accessRules: [{ service: 'compute', path: 'servers', method: 'GET' }] }, 'spec.accessRules[0].path: expected a string of 1 to 225 characters (starting with /), got "servers"'],
    ['a lifetime beyond the maximum', { ...baseSpec, expirationDays: MAX_EXPIRATION_DAYS + 1 }, `spec.expirationDays: expected an integer from 2 to ${String(MAX_EXPIRATION_DAYS)}, got ${String(MAX_EXPIRATION_DAYS + 1)}`],
    ['a lifetime beyond 2^53', { ...baseSpec, expirationDays: 2 ** 53 + 2 }, 'spec.expirationDays: expected an integer from 2 to 36500, got a number out of range (beyond 2^53)'],
    ['a grace period beyond the maximum', { ...baseSpec, expirationDays: MAX_EXPIRATION_DAYS, gracePeriodDays: MAX_EXPIRATION_DAYS }, 'spec.gracePeriodDays: expected an integer from 1 to 36499, got 36500'],
    ['a grace period as long as the lifetime', { ...baseSpec, expirationDays: 30, gracePeriodDays: 30 }, 'spec.gracePeriodDays: gracePeriodDays must be smaller than expirationDays (gracePeriodDays defaults to 182: set it when expirationDays is 182 or less)'],
    ['a short lifetime with the default grace period', { ...baseSpec, expirationDays: 30, gracePeriodDays: undefined }, 'spec.gracePeriodDays: gracePeriodDays must be smaller than expirationDays (gracePeriodDays defaults to 182: set it when expirationDays is 182 or less)'],
  ])('%s', (_what, spec, message) => {
    expect(rejection(spec)).toBe(message);
  });

  it.each([['osp\\secret'], ['OSP-secret'], ['osp_secret'], ['-osp'], ['osp..secret'], ['o'.repeat(254)]])('a password Secret name %# that is no Secret name', (secret) => {
    expect(rejection({ ...baseSpec, secret })).toMatch(/^spec\.secret: expected a Kubernetes object name \(lowercase letters, digits, '-' and '\.', .*\), got "/);
  });

  it('accepts the longest lifetime and grace period, and dotted Secret names', () => {
    expect(isRight(decodeAppCred(object({ ...baseSpec, expirationDays: MAX_EXPIRATION_DAYS, gracePeriodDays: MAX_EXPIRATION_DAYS - 1 })))).toBe(true);
    expect(isRight(decodeAppCred(object({ ...baseSpec, secret: 'osp.secret-2' })))).toBe(true);
  });

  it('refuses a service with a space, as Keystone does, so no two rules read alike joined with spaces', () => {
    const accessRules = [{ service: 'image b', path: '/v2', method: 'GET' }, { service: 'image', path: '/b /v2', method: 'GET' }];
    expect(rejection({ ...baseSpec, accessRules })).toBe('spec.accessRules[0].service: expected a string of 1 to 64 characters (letters, digits and -), got "image b"');
  });

});
