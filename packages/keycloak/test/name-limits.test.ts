// The longest names Keycloak 26.7.3 stores, measured against it (see docs/keycloak.md): the codec and the CRD
// schema state the same figure, and the codec's message names the field.
import { describe, expect, it } from '@jest/globals';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decodeKeycloakClient } from '../src/client/decode.js';
import { keycloakClientCrd } from '../src/client/crd.js';
import { decodeRealm } from '../src/realm/decode.js';
import { keycloakRealmCrd } from '../src/realm/crd.js';
import { baseSpec as clientSpec } from './client/harness.js';
import { baseSpec as realmSpec, realmObject } from './realm/fixtures.js';

interface Schema {
  readonly maxLength?: number;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
}

const specSchemaOf = (crd: typeof keycloakRealmCrd): Schema => {
  const spec: Schema = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
  return spec;
};

const clientObject = (spec: unknown) => ({ apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name: 'shop', namespace: 'team-a', uid: 'u', generation: 1 }, spec });

function verdict(decoded: ReturnType<typeof decodeRealm> | ReturnType<typeof decodeKeycloakClient>): string {
  return isLeft(decoded) ? decoded.left.message : 'accepted';
}

describe('realmName', () => {
  it('is at most 237 characters in the codec, naming the field beyond', () => {
    expect(isRight(decodeRealm(realmObject({ ...realmSpec, realmName: 'r'.repeat(237) })))).toBe(true);
    expect(verdict(decodeRealm(realmObject({ ...realmSpec, realmName: 'r'.repeat(238) })))).toMatch(/^spec\.realmName: expected a string of 1 to 237 characters/);
  });

  it('is at most 237 characters in the schema', () => {
    expect(specSchemaOf(keycloakRealmCrd).properties?.['realmName']?.maxLength).toBe(237);
  });
});

describe('clientId', () => {
  it('is at most 255 characters in the codec, naming the field beyond', () => {
    expect(verdict(decodeKeycloakClient(clientObject({ ...clientSpec, clientId: 'c'.repeat(255) })))).toBe('accepted');
    expect(verdict(decodeKeycloakClient(clientObject({ ...clientSpec, clientId: 'c'.repeat(256) })))).toMatch(/^spec\.clientId: expected a string of 1 to 255 characters/);
  });

  it('is at most 255 characters in the schema', () => {
    expect(specSchemaOf(keycloakClientCrd).properties?.['clientId']?.maxLength).toBe(255);
  });
});

describe('client role names', () => {
  // The schema leaves a client role untyped (a name or an object): the codec alone bounds its name.
  it('are at most 255 characters in the codec, given as an object or as the name', () => {
    expect(verdict(decodeKeycloakClient(clientObject({ ...clientSpec, clientRoles: [{ name: 'n'.repeat(255) }, 'm'.repeat(255)] })))).toBe('accepted');
    expect(verdict(decodeKeycloakClient(clientObject({ ...clientSpec, clientRoles: [{ name: 'n'.repeat(256) }] })))).toMatch(/^spec\.clientRoles\[0\]\.name: expected a string of 1 to 255 characters/);
    expect(verdict(decodeKeycloakClient(clientObject({ ...clientSpec, clientRoles: ['n'.repeat(256)] })))).toMatch(/^spec\.clientRoles\[0\]: a role's name is a string of 1 to 255 characters/);
    expect(specSchemaOf(keycloakClientCrd).properties?.['clientRoles']?.items).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
  });
});
