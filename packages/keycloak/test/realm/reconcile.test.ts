import { describe, expect, it } from '@jest/globals';
import type { Plan, PlanFailure } from '@keyward/kernel';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import { CR_NAME, CR_NAMESPACE, MANAGED_BY } from '../../src/ownership.js';
import { REALM_FINALIZER } from '../../src/types.js';
import { reportFailure, reportInvalid } from '../../src/realm/report.js';
import { realmStatus } from '../../src/realm/status.js';
import { observe } from '../../src/realm/observe.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { MASKED_SECRET } from '../../src/realm/diff.js';
import { REALM_SECRET_LABEL } from '../../src/realm/secret-opt-in.js';
import { NOW, NS, URL, baseSpec, builtInRoles, builtInScopes, config, decoded, kinds, observedRealm, ours, plan, realmObject, secret } from './fixtures.js';

const keycloakSteps = (p: Plan<KeycloakRealmAction>): KeycloakAction[] => p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.'));
const statusOf = (p: Plan<KeycloakRealmAction>): Record<string, unknown> | undefined => {
  const step = p.steps.find((s) => s.action.kind === 'k8s.status');
  return step?.action.kind === 'k8s.status' ? step.action.status : undefined;
};
/** "keycloak.delete realmRole old": the kind, and the resource by type and name. */
function describeStep(action: KeycloakAction): string {
  if (!('resource' in action)) return action.kind;
  const { resource } = action;
  return `${action.kind} ${resource.type} ${'name' in resource ? resource.name : 'scope' in resource ? resource.scope : ''}`;
}
const readyOf = (p: Plan<KeycloakRealmAction>) => (statusOf(p)?.['conditions'] as { type: string; status: string; reason: string; message: string }[] | undefined)?.find((c) => c.type === 'Ready');

