import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { Sensitive, findCondition, renderPlanText, type Plan } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { isOutputRef } from '@keyward/kernel/plan';
import { actionKinds, actionsOf, fixedEntropy } from '@keyward/kernel/testing';
import { CLIENT_FINALIZER } from '../../src/types.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD } from '../../src/ownership.js';
import { observeClient } from '../../src/client/observe.js';
import type { KeycloakClient } from '../../src/client/spec.js';
import { CREDENTIALS_KEYS } from '../../src/client/secret.js';
import type { ClientAction } from '../../src/client/vocabulary.js';
import { clientApis } from '../../src/client/vocabulary.js';
import { FOLLOW_UP_MS, NAME, NS, NOW, REALM, SECRET, URL, baseSpec, call, clientObject, config, keycloakClient, planFor, realmObject, storedSecret } from './harness.js';

const conditionOf = (plan: Plan<ClientAction>, type: string) => {
  const status = actionsOf(plan, 'k8s.status')[0]?.status;
  return findCondition(readConditions(status?.['conditions']), type);
};

const keycloakWrites = (plan: Plan<ClientAction>) => plan.steps.filter((step) => step.action.kind.startsWith('keycloak.'));
const secretWrites = (plan: Plan<ClientAction>) => plan.steps.filter((step) => step.action.kind === 'k8s.apply');

/** The status of a converged client, as the previous reconcile wrote it. */
function convergedStatus(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const first = planFor(clientObject(baseSpec, { realm: REALM, ...extra }), { client: keycloakClient() });
  return actionsOf(first, 'k8s.status')[0]?.status as Record<string, unknown>;
}

describe('realm resolution and grants', () => {
  it('adds the finalizer first, alone', () => {
    expect(actionKinds(planFor(clientObject(baseSpec, {}, { finalizers: [] })))).toEqual(['k8s.addFinalizer']);
  });

  it('reports a missing realm object by name and waits for it', () => {
    const plan = planFor(clientObject(baseSpec, {}), { realm: undefined });
    expect(actionKinds(plan)).toEqual(['k8s.status']);
    expect(conditionOf(plan, 'Reconciling')).toMatchObject({ status: 'True', reason: 'RealmNotFound', message: 'realm object platform/shared-realm not found' });
  });

  it('first records the realm alone, and looks again shortly', () => {
    const plan = planFor(clientObject(baseSpec, {}));
    expect(actionKinds(plan)).toEqual(['k8s.status', 'control.requeueAfter']);
    expect(actionsOf(plan, 'k8s.status')[0]?.status).toMatchObject({ realm: REALM });
    expect(actionsOf(plan, 'control.requeueAfter')[0]?.afterMs).toBe(FOLLOW_UP_MS);
  });

  it('a namespace the realm does not grant is stalled with no Keycloak or Secret write, and its Secret is left alone', () => {
    const existing = storedSecret({ metadata: { name: `${NAME}-credentials`, namespace: NS }, stringData: { [CREDENTIALS_KEYS.clientSecret]: 'old' } });
    const plan = planFor(clientObject(), { realm: realmObject({ grants: ['team-b'] }), client: keycloakClient(), credentials: existing });
    expect(actionKinds(plan)).toEqual(['k8s.status', 'k8s.event']);
    expect(conditionOf(plan, 'Stalled')).toMatchObject({
      status: 'True',
      reason: 'NotAuthorized',
      message: 'namespace team-a is not in spec.clientAuthorizationGrants of KeycloakRealm platform/shared-realm; nothing is changed in Keycloak until the realm grants it',
    });
  });

  it('a grant added later heals the client: the same client then gets its Secret and goes Ready', () => {
    const refused = planFor(clientObject(), { realm: realmObject({ grants: [] }), client: keycloakClient() });
    const status = actionsOf(refused, 'k8s.status')[0]?.status as Record<string, unknown>;
    const healed = planFor(clientObject(baseSpec, status), { realm: realmObject({ grants: ['team-b', NS] }), client: keycloakClient() });
    expect(actionKinds(healed)).toEqual(['k8s.apply', 'k8s.status']);
    expect(conditionOf(healed, 'Ready')).toMatchObject({ status: 'True' });
  });

  it('leaves a client whose realm another operator manages entirely alone, deleted or not', () => {
    const realm = realmObject({ operatorNamespace: 'other-operator' });
    expect(planFor(clientObject(), { realm }).steps).toEqual([]);
    expect(planFor(clientObject(baseSpec, { realm: REALM }, { deletionTimestamp: '2026-03-01T00:00:00Z' }), { realm, client: keycloakClient() }).steps).toEqual([]);
  });

  it('waits for a realm not made in Keycloak yet, and for a Keycloak that is not configured', () => {
    expect(conditionOf(planFor(clientObject(), { realm: realmObject({ ready: false }) }), 'Reconciling')).toMatchObject({ reason: 'WaitingForRealm' });
    const unconfigured = planFor(clientObject(), {}, NOW, { ...config, keycloakUrl: undefined });
    expect(keycloakWrites(unconfigured)).toEqual([]);
    expect(conditionOf(unconfigured, 'Stalled')).toMatchObject({ reason: 'KeycloakNotConfigured' });
  });
});

