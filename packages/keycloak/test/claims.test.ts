// The pure decisions of what an object may take over in Keycloak: its realm, its client, and what it may
// grant. Keycloak's own are refused whatever the operator's adoption scope.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { mayAdopt, parseAdoptionScopes, parseRetiredAdoptSwitch } from '../src/adoption.js';
import { adminRolesIn } from '../src/admin-roles.js';
import { claimClient } from '../src/client/claim.js';
import { CR_NAME, CR_NAMESPACE, MANAGED_BY } from '../src/ownership.js';
import { adminRoleGrants } from '../src/realm/admin-grants.js';
import { claimRealm } from '../src/realm/claim.js';
import { KEYCLOAK_CLIENTS } from '../src/reserved.js';
import type { ObservedRole } from '../src/apis/keycloak/representations.js';

const owner = { namespace: 'team-a', name: 'shop' };
const ours = { [MANAGED_BY]: 'keyward', [CR_NAMESPACE]: 'team-a', [CR_NAME]: 'shop' };
const theirs = { [MANAGED_BY]: 'keyward', [CR_NAMESPACE]: 'team-b', [CR_NAME]: 'shop' };
const realmWith = (realm: string, attributes?: Record<string, string>) => ({ realm, ...(attributes === undefined ? {} : { attributes }) });
const clientWith = (clientId: string, attributes?: Record<string, string>) => ({ id: 'uuid', clientId, ...(attributes === undefined ? {} : { attributes }) });

describe('claimRealm', () => {
  it.each([
    ['a realm not there yet', 'shop', undefined, false, 'create'],
    ['our realm', 'shop', ours, false, 'manage'],
    ['another object\'s realm, even in scope', 'shop', theirs, true, 'OwnedByAnother'],
    ['an unowned realm out of scope', 'shop', {}, false, 'NotOwned'],
    ['an unowned realm in scope', 'shop', {}, true, 'manage'],
    ['master, in scope', 'master', {}, true, 'ReservedByKeycloak'],
    ['master, named ours by an adoption of old', 'master', ours, true, 'ReservedByKeycloak'],
    ['master in other letters', 'MASTER', undefined, true, 'ReservedByKeycloak'],
  ] as const)('%s', (_what, name, attributes, adopt, expected) => {
    const found = attributes === undefined ? undefined : realmWith(name, attributes);
    const claim = claimRealm(name, found, owner, adopt);
    expect(claim.kind === 'refused' ? claim.reason : claim.kind).toBe(expected);
  });

  it('names master as Keycloak\'s admin realm and the operator\'s options as no way round', () => {
    expect(claimRealm('master', realmWith('master', {}), owner, true)).toEqual({
      kind: 'refused',
      reason: 'ReservedByKeycloak',
      message: "realm master is Keycloak's admin realm, where the operator's admin credentials log in; no KeycloakRealm may create, adopt or change it, whatever the operator's options",
    });
  });
});

