import { describe, expect, it } from '@jest/globals';
import { clientChanges, creationBody, desiredClient } from '../src/client/representation.js';
import type { KeycloakClientSpec } from '../src/client/spec.js';
import { desiredRealm } from '../src/realm/desired.js';
import { realmCreation } from '../src/realm/diff.js';
import { baseSpec, decoded, realmObject } from './realm/fixtures.js';

const owner = { namespace: 'team-a', name: 'shop' };
const client = (settings?: KeycloakClientSpec['settings']): KeycloakClientSpec =>
  ({ clientId: 'shop', realmRef: { name: 'shared' }, deletionPolicy: 'Delete', ...(settings === undefined ? {} : { settings }) });

describe('the creation defaults of the replaced Keycloak operator', () => {
  it('create a client with the password grant and front-channel logout on where its spec is silent', () => {
    expect(creationBody('shop', desiredClient(client(), owner))).toMatchObject({ directAccessGrantsEnabled: true, frontchannelLogout: true });
    expect(creationBody('shop', desiredClient(client({ directAccessGrantsEnabled: false, frontchannelLogout: false }), owner))).toMatchObject({ directAccessGrantsEnabled: false, frontchannelLogout: false });
  });

  it('never change a client that exists: only what its spec states is compared', () => {
    const desired = desiredClient(client(), owner);
    expect(clientChanges(desired, { clientId: 'shop', attributes: desired.attributes, directAccessGrantsEnabled: false, frontchannelLogout: false }).changed).toEqual([]);
  });

  it('create a realm with "forgot password" on where its spec is silent, and as stated otherwise', () => {
    expect(realmCreation(desiredRealm(decoded(realmObject(baseSpec)))).body['resetPasswordAllowed']).toBe(true);
    expect(realmCreation(desiredRealm(decoded(realmObject({ ...baseSpec, security: { resetPasswordAllowed: false } })))).body['resetPasswordAllowed']).toBe(false);
  });
});
