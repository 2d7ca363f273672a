// A new realm whose spec names a client that a KeycloakClient of the same apply makes (a scope mapping to it,
// its roles in a client scope's scope mappings and in a group; an identity provider mapper granting one of its
// roles), against the real kube-apiserver and Keycloak 26.
// The client waits for the realm to exist; the realm applies the rest of its spec, records its id, and waits for
// the client, which then wakes it: both go Ready, and Keycloak holds what names the client.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestNamespace } from '@keyward/test-env';
import { clientRef, conditionOf, controllerEnv, createClient, createRealm, realmRef, startOperator, statusOf, unique, waitForObject, waitForReady, type ControllerEnv, type Operator } from './harness.js';

type Json = Record<string, unknown>;

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
const realm = unique('kcwait');

beforeAll(async () => {
  env = await controllerEnv('kcwait');
  namespace = await createTestNamespace('kcwait-ctl');
  operator = await startOperator(env.kube, { name: 'client-waits', namespaces: [namespace], config: env.config() });
}, 120_000);

afterAll(async () => {
  await operator.stop();
  await env.admin.deleteRealm(realm);
  env.close();
});

const names = (roles: unknown): string[] => ((roles as { name: string }[] | undefined) ?? []).map((role) => role.name).sort();

describe('a realm whose spec names a client its KeycloakClient makes', () => {
  it('records its id while it waits for the client, and both converge with the mappings in Keycloak', async () => {
    await createRealm(env.kube, namespace, 'shop', {
      realmName: realm,
      clientAuthorizationGrants: [namespace],
      realmRoles: [{ name: 'viewer' }],
      clientScopes: [{ name: 'api' }],
      groups: [{ name: 'staff', realmRoles: ['viewer'], clientRoles: { app: ['reader'] } }],
      scopeMappings: [{ client: 'app', realmRoles: ['viewer'] }, { clientScope: 'api', clientRoles: { app: ['reader'] } }],
      // An identity provider mapper names the client's role as config text, which Keycloak takes before the
      // client exists: it does not wait.
      identityProviders: [{
        alias: 'partner',
        providerId: 'oidc',
        config: { clientId: 'x', tokenUrl: 'https://partner.example.com/token', authorizationUrl: 'https://partner.example.com/auth' },
        mappers: [{ name: 'reader', identityProviderMapper: 'hardcoded-role-idp-mapper', config: { role: 'app.reader', syncMode: 'INHERIT' } }],
      }],
    });
    // The realm exists in Keycloak and says so (its id), while what names the client waits for it.
    // (The plan that creates the realm waits too, before its id is known: the next one reads it back.)
    const waiting = await waitForObject(env.kube, realmRef(namespace, 'shop'), 'the realm to record its id while it waits for client app',
      (object) => conditionOf(object, 'Ready')?.reason === 'WaitingForClient' && typeof statusOf(object)['realmId'] === 'string');
    expect(await env.admin.get(`/realms/${realm}`)).toMatchObject({ id: statusOf(waiting)['realmId'] });
    expect(conditionOf(waiting, 'Ready')?.message).toContain('client app (scopeMappings client app, scopeMappings clientScope api clientRoles, groups /staff clientRoles)');
    expect(conditionOf(waiting, 'Reconciling')?.status).toBe('True');

    await createClient(env.kube, namespace, 'app', { clientId: 'app', realmRef: { name: 'shop' }, clientRoles: ['reader'] });
    await waitForReady(env.kube, clientRef(namespace, 'app'));
    await waitForReady(env.kube, realmRef(namespace, 'shop'));

    const client = await env.admin.client(realm, 'app');
    const clientPath = `/realms/${realm}/clients/${String(client?.['id'])}`;
    expect(names(await env.admin.get(`${clientPath}/scope-mappings/realm`))).toEqual(['viewer']);
    const scopes = (await env.admin.get<Json[]>(`/realms/${realm}/client-scopes`)) ?? [];
    const api = scopes.find((scope) => scope['name'] === 'api');
    expect(names(await env.admin.get(`/realms/${realm}/client-scopes/${String(api?.['id'])}/scope-mappings/clients/${String(client?.['id'])}`))).toEqual(['reader']);
    const staff = await env.admin.get<Json>(`/realms/${realm}/group-by-path/staff`);
    expect(staff?.['clientRoles']).toEqual({ app: ['reader'] });
    expect(staff?.['realmRoles']).toEqual(['viewer']);
    const mappers = (await env.admin.get<Json[]>(`/realms/${realm}/identity-provider/instances/partner/mappers`)) ?? [];
    expect(mappers.find((mapper) => mapper['name'] === 'reader')?.['config']).toMatchObject({ role: 'app.reader' });
  });
});