describe('claimClient', () => {
  it.each([
    ['a new client', 'shop', 'shop-web', undefined, false, 'create'],
    ['our client', 'shop', 'shop-web', ours, false, 'manage'],
    ['another object\'s client', 'shop', 'shop-web', theirs, true, 'Conflict'],
    ['an unowned client out of scope', 'shop', 'shop-web', {}, false, 'NotOwned'],
    ['an unowned client in scope', 'shop', 'shop-web', {}, true, 'manage'],
    ['the bootstrap admin\'s client in master', 'master', 'keyward-bootstrap-admin', {}, true, 'ReservedByKeycloak'],
    ['a realm\'s admin client in master', 'master', 'shop-realm', {}, true, 'ReservedByKeycloak'],
    ['a new client in master', 'master', 'shop-web', undefined, true, 'ReservedByKeycloak'],
    ['broker of a tenant realm', 'shop', 'broker', {}, true, 'ReservedByKeycloak'],
    ['admin-cli named ours by an adoption of old', 'shop', 'admin-cli', ours, true, 'ReservedByKeycloak'],
    ['Admin-CLI in other letters', 'shop', 'Admin-CLI', undefined, true, 'ReservedByKeycloak'],
  ] as const)('%s', (_what, realm, clientId, attributes, adopt, expected) => {
    const found = attributes === undefined ? undefined : clientWith(clientId, attributes);
    const claim = claimClient(realm, clientId, found, owner, adopt);
    expect(claim.kind === 'refused' ? claim.reason : claim.kind).toBe(expected);
  });

  it('refuses every client Keycloak makes in a realm, in any realm, whatever it holds and whatever the scope', () => {
    fc.assert(fc.property(
      fc.constantFrom(...KEYCLOAK_CLIENTS),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      fc.constantFrom(undefined, {}, ours, theirs),
      fc.boolean(),
      (clientId, realm, attributes, adopt) => {
        const claim = claimClient(realm, clientId, attributes === undefined ? undefined : clientWith(clientId, attributes), owner, adopt);
        return claim.kind === 'refused' && claim.reason === 'ReservedByKeycloak' && claim.message.includes(clientId);
      },
    ));
  });
});

describe('adoption scope', () => {
  it.each([
    [['team-a'], 'team-a', 'shop', true],
    [['team-a/shop'], 'team-a', 'shop', true],
    [['team-a/other'], 'team-a', 'shop', false],
    [['team-b', 'team-b/shop'], 'team-a', 'shop', false],
    [[], 'team-a', 'shop', false],
  ] as const)('%j: an object of %s may adopt in realm %s: %s', (scopes, namespace, realm, expected) => {
    expect(mayAdopt(scopes, namespace, realm)).toBe(expected);
  });

  it('is read as namespace or namespace/realm entries, and refuses anything else naming it', () => {
    expect(parseAdoptionScopes(' team-a , team-b/Shop_1,')).toEqual({ ok: true, value: ['team-a', 'team-b/Shop_1'] });
    expect(parseAdoptionScopes('team-a,*')).toEqual({ ok: false, problem: 'has "*", which is not namespace or namespace/realm' });
    expect(parseAdoptionScopes('Team-A')).toMatchObject({ ok: false });
    expect(parseAdoptionScopes('team-a/shop/x')).toMatchObject({ ok: false });
  });

  it('refuses the old operator-wide switch when on, naming the scoped flag', () => {
    expect(parseRetiredAdoptSwitch('false')).toEqual({ ok: true, value: false });
    expect(parseRetiredAdoptSwitch('true')).toEqual({ ok: false, problem: expect.stringContaining('--keycloak-adopt-unowned-namespaces') as unknown });
  });
});

describe('admin roles', () => {
  const none = () => undefined;

  it.each([
    ['realm-management roles, any of them', 'shop', { realm: [], clients: { 'realm-management': ['view-clients', 'query-users'] } }, ['realm-management/view-clients', 'realm-management/query-users']],
    ['other clients\' roles', 'shop', { realm: [], clients: { account: ['manage-account'], broker: ['read-token'] } }, []],
    ['a <realm>-realm client outside master', 'shop', { realm: [], clients: { 'other-realm': ['manage-users'] } }, []],
    ['a <realm>-realm client in master', 'master', { realm: [], clients: { 'other-realm': ['manage-users'] } }, ['other-realm/manage-users']],
    ['admin and create-realm in master', 'master', { realm: ['admin', 'create-realm', 'offline_access'], clients: {} }, ['admin', 'create-realm']],
    ['a tenant realm\'s own role called admin', 'shop', { realm: ['admin'], clients: {} }, []],
  ] as const)('%s', (_what, realm, granted, expected) => {
    expect(adminRolesIn(realm, granted, none)).toEqual(expected);
  });

  it('follows composites, through cycles, to the admin role they reach', () => {
    const composites: Record<string, { realm: string[]; clients: Record<string, string[]> }> = {
      ops: { realm: ['auditor', 'ops'], clients: {} },
      auditor: { realm: ['ops'], clients: { 'realm-management': ['view-events'] } },
      loop: { realm: ['loop'], clients: {} },
    };
    expect(adminRolesIn('shop', { realm: ['ops', 'loop', 'viewer'], clients: {} }, (role) => composites[role])).toEqual(['ops (reaches realm-management/view-events)']);
  });
});