const fullSpec = {
  ...baseSpec,
  smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', port: 587, auth: true, user: 'mailer', passwordSecret: { name: 'smtp', key: 'password' } },
  realmRoles: [{ name: 'admin', description: 'Admins', composites: { realm: ['viewer'] } }, { name: 'viewer' }],
  clientScopes: [{ name: 'shop-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'shop' } }] }],
  defaultClientScopes: ['shop-api'],
};
const marker = { [MANAGED_BY]: 'keyward' };

/** What Keycloak answers once `fullSpec` is applied. */
const convergedRealm = () => observedRealm({
  realmFields: { smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', port: '587', auth: 'true', user: 'mailer', password: MASKED_SECRET } },
  roles: [
    ...builtInRoles,
    { role: { id: 'r10', name: 'admin', description: 'Admins', composite: true, attributes: { [MANAGED_BY]: ['keyward'] } }, composites: { realm: ['viewer'], clients: {} } },
    { role: { id: 'r11', name: 'viewer', composite: false, attributes: { [MANAGED_BY]: ['keyward'] } }, composites: { realm: [], clients: {} } },
  ],
  clientScopes: [
    ...builtInScopes,
    { id: 's1', name: 'shop-api', protocol: 'openid-connect', attributes: marker, protocolMappers: [{ id: 'm9', name: 'audience', protocol: 'openid-connect', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'shop', ...marker, 'introspection.token.claim': 'true' } }] },
  ],
  defaultClientScopes: ['profile', 'email', 'roles', 'web-origins', 'acr', 'basic', 'shop-api'],
});

const readyStatus = (spec: Record<string, unknown>, version?: string) => {
  const cr = decoded(realmObject(spec));
  return realmStatus({}, { state: 'ready', reason: 'Ready', message: 'realm shop matches the spec' }, cr.metadata.generation, NOW, {
    realmId: '4a0e-uuid',
    endpoints: { issuer: `${URL}/realms/shop`, token: `${URL}/realms/shop/protocol/openid-connect/token`, userinfo: `${URL}/realms/shop/protocol/openid-connect/userinfo`, jwks: `${URL}/realms/shop/protocol/openid-connect/certs` },
    smtpPasswordVersion: version ?? null,
  });
};

describe('a converged realm', () => {
  it('makes zero writes of any kind', () => {
    const status = readyStatus(fullSpec, '7');
    expect(plan(realmObject(fullSpec, { status }), { realm: convergedRealm(), smtpPasswordSecret: secret('7') }).steps).toEqual([]);
  });

  it('is reported Ready once, then left alone', () => {
    const first = plan(realmObject(baseSpec), { realm: observedRealm() });
    expect(kinds(first)).toEqual(['k8s.status']);
    expect(readyOf(first)).toMatchObject({ status: 'True', reason: 'Ready' });
    expect(statusOf(first)).toMatchObject({ realmId: '4a0e-uuid', endpoints: { jwks: `${URL}/realms/shop/protocol/openid-connect/certs` }, observedGeneration: 3 });
    expect(plan(realmObject(baseSpec, { status: statusOf(first) }), { realm: observedRealm() }).steps).toEqual([]);
  });

  it('resends the SMTP password when its Secret changed, and nothing else', () => {
    const status = readyStatus(fullSpec, '7');
    const p = plan(realmObject(fullSpec, { status }), { realm: convergedRealm(), smtpPasswordSecret: secret('8') });
    expect(keycloakSteps(p)).toEqual([expect.objectContaining({ kind: 'keycloak.update', changed: ['smtpServer.password'], secretFields: { 'smtpServer.password': { kind: 'secretKey', namespace: 'shop', name: 'smtp', key: 'password', requiredLabels: { 'keycloak.keyward.io/realm-secret': 'true' } } } })]);
    expect(statusOf(p)).toMatchObject({ smtpPasswordVersion: '8' });
    expect(readyOf(p)).toMatchObject({ status: 'False', reason: 'Applying' });
    expect(JSON.stringify(p)).not.toContain('smtp-secret-value');
  });
});

describe('ownership', () => {
  it('creates a missing realm with our attributes, then its roles and scopes; links wait for the realm to be read', () => {
    const p = plan(realmObject(fullSpec), { realm: undefined, smtpPasswordSecret: secret('7') });
    const steps = keycloakSteps(p);
    expect(steps.map((a) => `${a.kind} ${'resource' in a ? a.resource.type : ''}`)).toEqual([
      'keycloak.create realm', 'keycloak.create realmRole', 'keycloak.create realmRole', 'keycloak.grantRoles ', 'keycloak.create clientScope', 'keycloak.create clientScopeMapper',
    ]);
    expect(steps[0]).toMatchObject({ body: { realm: 'shop', enabled: true, attributes: ours }, secretFields: { 'smtpServer.password': { name: 'smtp' } }, chargeTo: 'shop', server: { url: URL, credentials: config.keycloakAdminSecret } });
    expect(steps[5]).toMatchObject({ resource: { scope: { name: 'shop-api', id: { kind: 'output', step: 's5', output: 'id' } } } });
    expect(readyOf(p)).toMatchObject({ status: 'False', reason: 'Applying' });
    expect(statusOf(p)).toMatchObject({ smtpPasswordVersion: '7' });
  });

  it('refuses a realm another object owns, naming it, and writes nothing to Keycloak', () => {
    const realm = observedRealm({ realmFields: { attributes: { [MANAGED_BY]: 'keyward', [CR_NAMESPACE]: 'team-b', [CR_NAME]: 'their-realm' } } });
    const p = plan(realmObject({ ...baseSpec, displayName: 'Mine' }), { realm });
    expect(keycloakSteps(p)).toEqual([]);
    expect(readyOf(p)).toMatchObject({ status: 'False', reason: 'OwnedByAnother', message: expect.stringContaining('team-b/their-realm') as unknown });
  });

  it('refuses an unowned realm unless the operator lets the object\'s namespace adopt it', () => {
    const realm = observedRealm({ realmFields: { attributes: {} } });
    expect(readyOf(plan(realmObject(baseSpec), { realm }))).toMatchObject({ status: 'False', reason: 'NotOwned' });
    for (const scope of ['team-b', `${NS}/other`]) {
      expect(keycloakSteps(plan(realmObject(baseSpec), { realm }, { ...config, keycloakAdoptUnownedNamespaces: [scope] }))).toEqual([]);
    }
    for (const scope of [NS, `${NS}/shop`]) {
      const adopted = keycloakSteps(plan(realmObject(baseSpec), { realm }, { ...config, keycloakAdoptUnownedNamespaces: [scope] }));
      expect(adopted).toEqual([expect.objectContaining({ kind: 'keycloak.update', body: { realm: 'shop', attributes: ours } })]);
    }
  });

  it('refuses master whatever the adoption scope, reading and writing nothing in Keycloak, and never deletes it', () => {
    const spec = { realmName: 'master', defaultRoles: { realmRoles: ['admin'] } };
    const everything = { ...config, keycloakAdoptUnownedNamespaces: [NS, `${NS}/master`] };
    const master = observedRealm({ realmFields: { realm: 'master', attributes: ours } });
    const p = plan(realmObject(spec), { realm: master }, everything);
    expect(keycloakSteps(p)).toEqual([]);
    expect(readyOf(p)).toMatchObject({ status: 'False', reason: 'ReservedByKeycloak', message: expect.stringContaining("realm master is Keycloak's admin realm") as unknown });
    expect(observe(decoded(realmObject(spec)), everything).realm).toBeUndefined();
    expect(kinds(plan(realmObject(spec, { deletionTimestamp: '2026-03-01T00:00:00Z' }), { realm: master }, everything))).toEqual(['k8s.removeFinalizer']);
  });

  it('refuses a spec that grants roles administering the realm, naming where, before anything is written', () => {
    const realm = observedRealm({ roles: [...builtInRoles, { role: { id: 'r9', name: 'handmade', composite: true, attributes: {} }, composites: { realm: [], clients: { 'realm-management': ['view-users'] } } }] });
    const spec = { ...baseSpec, defaultRoles: { realmRoles: ['handmade'] }, groups: [{ name: 'ops', clientRoles: { 'realm-management': ['realm-admin'] } }] };
    const p = plan(realmObject(spec), { realm }, { ...config, keycloakAdoptUnownedNamespaces: [NS] });
    expect(keycloakSteps(p)).toEqual([]);
    expect(readyOf(p)).toMatchObject({
      status: 'False',
      reason: 'AdminRolesNotGrantable',
      message: 'the spec grants roles that administer realm shop, which no KeycloakRealm may grant (defaultRoles: handmade (reaches realm-management/view-users); group /ops: realm-management/realm-admin); nothing is changed in Keycloak until the spec drops them',
    });
  });

  it('leaves another operator\'s realm alone, reading nothing', () => {
    const object = realmObject({ ...baseSpec, operatorRef: { namespace: 'other-operator' } }, { finalizers: [] });
    expect(plan(object).steps).toEqual([]);
  });

  it('stalls without a configured Keycloak', () => {
    const p = plan(realmObject(baseSpec), {}, { ...config, keycloakUrl: undefined });
    expect(kinds(p)).toEqual(['k8s.status']);
    expect(readyOf(p)).toMatchObject({ status: 'False', reason: 'NoKeycloak', message: expect.stringContaining('no Keycloak configured') as unknown });
  });

  it('adds the finalizer alone first', () => {
    expect(kinds(plan(realmObject(baseSpec, { finalizers: [] }), { realm: undefined }))).toEqual(['k8s.addFinalizer']);
  });

  it('waits for a missing SMTP password Secret without writing to Keycloak', () => {
    const p = plan(realmObject(fullSpec), { realm: undefined });
    expect(keycloakSteps(p)).toEqual([]);
    expect(readyOf(p)).toMatchObject({ reason: 'SmtpPasswordSecretMissing' });
  });

  it.each([
    ['without labels', {}],
    ['with the label set to another value', { [REALM_SECRET_LABEL]: 'false' }],
  ])('never plans to read an SMTP password Secret %s, and says which label it needs', (_what, labels) => {
    const p = plan(realmObject(fullSpec), { realm: convergedRealm(), smtpPasswordSecret: secret('8', labels) });
    expect(kinds(p)).toEqual(['k8s.status']);
    expect(readyOf(p)).toMatchObject({
      status: 'False',
      reason: 'SmtpPasswordSecretNotOptedIn',
      message: 'the Secret smtp (the SMTP password) in namespace shop lacks the label keycloak.keyward.io/realm-secret=true; realm shop reads no Secret without it',
    });
    // Stalled, not failed: it waits for the Secret (watched by name) instead of being retried.
    expect(statusOf(p)?.['conditions']).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Stalled', status: 'True' })]));
    expect(JSON.stringify(p)).not.toContain('secretFields');
  });
});

describe('what a realm contains', () => {
  it('never touches built-in roles and scopes, and prunes only what carries our marker, from lists that name some or that pruneUnlisted names', () => {
    const realm = observedRealm({
      roles: [...builtInRoles, { role: { name: 'old', attributes: { [MANAGED_BY]: ['keyward'] } }, composites: { realm: [], clients: {} } }, { role: { name: 'by-hand', attributes: {} }, composites: { realm: [], clients: {} } }],
      clientScopes: [...builtInScopes, { id: 's2', name: 'old-scope', protocol: 'openid-connect', attributes: marker }, { id: 's3', name: 'hand-scope', protocol: 'openid-connect', attributes: {} }],
      defaultClientScopes: ['profile', 'old-scope', 'hand-scope'],
    });
    const steps = keycloakSteps(plan(realmObject({ ...baseSpec, clientScopes: [{ name: 'new-scope' }], defaultClientScopes: ['new-scope'], pruneUnlisted: ['realmRoles'] }), { realm }));
    expect(steps.map(describeStep)).toEqual([
      'keycloak.delete realmRole old',
      'keycloak.create clientScope new-scope',
      'keycloak.delete realmScopeLink old-scope',
      'keycloak.create realmScopeLink new-scope',
      'keycloak.delete clientScope old-scope',
    ]);
    // Without pruneUnlisted, a realm that lists no roles and no scopes deletes none.
    expect(keycloakSteps(plan(realmObject({ ...baseSpec, defaultClientScopes: ['profile'] }), { realm })).map(describeStep)).toEqual(['keycloak.delete realmScopeLink old-scope']);
  });

  it('manages composites and mappers of its own objects only where they differ', () => {
    const realm = convergedRealm();
    const spec = {
      ...fullSpec,
      realmRoles: [{ name: 'admin', description: 'Admins', composites: { clients: { account: ['view-profile'] } } }, { name: 'viewer' }],
      clientScopes: [{ name: 'shop-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'store' } }] }],
    };
    const steps = keycloakSteps(plan(realmObject(spec, { status: readyStatus(fullSpec, '7') }), { realm, smtpPasswordSecret: secret('7') }));
    expect(steps).toEqual([
      expect.objectContaining({ kind: 'keycloak.grantRoles', roles: { realm: [], clients: { account: ['view-profile'] } } }),
      expect.objectContaining({ kind: 'keycloak.revokeRoles', roles: { realm: ['viewer'], clients: {} } }),
      expect.objectContaining({ kind: 'keycloak.update', resource: expect.objectContaining({ type: 'clientScopeMapper', id: 'm9' }) as unknown, changed: ['config.included.client.audience'], body: expect.objectContaining({ config: { 'included.client.audience': 'store', ...marker, 'introspection.token.claim': 'true' } }) as unknown }),
    ]);
  });
});

describe('deletion', () => {
  const deleting = (spec: Record<string, unknown>) => realmObject(spec, { deletionTimestamp: '2026-03-01T11:00:00Z' });

  it('deletes our realm, then lets the object go', () => {
    const p = plan(deleting(baseSpec), { realm: observedRealm() });
    expect(kinds(p)).toEqual(['keycloak.delete', 'k8s.removeFinalizer']);
    expect(p.steps[1]?.action).toMatchObject({ finalizer: REALM_FINALIZER });
  });

  it.each([
    ['a retained realm', { ...baseSpec, deletionPolicy: 'Retain' }, observedRealm()],
    ['a realm already gone', baseSpec, undefined],
    ['a realm that is not ours', baseSpec, observedRealm({ realmFields: { attributes: {} } })],
  ])('only removes the finalizer for %s', (_what, spec, realm) => {
    expect(kinds(plan(deleting(spec), { realm }))).toEqual(['k8s.removeFinalizer']);
  });

  it('keeps the finalizer while no Keycloak is configured to delete in', () => {
    const p = plan(deleting(baseSpec), {}, { ...config, keycloakAdminSecret: undefined });
    expect(kinds(p)).toEqual(['k8s.status']);
  });
});

describe('reports', () => {
  const failure: PlanFailure = { step: 'update realm shop', action: 'keycloak.update', reason: 'ServiceUnavailable', message: 'Keycloak answered 503', retryable: true };

  it('name the failed step, Reconciling while it is retried and Stalled when it is not', () => {
    const cr = decoded(realmObject(baseSpec));
    const retried = reportFailure(cr, failure, NOW);
    expect(readyOf(retried)).toMatchObject({ status: 'False', reason: 'ServiceUnavailable', message: 'update realm shop failed: Keycloak answered 503' });
    const conditions = statusOf(reportFailure(cr, { ...failure, reason: 'BadRequest', retryable: false }, NOW))?.['conditions'];
    expect(conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Stalled', status: 'True' })]));
  });

  it('write a status only when it changes', () => {
    const cr = decoded(realmObject(baseSpec));
    const status = statusOf(reportFailure(cr, failure, NOW));
    expect(reportFailure(decoded(realmObject(baseSpec, { status })), failure, new Date(NOW.getTime() + 60_000)).steps).toEqual([]);
  });

  it('stall an invalid spec naming the field, with a Warning event', () => {
    const p = reportInvalid(realmObject({ realmName: 'a/b' }), { message: 'spec.realmName: bad', problems: [] }, NOW);
    expect(kinds(p)).toEqual(['k8s.status', 'k8s.event']);
    expect(readyOf(p)).toMatchObject({ reason: 'InvalidSpec', message: 'invalid spec: spec.realmName: bad' });
  });
});
