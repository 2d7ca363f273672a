import { describe, expect, it } from '@jest/globals';
import { computeSecurityHash, goJsonString, securityHashInput } from '../src/security-hash.js';
import { getACCRName } from '../src/api.js';

describe('computeSecurityHash', () => {
  it('matches the upstream operator for roles [service]', () => {
    expect(computeSecurityHash({ roles: ['service'], unrestricted: false })).toBe(
      'n5c5h646h55bh654h6h5b9h644h5d7h5dfh56h68fh64ch547h596h98h658h584h57ch67dh64bhbbhd6hf7h657h5fh547h5ffhbh5bhf4h5d5h55q',
    );
  });

  it('serialises like Go encoding/json of the untagged struct', () => {
    expect(securityHashInput({ roles: ['a', 'b'], accessRules: [{ service: 'compute', path: '/v2.1/servers', method: 'GET' }], unrestricted: true })).toBe(
      '{"Roles":["a","b"],"AccessRules":[{"service":"compute","path":"/v2.1/servers","method":"GET"}],"Unrestricted":true}',
    );
    expect(securityHashInput({ roles: ['a'] })).toBe('{"Roles":["a"],"AccessRules":null,"Unrestricted":false}');
  });

  it('tells an absent accessRules list from an empty one', () => {
    expect(computeSecurityHash({ roles: ['service'], accessRules: [] })).not.toBe(computeSecurityHash({ roles: ['service'] }));
  });

  it('depends on role order, as upstream does', () => {
    expect(computeSecurityHash({ roles: ['a', 'b'] })).not.toBe(computeSecurityHash({ roles: ['b', 'a'] }));
  });

  it.each([
    ['<a&b>', '"\\u003ca\\u0026b\\u003e"'],
    ['quote " and \\', '"quote \\" and \\\\"'],
    ['\n\r\t\b\f\u0001', '"\\n\\r\\t\\b\\f\\u0001"'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['é ✓ 😀', '"é ✓ 😀"'],
    ['\ud800', '"\ufffd"'],
  ])('escapes %j as Go does', (input, expected) => {
    expect(goJsonString(input)).toBe(expected);
  });
});

describe('getACCRName', () => {
  it('prefixes the service name', () => {
    expect(getACCRName('nova')).toBe('ac-nova');
  });
});
