import { describe, expect, it } from '@jest/globals';
import { PlanBuilder } from '@keyward/kernel';
import { actionsOf } from '@keyward/kernel/testing';
import type { KeycloakAction } from '../src/apis/keycloak/actions.js';
import type { ComponentRepresentation } from '../src/apis/keycloak/components.js';
import type { ObservedPolicy, PolicyParts } from '../src/apis/keycloak/authorization.js';
import { reconcilePolicies } from '../src/client/authorization-policies.js';
import type { AuthorizationPolicySpec } from '../src/client/authorization-policy-spec.js';
import { clientChanges, creationBody, desiredClient } from '../src/client/representation.js';
import type { KeycloakClientSpec } from '../src/client/spec.js';
import { desiredRealm } from '../src/realm/desired.js';
import { realmCreation } from '../src/realm/diff.js';
import { planUserFederation } from '../src/realm/user-federation/plan.js';
import type { KeycloakRealmAction } from '../src/realm/vocabulary.js';
import { keycloakCall } from '../src/server.js';
import { call } from './client/harness.js';
import { baseSpec, config, decoded, realmObject } from './realm/fixtures.js';

const owner = { namespace: 'team-a', name: 'shop' };
const client = (settings?: KeycloakClientSpec['settings']): KeycloakClientSpec =>
  ({ clientId: 'shop', realmRef: { name: 'shared' }, deletionPolicy: 'Delete', ...(settings === undefined ? {} : { settings }) });

describe('the creation defaults of the replaced Keycloak operator', () => {
  it('create a client with the password grant and front-channel logout on where its spec is silent', () => {
    expect(creationBody('shop', desiredClient(client(), owner))).toMatchObject({ directAccessGrantsEnabled: true, frontchannelLogout: true });
    expect(creationBody('shop', desiredClient(client({ directAccessGrantsEnabled: false, frontchannelLogout: false }), owner))).toMatchObject({ directAccessGrantsEnabled: false, frontchannelLogout: false });
  });

  it('name a client without clientName after its clientId, and one with it by its clientName', () => {
    expect(creationBody('shop', desiredClient(client(), owner))['name']).toBe('shop');
    expect(creationBody('shop', desiredClient({ ...client(), clientName: 'The shop' }, owner))['name']).toBe('The shop');
  });

  it('never change a client that exists: only what its spec states is compared', () => {
    const desired = desiredClient(client(), owner);
    expect(clientChanges(desired, { clientId: 'shop', attributes: desired.attributes, directAccessGrantsEnabled: false, frontchannelLogout: false }).changed).toEqual([]);
    expect(clientChanges(desired, { clientId: 'shop', name: 'renamed by hand', attributes: desired.attributes }).changed).toEqual([]);
  });

  it('complete a realm\'s localization stated in part with internationalization on and English, and leave a realm without one alone', () => {
    const localization = (spec: object): unknown[] => {
      const { body } = realmCreation(desiredRealm(decoded(realmObject({ ...baseSpec, ...spec }))));
      return [body['internationalizationEnabled'], body['defaultLocale'], body['supportedLocales']];
    };
    expect(localization({ localization: { supportedLocales: ['en', 'de'] } })).toEqual([true, 'en', ['en', 'de']]);
    expect(localization({ localization: { enabled: false, defaultLocale: 'de' } })).toEqual([false, 'de', ['en']]);
    expect(localization({})).toEqual([undefined, undefined, undefined]);
  });

  it('create a realm with "forgot password" on where its spec is silent, and as stated otherwise', () => {
    expect(realmCreation(desiredRealm(decoded(realmObject(baseSpec)))).body['resetPasswordAllowed']).toBe(true);
    expect(realmCreation(desiredRealm(decoded(realmObject({ ...baseSpec, security: { resetPasswordAllowed: false } })))).body['resetPasswordAllowed']).toBe(false);
  });
});