describe('dangerous service-account roles', () => {
  const asking = { ...baseSpec, settings: { serviceAccountsEnabled: true }, serviceAccountRoles: { realmRoles: ['offline_access', 'admin'], clientRoles: { broker: ['read-token'], 'realm-management': ['manage-users'] } } };

  it('are refused before Keycloak is touched: Stalled naming them, with a Warning event told once', () => {
    const plan = planFor(clientObject(asking, { realm: REALM }), { client: keycloakClient() });
    expect(actionKinds(plan)).toEqual(['k8s.status', 'k8s.event']);
    const message = 'spec.serviceAccountRoles lists admin, realm-management/manage-users, which the operator does not grant';
    expect(conditionOf(plan, 'Stalled')).toMatchObject({ status: 'True', reason: 'ForbiddenServiceAccountRoles', message: expect.stringContaining(message) as unknown });
    expect(actionsOf(plan, 'k8s.event')[0]).toMatchObject({ type: 'Warning', reason: 'ForbiddenServiceAccountRoles' });
    const status = actionsOf(plan, 'k8s.status')[0]?.status as Record<string, unknown>;
    expect(planFor(clientObject(asking, status), { client: keycloakClient() }).steps).toEqual([]);
  });

  it('are granted once the operator allows them by name, or all of them with *', () => {
    for (const allowed of [['admin', 'realm-management/manage-users'], ['*']]) {
      const plan = planFor(clientObject(asking, { realm: REALM }), { client: keycloakClient() }, NOW, { ...config, keycloakAllowedServiceAccountRoles: allowed });
      expect(actionsOf(plan, 'keycloak.grantRoles')[0]?.roles).toEqual({ realm: ['offline_access', 'admin'], clients: { broker: ['read-token'], 'realm-management': ['manage-users'] } });
    }
  });
});

describe('a secret rotated out by client-secret rotation', () => {
  const rotatedAt = (secondsAgo: number) => ({ attributes: { 'client.secret.rotated.creation.time': String(NOW.getTime() / 1000 - secondsAgo) } });

  it('stays valid for the grace period: the client is Ready and looked at again when it ends', () => {
    const plan = planFor(clientObject(baseSpec, convergedStatus()), { client: keycloakClient(rotatedAt(60)) });
    expect(keycloakWrites(plan)).toEqual([]);
    expect(plan.steps.find((step) => step.action.kind === 'control.requeueAfter')).toMatchObject({ action: { afterMs: 3_540_000 }, reason: 'invalidate the rotated secret when its grace period ends' });
  });

  it('is invalidated once the grace period has passed', () => {
    const plan = planFor(clientObject({ ...baseSpec, secretRotation: { enabled: false, rotationPeriod: '90d', gracePeriod: '5m' } }, convergedStatus()), { client: keycloakClient(rotatedAt(300)) });
    expect(actionsOf(plan, 'keycloak.delete').map((action) => action.resource)).toEqual([{ type: 'rotatedClientSecret', client: { realm: REALM, clientId: 'shop-web', id: 'uuid-1' } }]);
  });
});

