import { describe, expect, it } from '@jest/globals';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decodeKeycloakClient } from '../../src/client/decode.js';
import { baseSpec } from './harness.js';

const object = (spec: unknown) => ({ apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name: 'shop', namespace: 'team-a', uid: 'u', generation: 1 }, spec });

function rejection(spec: unknown): string {
  const decoded = decodeKeycloakClient(object(spec));
  if (!isLeft(decoded)) throw new Error('expected the spec to be rejected');
  return decoded.left.message;
}

describe('invalid specs name the field', () => {
  it.each([
    ['no clientId', { realmRef: { name: 'r' } }, 'spec.clientId: required'],
    ['no realmRef', { clientId: 'x' }, 'spec.realmRef: required'],
    ['a realmRef namespace that is no namespace', { ...baseSpec, realmRef: { name: 'r', namespace: 'Team_A' } }, 'spec.realmRef.namespace:'],
    ['an unknown protocol', { ...baseSpec, protocol: 'cas' }, 'spec.protocol: expected one of openid-connect, saml, docker-v2, got "cas"'],
    ['an unknown PKCE method', { ...baseSpec, settings: { pkceCodeChallengeMethod: 'S512' } }, 'spec.settings.pkceCodeChallengeMethod:'],
    ['a zero lifespan', { ...baseSpec, settings: { accessTokenLifespan: 0 } }, 'spec.settings.accessTokenLifespan:'],
    ['a redirect URI twice', { ...baseSpec, redirectUris: ['a', 'a'] }, 'spec.redirectUris[1]: duplicate of spec.redirectUris[0]'],
    ['two mappers of one name', { ...baseSpec, protocolMappers: [{ name: 'm', protocolMapper: 'p' }, { name: 'm', protocolMapper: 'q' }] }, 'spec.protocolMappers[1]: duplicate'],
    ['a rotation period of zero', { ...baseSpec, secretRotation: { enabled: true, rotationPeriod: '0d' } }, 'spec.secretRotation.rotationPeriod:'],
    ['a rotation period without a unit', { ...baseSpec, secretRotation: { enabled: true, rotationPeriod: '90' } }, 'spec.secretRotation.rotationPeriod:'],
    ['a regenerateSecret number', { ...baseSpec, regenerateSecret: 3 }, 'spec.regenerateSecret:'],
    ['an ownership attribute', { ...baseSpec, attributes: { 'io.kubernetes.cr-name': 'victim' } }, 'spec.attributes: attributes must not state'],
    ['an unknown deletionPolicy', { ...baseSpec, deletionPolicy: 'Orphan' }, 'spec.deletionPolicy:'],
    ['public and bearer-only', { ...baseSpec, publicClient: true, bearerOnly: true }, 'spec.bearerOnly: publicClient and bearerOnly exclude each other'],
    ['a public client with a provided secret', { ...baseSpec, publicClient: true, clientSecret: { name: 's', key: 'k' } }, 'spec.clientSecret: a public client has no secret'],
    ['a public client with rotation', { ...baseSpec, publicClient: true, secretRotation: { enabled: true } }, 'spec.secretRotation: a public client has no secret'],
    ['a public client regenerating', { ...baseSpec, publicClient: true, regenerateSecret: 'now' }, 'spec.regenerateSecret: a public client has no secret'],
    ['a provided secret with rotation', { ...baseSpec, clientSecret: { name: 's', key: 'k' }, secretRotation: { enabled: true } }, 'spec.secretRotation: a client whose secret comes from clientSecret'],
    ['a provided secret regenerating', { ...baseSpec, clientSecret: { name: 's', key: 'k' }, regenerateSecret: true }, 'spec.regenerateSecret: a client whose secret comes from clientSecret'],
    ['a client role name longer than Keycloak stores', { ...baseSpec, clientRoles: ['n'.repeat(256)] }, 'spec.clientRoles[0]: a role\'s name is a string of 1 to 255 characters'],
    ['an empty client role name', { ...baseSpec, clientRoles: [''] }, 'spec.clientRoles[0]: a role\'s name is a string of 1 to 255 characters, got ""'],
    ['a client role that is a number', { ...baseSpec, clientRoles: [3] }, 'spec.clientRoles[0]: expected a role name or a role object (name, description, attributes), got 3'],
    ['a client role object without a name', { ...baseSpec, clientRoles: [{ description: 'x' }] }, 'spec.clientRoles[0].name: required'],
    ['a client role object with an unknown field', { ...baseSpec, clientRoles: [{ name: 'r', composite: true }] }, 'spec.clientRoles[0].composite: a role object has only the fields name, description, attributes'],
    ['a client role named twice, once as a name', { ...baseSpec, clientRoles: ['r', { name: 'r' }] }, 'spec.clientRoles[1]: duplicate of spec.clientRoles[0] ("r")'],
    ['more client roles than the bound', { ...baseSpec, clientRoles: Array.from({ length: 101 }, (_, i) => `role-${String(i)}`) }, 'spec.clientRoles: must have at most 100 items'],
    ['authorization services on a client without a service account', { ...baseSpec, settings: { authorizationServicesEnabled: true } }, 'spec.settings: settings.authorizationServicesEnabled needs a confidential client with a service account'],
    ['authorization services off with authorization settings', { ...baseSpec, settings: { serviceAccountsEnabled: true, authorizationServicesEnabled: false }, authorizationSettings: {} }, 'spec.authorizationSettings: authorizationSettings turn authorization services on'],
  ])('%s', (_what, spec, message) => {
    expect(rejection(spec)).toContain(message);
  });
});

describe('valid specs', () => {
  it('applies the defaults of deletionPolicy and rotationPeriod', () => {
    const decoded = decodeKeycloakClient(object({ ...baseSpec, secretRotation: { enabled: true } }));
    expect(isRight(decoded) && decoded.right.spec).toMatchObject({ deletionPolicy: 'Delete', secretRotation: { enabled: true, rotationPeriod: '90d' } });
  });

  it('accepts a public client with rotation disabled and regenerateSecret false, as old manifests have them', () => {
    expect(isRight(decodeKeycloakClient(object({ ...baseSpec, publicClient: true, secretRotation: { enabled: false }, regenerateSecret: false })))).toBe(true);
  });

  it('reads a client role given by its name, as the Kopf operator\'s manifests give it, as a role of that name', () => {
    const decoded = decodeKeycloakClient(object({ ...baseSpec, clientRoles: ['viewer', { name: 'editor', description: 'Edits', attributes: { a: 'b' } }] }));
    expect(isRight(decoded) && decoded.right.spec.clientRoles).toEqual([{ name: 'viewer' }, { name: 'editor', description: 'Edits', attributes: { a: 'b' } }]);
  });

  it('keeps the status fields it knows and drops the rest', () => {
    const decoded = decodeKeycloakClient({ ...object(baseSpec), status: { realm: 'shared', clientUuid: 7, managed: { defaultClientScopes: ['a', 3] }, endpoints: { issuer: 'i' } } });
    expect(isRight(decoded) && decoded.right.status).toEqual({ realm: 'shared', managed: { defaultClientScopes: ['a'] } });
  });
});
