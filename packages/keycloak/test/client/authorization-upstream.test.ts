import { describe, expect, it } from '@jest/globals';
import { decode } from '@keyward/kernel/model';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeKeycloakClient } from '../../src/client/decode.js';
import { POLICIES_NOTE, PERMISSIONS_NOTE, SKIPPED_JS_NOTE } from '../../src/client/authorization-upstream.js';
import { refusedJsPolicies } from '../../src/client/js-policy-guard.js';
import { ClientSpecCodec, type KeycloakClientSpec } from '../../src/client/spec.js';
import { baseSpec } from './harness.js';

const withAuthorization = (authorizationSettings: unknown) => ({ ...baseSpec, settings: { serviceAccountsEnabled: true }, authorizationSettings });

function decoded(authorizationSettings: unknown): KeycloakClientSpec {
  const result = decode(ClientSpecCodec, withAuthorization(authorizationSettings));
  if (result._tag === 'Left') throw new Error(`the spec does not decode: ${result.left.message}`);
  return result.right;
}

/** The message of a stored object's spec the codec refuses, its fields named from spec. */
function rejection(authorizationSettings: unknown): string {
  const result = decodeKeycloakClient({ apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name: 'shop', namespace: 'team-a', uid: 'u', generation: 1 }, spec: withAuthorization(authorizationSettings) });
  if (!isLeft(result)) throw new Error('expected the spec to be rejected');
  return result.left.message;
}

describe('the Kopf operator\'s policies and permissions, a list per type', () => {
  const kopf = {
    scopes: [{ name: 'read' }],
    resources: [{ name: 'doc', scopes: ['read'] }],
    policies: {
      rolePolicies: [{ name: 'readers', description: 'Readers', logic: 'POSITIVE', roles: [{ name: 'reader', required: true }, { name: 'shop/editor' }], fetchRoles: true }],
      userPolicies: [{ name: 'alice', users: ['alice'] }],
      groupPolicies: [{ name: 'staff', groups: ['/staff', '/staff/ops'], groupsClaim: 'groups' }],
      clientPolicies: [{ name: 'billing', clients: ['billing'], logic: 'NEGATIVE' }],
      timePolicies: [{ name: 'office', notBefore: '2026-01-01 00:00:00', hour: 8, hourEnd: 18 }],
      regexPolicies: [{ name: 'mail', targetClaim: 'email', pattern: '.*@example\\.org' }],
      aggregatePolicies: [{ name: 'both', decisionStrategy: 'AFFIRMATIVE', policies: ['readers', 'alice'] }],
    },
    permissions: {
      resourcePermissions: [{ name: 'doc-access', description: 'Docs', decisionStrategy: 'CONSENSUS', resources: ['doc'], policies: ['both'] }],
      scopePermissions: [{ name: 'doc-read', resources: ['doc'], scopes: ['read'], policies: ['staff'] }],
    },
  };

  it('reads each item as Keyward\'s item of its list\'s type, with the same fields', () => {
    const spec = decoded(kopf);
    expect(spec.authorizationSettings?.policies).toEqual([
      { type: 'role', name: 'readers', description: 'Readers', logic: 'POSITIVE', roles: [{ name: 'reader', required: true }, { name: 'shop/editor' }], fetchRoles: true },
      { type: 'user', name: 'alice', users: ['alice'] },
      { type: 'group', name: 'staff', groups: [{ path: '/staff' }, { path: '/staff/ops' }], groupsClaim: 'groups' },
      { type: 'client', name: 'billing', clients: ['billing'], logic: 'NEGATIVE' },
      { type: 'time', name: 'office', notBefore: '2026-01-01 00:00:00', hour: 8, hourEnd: 18 },
      { type: 'regex', name: 'mail', targetClaim: 'email', pattern: '.*@example\\.org' },
      { type: 'aggregate', name: 'both', decisionStrategy: 'AFFIRMATIVE', policies: ['readers', 'alice'] },
    ].map((item) => expect.objectContaining(item)));
    expect(spec.authorizationSettings?.permissions).toEqual([
      { type: 'resource', name: 'doc-access', description: 'Docs', decisionStrategy: 'CONSENSUS', resources: ['doc'], policies: ['both'] },
      { type: 'scope', name: 'doc-read', resources: ['doc'], scopes: ['read'], policies: ['staff'] },
    ].map((item) => expect.objectContaining(item)));
    expect(spec.upstreamSpellings).toEqual([POLICIES_NOTE, PERMISSIONS_NOTE]);
  });

  it('decodes to what Keyward\'s own lists of the same items decode to', () => {
    const own = decoded({ ...kopf, policies: decoded(kopf).authorizationSettings?.policies, permissions: decoded(kopf).authorizationSettings?.permissions });
    expect(own.upstreamSpellings).toBeUndefined();
    expect(own.authorizationSettings).toEqual(decoded(kopf).authorizationSettings);
  });

  it('skips JavaScript policies unless allowJavaScriptPolicies is true, as the Kopf operator did', () => {
    const skipped = decoded({ policies: { javascriptPolicies: [{ name: 'scripted', code: '$evaluation.grant();' }], userPolicies: [{ name: 'alice', users: ['alice'] }] } });
    expect(skipped.authorizationSettings?.policies?.map((policy) => policy.name)).toEqual(['alice']);
    expect(skipped.upstreamSpellings).toEqual([SKIPPED_JS_NOTE, POLICIES_NOTE]);
    expect(refusedJsPolicies(skipped, false)).toBeUndefined();
  });

  it('lets allowJavaScriptPolicies ask for them, never past the operator\'s own switch', () => {
    const allowed = decoded({ policies: { allowJavaScriptPolicies: true, javascriptPolicies: [{ name: 'scripted', code: '$evaluation.grant();' }] } });
    expect(allowed.authorizationSettings?.policies).toEqual([{ type: 'js', name: 'scripted', code: '$evaluation.grant();' }]);
    expect(allowed.upstreamSpellings).toEqual([POLICIES_NOTE]);
    expect(refusedJsPolicies(allowed, false)).toMatch(/\(scripted\).*--keycloak-allow-js-policies/s);
    expect(refusedJsPolicies(allowed, true)).toBeUndefined();
  });

  it('reads a resource permission over a type of resources as Keyward\'s', () => {
    expect(decoded({ permissions: { resourcePermissions: [{ name: 'p', resourceType: 'urn:doc', policies: ['x'] }] } }).authorizationSettings?.permissions).toEqual([{ type: 'resource', name: 'p', resourceType: 'urn:doc', policies: ['x'] }]);
  });

  it('reads a scope permission over a type of resources as Keyward\'s, which Keycloak keeps as it keeps a resource permission\'s', () => {
    expect(decoded({ permissions: { scopePermissions: [{ name: 'p', resourceType: 'urn:doc', scopes: ['read'], policies: ['x'] }] } }).authorizationSettings?.permissions)
      .toEqual([{ type: 'scope', name: 'p', resourceType: 'urn:doc', scopes: ['read'], policies: ['x'] }]);
  });

  it('reads empty lists, and an object of none, as no items', () => {
    expect(decoded({ policies: { allowJavaScriptPolicies: false }, permissions: { resourcePermissions: [] } }).authorizationSettings).toMatchObject({ policies: [], permissions: [] });
  });
});