describe('creating a client', () => {
  it('creates it with ownership attributes and a secret chosen here, then its contents addressed by the new id and its credentials Secret', () => {
    const spec = {
      ...baseSpec,
      redirectUris: ['https://shop.example/cb'],
      settings: { serviceAccountsEnabled: true, pkceCodeChallengeMethod: 'S256' },
      clientRoles: [{ name: 'buyer' }],
      protocolMappers: [{ name: 'tenant', protocolMapper: 'oidc-hardcoded-claim-mapper', config: { 'claim.name': 'tenant' } }],
      defaultClientScopes: ['orders'],
      serviceAccountRoles: { realmRoles: ['offline_access'] },
      regenerateSecret: 'first',
    };
    const plan = planFor(clientObject(spec), {});
    expect(actionKinds(plan)).toEqual(['keycloak.create', 'keycloak.create', 'keycloak.create', 'keycloak.create', 'keycloak.grantRoles', 'k8s.apply', 'k8s.status']);
    const [create] = actionsOf(plan, 'keycloak.create');
    expect(create).toMatchObject({
      ...call,
      resource: { type: 'client', realm: REALM, clientId: 'shop-web' },
      body: {
        clientId: 'shop-web',
        redirectUris: ['https://shop.example/cb'],
        serviceAccountsEnabled: true,
        attributes: { 'pkce.code.challenge.method': 'S256', 'io.kubernetes.managed-by': 'keyward', 'io.kubernetes.cr-namespace': NS, 'io.kubernetes.cr-name': NAME },
      },
    });
    const createId = plan.steps[0]?.id ?? '';
    const followUps = plan.steps.slice(1, 5).map((step) => step.action as { resource?: { client: { id: unknown } }; holder?: { client: { id: unknown } } });
    for (const action of followUps) expect((action.resource ?? action.holder)?.client.id).toEqual({ kind: 'output', step: createId, output: 'id' });
    const status = actionsOf(plan, 'k8s.status')[0]?.status;
    // First creation starts the rotation clock, and takes the token as acted upon: the secret is new anyway.
    expect(status).toMatchObject({
      realm: REALM,
      lastSecretRotation: '2026-03-01T12:00:00Z',
      secretRegeneratedFor: 'first',
      secretName: 'shop-credentials',
      managed: { defaultClientScopes: ['orders'], serviceAccountRealmRoles: ['offline_access'] },
    });
    expect(isOutputRef((status as Record<string, unknown>)['clientUuid'])).toBe(true);
    // Ready as a reconcile of the created client would find it, so that one writes nothing.
    expect(conditionOf(plan, 'Ready')).toMatchObject({ status: 'True', reason: 'Ready' });
    // The client is created with the secret the credentials Secret holds: 32 random bytes, never shown.
    const sent = create?.body?.['secret'];
    const stored = (actionsOf(plan, 'k8s.apply')[0]?.object['stringData'] as Record<string, unknown>)[CREDENTIALS_KEYS.clientSecret];
    expect(sent).toBeInstanceOf(Sensitive);
    expect(stored).toBe(sent);
    expect((sent as Sensitive).reveal()).toBe(Buffer.from(fixedEntropy(0)(32)).toString('base64url'));
    expect(JSON.stringify(plan)).not.toContain((sent as Sensitive).reveal());
  });

  it('requeues a new client with rotation for the end of its first period, and gives a public client no secret', () => {
    const rotating = planFor(clientObject({ ...baseSpec, secretRotation: { enabled: true, rotationPeriod: '30d' } }), {});
    expect(actionsOf(rotating, 'control.requeueAfter')).toEqual([expect.objectContaining({ afterMs: 30 * 24 * 3_600_000 })]);
    const publicClient = planFor(clientObject({ ...baseSpec, publicClient: true }), {});
    expect(actionsOf(publicClient, 'keycloak.create')[0]?.body?.['secret']).toBeUndefined();
    const data = actionsOf(publicClient, 'k8s.apply')[0]?.object['stringData'] as Record<string, unknown>;
    expect(data[CREDENTIALS_KEYS.clientSecret]).toBeUndefined();
    expect(actionsOf(publicClient, 'control.requeueAfter')).toEqual([]);
  });

  it('sends a provided secret by reference, never by value', () => {
    const spec = { ...baseSpec, clientSecret: { name: 'shop-oidc', key: 'secret' } };
    const provided = storedSecret({ metadata: { name: 'shop-oidc', namespace: NS }, stringData: { secret: 'provided-7c1d' } });
    const plan = planFor(clientObject(spec), { providedSecret: provided });
    const [create] = actionsOf(plan, 'keycloak.create');
    expect(create?.secretFields).toEqual({ secret: { kind: 'secretKey', namespace: NS, name: 'shop-oidc', key: 'secret' } });
    expect(JSON.stringify(plan)).not.toContain('provided-7c1d');
  });

  it('waits for a provided Secret that is missing, and stalls on a key it lacks', () => {
    const spec = { ...baseSpec, clientSecret: { name: 'shop-oidc', key: 'secret' } };
    expect(conditionOf(planFor(clientObject(spec), {}), 'Reconciling')).toMatchObject({ reason: 'SecretNotFound' });
    const wrongKey = storedSecret({ metadata: { name: 'shop-oidc', namespace: NS }, stringData: { other: 'x' } });
    const plan = planFor(clientObject(spec), { providedSecret: wrongKey });
    expect(conditionOf(plan, 'Stalled')).toMatchObject({ reason: 'SecretKeyNotFound', message: 'Secret team-a/shop-oidc has no key secret' });
    expect(keycloakWrites(plan)).toEqual([]);
  });
});

