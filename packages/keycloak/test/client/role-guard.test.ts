import { describe, expect, it } from '@jest/globals';
import { forbiddenServiceAccountRoles, parseAllowedServiceAccountRoles } from '../../src/client/role-guard.js';

describe('forbiddenServiceAccountRoles', () => {
  it('names realm admin and every role of the management client, and nothing else', () => {
    const wanted = {
      realmRoles: ['offline_access', 'admin', 'uma_authorization', 'create-realm'],
      clientRoles: { 'realm-management': ['view-users', 'realm-admin', 'impersonation', 'query-groups'], account: ['manage-account'] },
    };
    expect(forbiddenServiceAccountRoles('shop', wanted, [])).toEqual(['admin', 'realm-management/view-users', 'realm-management/realm-admin', 'realm-management/impersonation', 'realm-management/query-groups']);
    expect(forbiddenServiceAccountRoles('master', wanted, [])).toEqual(['admin', 'create-realm', 'realm-management/view-users', 'realm-management/realm-admin', 'realm-management/impersonation', 'realm-management/query-groups']);
  });

  it('in master, treats each realm\'s <realm>-realm client as a management client too', () => {
    const wanted = { clientRoles: { 'shop-realm': ['manage-clients', 'view-realm'] } };
    expect(forbiddenServiceAccountRoles('master', wanted, [])).toEqual(['shop-realm/manage-clients', 'shop-realm/view-realm']);
    expect(forbiddenServiceAccountRoles('shop', wanted, [])).toEqual([]);
  });

  it('lets the roles the operator allows through, by name or all with *', () => {
    const wanted = { realmRoles: ['admin'], clientRoles: { 'realm-management': ['manage-users', 'manage-realm'] } };
    expect(forbiddenServiceAccountRoles('shop', wanted, ['admin', 'realm-management/manage-users'])).toEqual(['realm-management/manage-realm']);
    expect(forbiddenServiceAccountRoles('shop', wanted, ['*'])).toEqual([]);
    expect(forbiddenServiceAccountRoles('shop', undefined, [])).toEqual([]);
  });
});

describe('parseAllowedServiceAccountRoles', () => {
  it('takes *, role and client/role, comma-separated', () => {
    expect(parseAllowedServiceAccountRoles(' admin , realm-management/manage-users,*')).toEqual({ ok: true, value: ['admin', 'realm-management/manage-users', '*'] });
    expect(parseAllowedServiceAccountRoles('')).toEqual({ ok: true, value: [] });
  });

  it('refuses an entry that is neither, naming it', () => {
    expect(parseAllowedServiceAccountRoles('admin,a/b/c')).toEqual({ ok: false, problem: 'has "a/b/c", which is not *, role or client/role' });
  });
});