describe('the Kopf operator\'s shape, refused where it is wrong, naming its field', () => {
  it.each([
    ['a role that is no object', { policies: { rolePolicies: [{ name: 'r', roles: ['reader'] }] } }, 'spec.authorizationSettings.policies.rolePolicies[0].roles[0]:'],
    ['a role without a name', { policies: { rolePolicies: [{ name: 'r', roles: [{ required: true }] }] } }, 'spec.authorizationSettings.policies.rolePolicies[0].roles[0].name: required'],
    ['an unknown field of a role', { policies: { rolePolicies: [{ name: 'r', roles: [{ name: 'a', optional: true }] }] } }, 'spec.authorizationSettings.policies.rolePolicies[0].roles[0].optional: not a field here'],
    ['a field of another type\'s list', { policies: { rolePolicies: [{ name: 'r', users: ['alice'] }] } }, 'spec.authorizationSettings.policies.rolePolicies[0].users: not a field here (the fields are name, description, logic, roles, fetchRoles)'],
    ['a Keyward type in the Kopf operator\'s item', { policies: { userPolicies: [{ name: 'u', type: 'user' }] } }, 'spec.authorizationSettings.policies.userPolicies[0].type: not a field here'],
    ['an item without a name', { policies: { userPolicies: [{ users: ['alice'] }] } }, 'spec.authorizationSettings.policies.userPolicies[0].name: required'],
    ['an item that is no object', { policies: { userPolicies: ['alice'] } }, 'spec.authorizationSettings.policies.userPolicies[0]: expected an object'],
    ['a list that is no list', { policies: { userPolicies: { name: 'u' } } }, 'spec.authorizationSettings.policies.userPolicies: expected a list'],
    ['an unknown list', { policies: { scriptPolicies: [] } }, 'spec.authorizationSettings.policies.scriptPolicies: not a field here'],
    ['a permission list among the policies', { policies: { scopePermissions: [] } }, 'spec.authorizationSettings.policies.scopePermissions: not a field here'],
    ['allowJavaScriptPolicies that is no switch', { policies: { allowJavaScriptPolicies: 'yes' } }, 'spec.authorizationSettings.policies.allowJavaScriptPolicies: expected true or false'],
    ['a group path twice', { policies: { groupPolicies: [{ name: 'g', groups: ['/a', '/a'] }] } }, 'spec.authorizationSettings.policies.groupPolicies[0].groups[1]: duplicate'],
    ['a group that is no path', { policies: { groupPolicies: [{ name: 'g', groups: [{ path: '/a' }] }] } }, 'spec.authorizationSettings.policies.groupPolicies[0].groups[0]:'],
    ['a time policy date not as Keycloak writes it', { policies: { timePolicies: [{ name: 't', notBefore: '2026-01-01T00:00:00Z' }] } }, 'spec.authorizationSettings.policies.timePolicies[0].notBefore:'],
    ['an unknown logic', { policies: { clientPolicies: [{ name: 'c', logic: 'MAYBE' }] } }, 'spec.authorizationSettings.policies.clientPolicies[0].logic:'],
    ['a regex policy reading the context, which the Kopf operator\'s has not', { policies: { regexPolicies: [{ name: 'x', targetClaim: 'a', pattern: 'b', targetContextAttributes: true }] } }, 'spec.authorizationSettings.policies.regexPolicies[0].targetContextAttributes: not a field here'],
    ['one name in two lists', { policies: { userPolicies: [{ name: 'p' }], clientPolicies: [{ name: 'p' }] } }, 'spec.authorizationSettings.policies.clientPolicies[0].name: the name is given twice (first at userPolicies[0])'],
    ['a permission\'s logic, which the Kopf operator\'s have not', { permissions: { resourcePermissions: [{ name: 'p', logic: 'POSITIVE' }] } }, 'spec.authorizationSettings.permissions.resourcePermissions[0].logic: not a field here'],
    ['an unknown decision strategy', { permissions: { scopePermissions: [{ name: 'p', scopes: ['read'], decisionStrategy: 'MAJORITY' }] } }, 'spec.authorizationSettings.permissions.scopePermissions[0].decisionStrategy:'],
    ['a regex policy without its claim', { policies: { regexPolicies: [{ name: 'x', pattern: 'b' }] } }, 'spec.authorizationSettings.policies.regexPolicies[0].targetClaim: required: the Kopf operator\'s regexPolicies need targetClaim'],
    ['a regex policy without its pattern', { policies: { regexPolicies: [{ name: 'x', targetClaim: 'email' }] } }, 'spec.authorizationSettings.policies.regexPolicies[0].pattern: required: the Kopf operator\'s regexPolicies need pattern'],
    ['a JavaScript policy without its code', { policies: { allowJavaScriptPolicies: true, javascriptPolicies: [{ name: 'scripted' }] } }, 'spec.authorizationSettings.policies.javascriptPolicies[0].code: required: the Kopf operator\'s javascriptPolicies need code'],
    ['a scope permission without scopes', { permissions: { scopePermissions: [{ name: 'p', resources: ['doc'], policies: ['x'] }] } }, 'spec.authorizationSettings.permissions.scopePermissions[0].scopes: required: the Kopf operator\'s scopePermissions need scopes'],
    ['a scope permission with an empty list of scopes', { permissions: { scopePermissions: [{ name: 'p', scopes: [], resourceType: 'urn:doc' }] } }, 'spec.authorizationSettings.permissions.scopePermissions[0].scopes: required: the Kopf operator\'s scopePermissions need scopes'],
    ['a policy list among the permissions', { permissions: { rolePolicies: [] } }, 'spec.authorizationSettings.permissions.rolePolicies: not a field here (the fields are resourcePermissions, scopePermissions)'],
  ])('%s', (_what, authorizationSettings, message) => {
    expect(rejection(authorizationSettings)).toContain(message);
  });
});

describe('Keyward\'s own lists, untyped in the CRD, checked by the codec alone', () => {
  it.each([
    ['an unknown field of an item', { policies: [{ name: 'p', type: 'user', user: ['alice'] }] }, 'spec.authorizationSettings.policies[0].user: not a field here'],
    ['an unknown field of a role', { policies: [{ name: 'p', type: 'role', roles: [{ name: 'a', optional: true }] }] }, 'spec.authorizationSettings.policies[0].roles[0].optional: not a field here'],
    ['an unknown policy type', { policies: [{ name: 'p', type: 'script' }] }, 'spec.authorizationSettings.policies[0].type:'],
    ['a name twice', { permissions: [{ name: 'p', type: 'resource' }, { name: 'p', type: 'scope' }] }, 'spec.authorizationSettings.permissions[1]: duplicate'],
    ['neither a list nor an object', { policies: 'all' }, 'spec.authorizationSettings.policies:'],
  ])('%s', (_what, authorizationSettings, message) => {
    expect(rejection(authorizationSettings)).toContain(message);
  });
});