describe('adminRoleGrants', () => {
  const shop = { realmName: 'shop', deletionPolicy: 'Delete' as const };
  const held = (name: string, composites: ObservedRole['composites']): ObservedRole => ({ role: { id: name, name, composite: true, attributes: {} }, composites });

  it('names each place the spec grants an admin role: default roles, groups at any depth, composites', () => {
    const spec = {
      ...shop,
      defaultRoles: { realmRoles: ['viewer', 'handmade'], clientRoles: { 'realm-management': ['realm-admin'] } },
      groups: [{ name: 'ops', subGroups: [{ name: 'oncall', clientRoles: { 'realm-management': ['manage-users'] } }] }, { name: 'staff', realmRoles: ['viewer'] }],
      realmRoles: [{ name: 'viewer' }, { name: 'power', composites: { realm: ['viewer'], clients: { 'realm-management': ['view-clients'] } } }],
    };
    expect(adminRoleGrants(spec, [held('handmade', { realm: [], clients: { 'realm-management': ['manage-realm'] } })])).toEqual([
      'defaultRoles: handmade (reaches realm-management/manage-realm), realm-management/realm-admin',
      'group /ops/oncall: realm-management/manage-users',
      'composites of realm role power: realm-management/view-clients',
    ]);
  });

  it('reads the roles identity-provider and user-federation mappers give, as Keycloak names them', () => {
    const spec = {
      ...shop,
      identityProviders: [{
        alias: 'corp',
        providerId: 'oidc',
        mappers: [
          { name: 'everyone-admin', identityProviderMapper: 'hardcoded-role-idp-mapper', config: { role: 'realm-management.realm-admin' } },
          { name: 'viewer', identityProviderMapper: 'hardcoded-role-idp-mapper', config: { role: 'viewer' } },
          { name: 'dotted', identityProviderMapper: 'oidc-role-idp-mapper', config: { role: 'app.v2.reader' } },
        ],
      }],
      userFederation: [{
        name: 'ldap',
        providerId: 'ldap' as const,
        mappers: [
          { name: 'groups-to-management', mapperType: 'role-ldap-mapper', config: { 'client.id': 'realm-management' } },
          { name: 'power', mapperType: 'hardcoded-ldap-role-mapper', config: { role: 'power' } },
        ],
      }],
      realmRoles: [{ name: 'viewer' }, { name: 'power', composites: { clients: { 'realm-management': ['manage-users'] } } }],
    };
    expect(adminRoleGrants(spec, undefined)).toEqual([
      'composites of realm role power: realm-management/manage-users',
      'identity provider corp mapper everyone-admin: realm-management/realm-admin',
      'user federation ldap mapper groups-to-management: roles of realm-management',
      'user federation ldap mapper power: power (reaches realm-management/manage-users)',
    ]);
  });

  it('finds nothing in a spec that grants no admin role, and scope mappings are no grant', () => {
    const spec = {
      ...shop,
      defaultRoles: { realmRoles: ['viewer'], clientRoles: { account: ['view-profile'] } },
      groups: [{ name: 'staff', realmRoles: ['viewer'], clientRoles: { broker: ['read-token'] } }],
      scopeMappings: [{ clientScope: 'api', clientRoles: { 'realm-management': ['view-users'] } }],
    };
    expect(adminRoleGrants(spec, [held('default-roles-shop', { realm: ['offline_access'], clients: { account: ['manage-account'] } })])).toEqual([]);
  });
});
