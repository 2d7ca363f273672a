// The Kopf operator's realm fields that say what Keyward derives or does not keep: defaultRoles as a list of
// role names, defaultRole{} as Keycloak's default role, groups[].path, requiredActions[].providerId, and
// identityProviders[].authenticateByDefault; each read with its meaning, or refused naming the field.
import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeRealm } from '../../src/realm/decode.js';
import { adminRoleGrants } from '../../src/realm/admin-grants.js';
import { upstreamSpellingsNote } from '../../src/upstream-spellings.js';
import { baseSpec, decoded, realmObject } from './fixtures.js';

const specOf = (fields: Record<string, unknown>) => decoded(realmObject({ ...baseSpec, ...fields })).spec;
const refusal = (fields: Record<string, unknown>): string => {
  const result = decodeRealm(realmObject({ ...baseSpec, ...fields }));
  return isLeft(result) ? result.left.message : 'accepted';
};

describe('defaultRoles and defaultRole in the Kopf operator\'s shapes', () => {
  it('reads a list of names as realm roles, and Keyward\'s object as it is', () => {
    expect(specOf({ defaultRoles: ['viewer', 'member'] }).defaultRoles).toEqual({ realmRoles: ['viewer', 'member'] });
    expect(specOf({ defaultRoles: { realmRoles: ['viewer'], clientRoles: { app: ['reader'] } } }).defaultRoles).toEqual({ realmRoles: ['viewer'], clientRoles: { app: ['reader'] } });
  });

  it('reads defaultRole\'s composites as defaultRoles, and says which fields it read and which do nothing', () => {
    const spec = specOf({ defaultRole: { name: 'default-roles-shop', description: 'Every user', composite: true, composites: { realm: ['viewer'], client: { app: ['reader'] } } } });
    expect(spec.defaultRoles).toEqual({ realmRoles: ['viewer'], clientRoles: { app: ['reader'] } });
    const note = upstreamSpellingsNote(spec);
    expect(note).toContain('defaultRole.composites.realm is read as defaultRoles.realmRoles');
    expect(note).toContain('defaultRole.composites.client is read as defaultRoles.clientRoles');
    expect(note).toContain('defaultRole.description has no effect');
    expect(note).toContain('defaultRole.composite has no effect');
  });

  it('accepts the other fields of a role\'s representation on defaultRole, which do nothing, and says so', () => {
    const spec = specOf({ defaultRole: { id: 'f1e2', name: 'default-roles-shop', clientRole: false, containerId: 'a1b2', attributes: { origin: ['export'] }, composites: { realm: ['viewer'] } } });
    expect(spec.defaultRoles).toEqual({ realmRoles: ['viewer'] });
    const note = upstreamSpellingsNote(spec);
    for (const field of ['id', 'clientRole', 'containerId', 'attributes']) expect(note).toContain(`defaultRole.${field} has no effect`);
  });

  it('takes the default role\'s name only as Keycloak gives it, after the realm in lower case', () => {
    expect(specOf({ realmName: 'Shop', defaultRole: { name: 'default-roles-shop' } }).realmName).toBe('Shop');
    expect(refusal({ defaultRole: { name: 'default-roles-other' } })).toMatch(/^spec\.defaultRole\.name: defaultRole\.name is the realm's default role, default-roles-<realmName in lower case>/);
  });

  it('refuses the roles stated in both spellings, a value of neither shape, and a key the object does not have', () => {
    expect(refusal({ defaultRoles: ['viewer'], defaultRole: { composites: { realm: ['viewer'] } } })).toContain('defaultRole.composites.realm and defaultRoles.realmRoles are the same field');
    expect(refusal({ defaultRoles: { realmRoles: ['a'] }, defaultRole: { composites: { realm: ['b'] } } })).toContain('defaultRole.composites.realm and defaultRoles.realmRoles are the same field');
    expect(refusal({ defaultRoles: 'viewer' })).toBe('spec.defaultRoles: defaultRoles is an object of realmRoles and clientRoles, or a list of realm role names');
    expect(refusal({ defaultRoles: { realmroles: ['viewer'] } })).toBe('spec.defaultRoles: defaultRoles is an object of realmRoles and clientRoles, or a list of realm role names, not realmroles');
    expect(refusal({ defaultRoles: ['viewer', 'viewer'] })).toMatch(/^spec\.defaultRoles\[1\]/);
  });

  it('keeps every spelling from granting an admin role to every new user', () => {
    // A realm role the spec composes of an admin role, given to every new user by the list.
    const byList = specOf({ realmRoles: [{ name: 'power', composites: { clients: { 'realm-management': ['view-users'] } } }], defaultRoles: ['power'] });
    const byDefaultRole = specOf({ defaultRole: { composites: { client: { 'realm-management': ['manage-users'] } } } });
    expect(adminRoleGrants(byList, undefined)).toContain('defaultRoles: power (reaches realm-management/view-users)');
    expect(adminRoleGrants(byDefaultRole, undefined)).toEqual([expect.stringMatching(/^defaultRoles: realm-management\/manage-users/)]);
  });
});

describe('groups[].path', () => {
  const tree = (path: string) => [{ name: 'staff', path: '/staff', subGroups: [{ name: 'engineering', subGroups: [{ name: 'platform', path }] }] }];

  it('is accepted where it is the path the nesting gives', () => {
    expect(specOf({ groups: tree('/staff/engineering/platform') }).groups?.[0]?.subGroups?.[0]?.subGroups?.[0]?.name).toBe('platform');
  });

  it('is refused where it names another place, at that group', () => {
    expect(refusal({ groups: tree('/staff/sales/platform') })).toBe('spec.groups[0].subGroups[0].subGroups[0].path: path is where the group is listed: / and the names of the groups it is listed in, then its own');
    expect(refusal({ groups: [{ name: 'staff', path: '/team' }] })).toMatch(/^spec\.groups\[0\]\.path: path is where the group is listed/);
  });
});

describe('requiredActions[].providerId', () => {
  it('is accepted as the alias it must be, and refused as another provider', () => {
    expect(specOf({ requiredActions: [{ alias: 'CONFIGURE_TOTP', providerId: 'CONFIGURE_TOTP' }] }).requiredActions?.[0]?.alias).toBe('CONFIGURE_TOTP');
    expect(refusal({ requiredActions: [{ alias: 'CONFIGURE_TOTP', providerId: 'VERIFY_EMAIL' }] })).toBe('spec.requiredActions[0].providerId: providerId must equal alias: Keycloak registers a required action under its provider\'s id');
  });
});

describe('identityProviders[].authenticateByDefault', () => {
  it('is accepted, dropped, and named in the note as having no effect', () => {
    const spec = specOf({ identityProviders: [{ alias: 'corp', providerId: 'oidc', authenticateByDefault: true }] });
    expect(spec.identityProviders?.[0]).not.toHaveProperty('authenticateByDefault');
    expect(upstreamSpellingsNote(spec)).toContain('identityProviders[].authenticateByDefault has no effect (Keycloak 26 stores it and its login never reads it');
  });
});