describe('a client of ours', () => {
  it('writes the credentials Secret from Keycloak\'s secret, owned by the object, with its metadata', () => {
    const spec = { ...baseSpec, secretMetadata: { labels: { app: 'shop' }, annotations: { team: 'a' } } };
    const plan = planFor(clientObject(spec), { client: keycloakClient() });
    expect(actionKinds(plan)).toEqual(['k8s.apply', 'k8s.status']);
    const [apply] = actionsOf(plan, 'k8s.apply');
    expect(apply?.object).toMatchObject({
      metadata: {
        name: 'shop-credentials',
        namespace: NS,
        labels: { app: 'shop' },
        annotations: { team: 'a' },
        ownerReferences: [{ apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', name: NAME, uid: 'uid-shop', controller: true, blockOwnerDeletion: true }],
      },
    });
    const data = apply?.object['stringData'] as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(Object.values(CREDENTIALS_KEYS).sort());
    expect(data[CREDENTIALS_KEYS.clientSecret]).toBeInstanceOf(Sensitive);
    expect((data[CREDENTIALS_KEYS.clientSecret] as Sensitive).reveal()).toBe(SECRET);
    expect(data).toMatchObject({
      'client-id': 'shop-web',
      'keycloak-url': URL,
      realm: REALM,
      issuer: `${URL}/realms/${REALM}`,
      'token-endpoint': `${URL}/realms/${REALM}/protocol/openid-connect/token`,
      'userinfo-endpoint': `${URL}/realms/${REALM}/protocol/openid-connect/userinfo`,
      'jwks-endpoint': `${URL}/realms/${REALM}/protocol/openid-connect/certs`,
    });
    const rendered = `${renderPlanText(plan, clientApis)} ${JSON.stringify(plan)} ${inspect(plan, { depth: 20 })}`;
    expect(rendered).not.toContain(SECRET);
  });

  it('a public client\'s Secret has no client-secret key', () => {
    const plan = planFor(clientObject({ ...baseSpec, publicClient: true }), { client: keycloakClient({ fields: { publicClient: true }, secret: undefined }) });
    const data = actionsOf(plan, 'k8s.apply')[0]?.object['stringData'] as Record<string, unknown>;
    expect(data).not.toHaveProperty(CREDENTIALS_KEYS.clientSecret);
  });

  it('makes zero writes of any kind once converged', () => {
    const first = planFor(clientObject(), { client: keycloakClient() });
    const secret = storedSecret(actionsOf(first, 'k8s.apply')[0]?.object ?? {});
    const status = actionsOf(first, 'k8s.status')[0]?.status as Record<string, unknown>;
    const again = planFor(clientObject(baseSpec, status), { client: keycloakClient(), credentials: secret });
    expect(again.steps).toEqual([]);
  });

  it('notices a secret regenerated out of band and rewrites the Secret', () => {
    const first = planFor(clientObject(), { client: keycloakClient() });
    const secret = storedSecret(actionsOf(first, 'k8s.apply')[0]?.object ?? {});
    const again = planFor(clientObject(baseSpec, convergedStatus()), { client: keycloakClient({ secret: new Sensitive('regenerated-elsewhere') }), credentials: secret });
    expect(actionKinds(again)).toEqual(['k8s.apply']);
  });

  it('pushes a provided secret that differs from Keycloak\'s by reference, and writes the Secret once it is read back', () => {
    const spec = { ...baseSpec, clientSecret: { name: 'shop-oidc', key: 'secret' } };
    const provided = storedSecret({ metadata: { name: 'shop-oidc', namespace: NS }, stringData: { secret: 'provided-7c1d' } });
    const plan = planFor(clientObject(spec), { client: keycloakClient(), providedSecret: provided });
    expect(actionKinds(plan)).toEqual(['keycloak.update', 'k8s.status', 'control.requeueAfter']);
    expect(actionsOf(plan, 'keycloak.update')[0]).toMatchObject({ body: {}, changed: ['secret'], secretFields: { secret: { name: 'shop-oidc', key: 'secret' } } });
    expect(JSON.stringify(plan)).not.toContain('provided-7c1d');
    const same = planFor(clientObject(spec), { client: keycloakClient({ secret: new Sensitive('provided-7c1d') }), providedSecret: provided });
    expect(actionsOf(same, 'keycloak.update')).toEqual([]);
  });
});

describe("Keycloak's own clients", () => {
  const everything = { ...config, keycloakAdoptUnownedNamespaces: [NS], keycloakAllowedServiceAccountRoles: ['*'] };

  it.each([
    ['the bootstrap admin\'s client in master', 'master', 'keyward-bootstrap-admin'],
    ['admin-cli in master', 'master', 'admin-cli'],
    ['broker of a tenant realm', REALM, 'broker'],
  ])('refuses %s whatever the options: Stalled naming it, a Warning, and no read of it, write to Keycloak or Secret', (_what, realm, clientId) => {
    const found = keycloakClient({ fields: { clientId, attributes: {} } });
    const object = clientObject({ ...baseSpec, clientId }, { realm });
    const plan = planFor(object, { realm: realmObject({ realmName: realm }), client: found }, NOW, everything);
    expect(actionKinds(plan)).toEqual(['k8s.status', 'k8s.event']);
    expect(conditionOf(plan, 'Ready')).toMatchObject({ status: 'False', reason: 'ReservedByKeycloak', message: expect.stringContaining(clientId) as unknown });
    expect(observeClient(object, everything).client).toBeUndefined();
  });

  it('never deletes one this object was let adopt before adoption was scoped', () => {
    const adopted = keycloakClient({ fields: { clientId: 'broker' } });
    const plan = planFor(clientObject({ ...baseSpec, clientId: 'broker' }, { realm: REALM, clientUuid: 'uuid-1' }, { deletionTimestamp: '2026-03-01T00:00:00Z' }), { client: adopted });
    expect(actionKinds(plan)).toEqual(['k8s.removeFinalizer']);
  });
});

describe('ownership', () => {
  const victim = keycloakClient({ attributes: { 'io.kubernetes.cr-namespace': 'team-b', 'io.kubernetes.cr-name': 'victim' }, secret: undefined });

  it('refuses a client another object owns: stalled, naming the owner, with no write to Keycloak or any Secret', () => {
    const plan = planFor(clientObject(), { client: victim });
    expect(actionKinds(plan)).toEqual(['k8s.status', 'k8s.event']);
    expect(conditionOf(plan, 'Stalled')).toMatchObject({ reason: 'Conflict', message: 'client shop-web in realm shared belongs to KeycloakClient team-b/victim; it is not changed, and its secret is not read' });
    expect(actionsOf(plan, 'k8s.status')[0]?.status).not.toHaveProperty('clientUuid');
  });

  it('does not delete another object\'s client when the refused object is deleted', () => {
    const plan = planFor(clientObject(baseSpec, { realm: REALM }, { deletionTimestamp: '2026-03-01T00:00:00Z' }), { client: victim });
    expect(actionKinds(plan)).toEqual(['k8s.removeFinalizer']);
  });

  it('leaves an unowned client alone unless adoption is configured for its namespace (and realm), and then claims it', () => {
    const unowned = keycloakClient({ fields: { attributes: {} }, secret: undefined });
    expect(conditionOf(planFor(clientObject(), { client: unowned }), 'Stalled')).toMatchObject({ reason: 'NotOwned', message: expect.stringContaining('--keycloak-adopt-unowned-namespaces') as unknown });
    for (const scope of ['other-team', `${NS}/another-realm`]) {
      const refused = planFor(clientObject(), { client: unowned }, NOW, { ...config, keycloakAdoptUnownedNamespaces: [scope] });
      expect(actionsOf(refused, 'keycloak.update')).toEqual([]);
      expect(conditionOf(refused, 'Stalled')).toMatchObject({ reason: 'NotOwned' });
    }
    expect(actionsOf(planFor(clientObject(), { client: unowned }, NOW, { ...config, keycloakAdoptUnownedNamespaces: [NS] }), 'keycloak.update')).toHaveLength(1);
    const adopted = planFor(clientObject(), { client: unowned }, NOW, { ...config, keycloakAdoptUnownedNamespaces: [`${NS}/${REALM}`] });
    expect(actionsOf(adopted, 'keycloak.update')[0]).toMatchObject({ changed: ['attributes.io.kubernetes.managed-by', 'attributes.io.kubernetes.cr-namespace', 'attributes.io.kubernetes.cr-name'] });
    // Its secret is read only once the client names this object: the Secret waits for that.
    expect(secretWrites(adopted)).toEqual([]);
    expect(conditionOf(adopted, 'Reconciling')).toMatchObject({ reason: 'SecretPending' });
  });
});

describe('deletion', () => {
  const deleting = (spec: Record<string, unknown> = baseSpec, status: Record<string, unknown> = { realm: REALM, clientUuid: 'uuid-1' }) =>
    clientObject(spec, status, { deletionTimestamp: '2026-03-01T00:00:00Z' });

  it('deletes our client in Keycloak, then removes the finalizer', () => {
    const plan = planFor(deleting(), { client: keycloakClient() });
    expect(actionKinds(plan)).toEqual(['keycloak.delete', 'k8s.removeFinalizer']);
    expect(actionsOf(plan, 'keycloak.delete')[0]).toMatchObject({ ...call, resource: { type: 'client', realm: REALM, clientId: 'shop-web', id: 'uuid-1' } });
    expect(actionsOf(plan, 'k8s.removeFinalizer')[0]?.finalizer).toBe(CLIENT_FINALIZER);
  });

  it('retains the client with deletionPolicy Retain, and lets go of a client already gone or a realm never recorded', () => {
    expect(actionKinds(planFor(deleting({ ...baseSpec, deletionPolicy: 'Retain' }), { client: keycloakClient() }))).toEqual(['k8s.removeFinalizer']);
    expect(actionKinds(planFor(deleting(), { client: undefined }))).toEqual(['k8s.removeFinalizer']);
    expect(actionKinds(planFor(deleting(baseSpec, {}), {}))).toEqual(['k8s.removeFinalizer']);
  });

  it('deletes even after the realm object is gone, using the realm status recorded', () => {
    expect(actionKinds(planFor(deleting(), { realm: undefined, client: keycloakClient() }))).toEqual(['keycloak.delete', 'k8s.removeFinalizer']);
  });

  it('keeps the finalizer while Keycloak is not configured for a client it made', () => {
    const plan = planFor(deleting(), {}, NOW, { ...config, keycloakUrl: undefined });
    expect(actionKinds(plan)).toEqual(['k8s.status']);
  });

  it('does nothing once the finalizer is gone', () => {
    expect(planFor(clientObject(baseSpec, { realm: REALM }, { deletionTimestamp: '2026-03-01T00:00:00Z', finalizers: [] }), { client: keycloakClient() }).steps).toEqual([]);
  });

});

describe('what a reconcile reads', () => {
  const clientQuery = (client: KeycloakClient) => observeClient(client, config).client;

  it('looks the client up only once status records a realm, and reads its roles only while the spec lists or prunes them', () => {
    expect(clientQuery(clientObject(baseSpec, {}))).toBeUndefined();
    expect(clientQuery(clientObject(baseSpec, { realm: REALM }))).toMatchObject({ kind: 'keycloak.client', realm: REALM, clientId: 'shop-web', roles: false });
    expect(clientQuery(clientObject({ ...baseSpec, clientRoles: [{ name: 'buyer' }] }, { realm: REALM }))?.roles).toBe(true);
    expect(clientQuery(clientObject({ ...baseSpec, clientRoles: [] }, { realm: REALM }))?.roles).toBe(false);
    // A spec that lists none reads them only to delete the ones it created.
    expect(clientQuery(clientObject({ ...baseSpec, pruneUnlisted: ['clientRoles'] }, { realm: REALM }))?.roles).toBe(true);
  });

  it('reads the realm\'s flows only for a client that overrides some', () => {
    expect(observeClient(clientObject(baseSpec, { realm: REALM }), config).flows).toBeUndefined();
    expect(observeClient(clientObject({ ...baseSpec, authenticationFlowOverrides: { browser: 'strict' } }, { realm: REALM }), config).flows).toMatchObject({ kind: 'keycloak.flows', realm: REALM });
  });

  it('deletes the roles it made once the spec lists none and prunes them', () => {
    const marked = { role: { id: 'r1', name: 'buyer', attributes: { [MANAGED_BY]: [MANAGED_BY_KEYWARD] } }, composites: { realm: [], clients: {} } };
    const plan = planFor(clientObject({ ...baseSpec, pruneUnlisted: ['clientRoles'] }, convergedStatus()), { client: keycloakClient({ roles: [marked] }) });
    expect(actionsOf(plan, 'keycloak.delete')).toEqual([expect.objectContaining({ resource: expect.objectContaining({ type: 'clientRole', name: 'buyer' }) })]);
  });
});