describe('the creation defaults of the replaced operator\'s user federation', () => {
  const realmCall = keycloakCall(config, 'shop') ?? (() => { throw new Error('no Keycloak call'); })();
  /** The steps for `providers` (in either spelling) against `observed`. */
  const planned = (providers: readonly unknown[], observed: readonly ComponentRepresentation[] = []): KeycloakAction[] => {
    const plan = new PlanBuilder<KeycloakRealmAction>();
    const specs = decoded(realmObject({ ...baseSpec, userFederation: providers })).spec.userFederation ?? [];
    planUserFederation({ plan, call: realmCall, realm: 'shop' }, specs, observed.map((provider) => ({ provider, mappers: undefined })), { realmId: 'realm-id', namespace: 'shop', changed: () => false, pruneWhenEmpty: false });
    return plan.build().steps.map((step) => step.action).filter((action): action is KeycloakAction => action.kind.startsWith('keycloak.'));
  };
  const createdConfig = (provider: unknown): unknown => {
    const [step] = planned([provider]);
    return step?.kind === 'keycloak.create' ? step.body?.['config'] : step;
  };
  const bind = { name: 'ldap-bind', key: 'password' };

  it('create a minimal LDAP provider of the Kopf operator\'s shape read-only, paging its searches and pooling its connections', () => {
    const minimal = { name: 'corp', providerId: 'ldap', connectionUrl: 'ldap://ldap:389', bindDn: 'cn=admin,dc=x', bindCredentialSecret: bind, usersDn: 'ou=people,dc=x' };
    expect(createdConfig(minimal)).toEqual({
      editMode: ['READ_ONLY'], pagination: ['true'], connectionPooling: ['true'], connectionUrl: ['ldap://ldap:389'], bindDn: ['cn=admin,dc=x'], usersDn: ['ou=people,dc=x'],
    });
  });

  it('apply to Keyward\'s grouped spelling alike, a stated value or a config key winning, and a Kerberos provider gets the edit mode only', () => {
    const grouped = { name: 'corp', providerId: 'ldap', editMode: 'WRITABLE', connection: { url: 'ldap://ldap:389', pooling: false }, config: { pagination: 'false' } };
    expect(createdConfig(grouped)).toEqual({ editMode: ['WRITABLE'], pagination: ['false'], connectionPooling: ['false'], connectionUrl: ['ldap://ldap:389'] });
    expect(createdConfig({ name: 'krb', providerId: 'kerberos', kerberosRealm: 'EXAMPLE.ORG' })).toEqual({ editMode: ['READ_ONLY'], kerberosRealm: ['EXAMPLE.ORG'] });
  });

  it('never change a provider that exists: an update sends only what the spec states', () => {
    const existing: ComponentRepresentation = {
      id: 'c-1', name: 'corp', providerId: 'ldap', providerType: 'org.keycloak.storage.UserStorageProvider', parentId: 'realm-id', subType: 'keyward',
      config: { editMode: ['UNSYNCED'], pagination: ['false'], connectionUrl: ['ldap://old:389'] },
    };
    const [update] = planned([{ name: 'corp', providerId: 'ldap', connectionUrl: 'ldap://ldap:389' }], [existing]);
    expect(update?.kind === 'keycloak.update' ? [update.changed, update.body['config']] : update).toEqual([['config.connectionUrl'], { connectionUrl: ['ldap://ldap:389'] }]);
  });
});

describe('the creation defaults of the replaced operator\'s authorization policies', () => {
  const bodies = (policies: readonly AuthorizationPolicySpec[], observed: readonly ObservedPolicy[] = []): unknown[] => {
    const builder = new PlanBuilder<KeycloakAction>();
    reconcilePolicies({ plan: builder, call, client: { realm: 'shared', clientId: 'docs', id: 'uuid-1' } }, policies, undefined, observed);
    return [...actionsOf(builder.build(), 'keycloak.create'), ...actionsOf(builder.build(), 'keycloak.update')].map((action) => action.body);
  };
  const role: AuthorizationPolicySpec = { name: 'readers', type: 'role', roles: [{ name: 'reader' }] };
  const group: AuthorizationPolicySpec = { name: 'staff', type: 'group', groups: [{ path: '/staff' }] };

  it('create a role policy reading roles from Keycloak and a group policy reading the groups claim, where the spec is silent', () => {
    expect(bodies([role, group])).toEqual([
      expect.objectContaining({ name: 'readers', fetchRoles: true }),
      expect.objectContaining({ name: 'staff', groupsClaim: 'groups' }),
    ]);
  });

  it('create them as stated otherwise, an empty claim meaning Keycloak\'s groups', () => {
    const [readers, staff] = bodies([{ ...role, fetchRoles: false }, { ...group, groupsClaim: '' }]) as Record<string, unknown>[];
    expect([readers?.['fetchRoles'], staff !== undefined && 'groupsClaim' in staff]).toEqual([false, false]);
  });

  it('keep what a policy that exists has when an update (which replaces it whole) is due for another field', () => {
    const held = (name: string, type: string, parts: PolicyParts): ObservedPolicy => ({ id: `id-${name}`, name, type, description: 'by hand', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', parts });
    const [readers, staff] = bodies([role, group], [
      held('readers', 'role', { roles: [{ name: 'reader', required: false }], fetchRoles: false }),
      held('staff', 'group', { groups: [{ path: '/staff', extendChildren: false }], groupsClaim: '' }),
    ]) as Record<string, unknown>[];
    expect([readers?.['fetchRoles'], staff !== undefined && 'groupsClaim' in staff]).toEqual([false, false]);
  });
});
