// A client stating authorizationSettings against the in-memory Keycloak: it converges, then a reconcile
// plans nothing. Fast proof that the planner and the simulator agree; the real server is proved in the
// integration test.
import { describe, expect, it } from '@jest/globals';
import type { ObjectRef } from '@keyward/kernel';
import { FakeClock } from '@keyward/kernel/testing';
import { InMemoryWorld } from '@keyward/kernel';
import { keycloakClientType, keycloakRealmType } from '../../src/index.js';
import { simulateKeycloak } from '../../src/testing.js';
import { convergeAt, type KeycloakWorld } from '../simulated-world.js';

const realmRef: ObjectRef = { type: keycloakRealmType, namespace: 'team-a', name: 'shared' };
const clientRef: ObjectRef = { type: keycloakClientType, namespace: 'team-a', name: 'documents' };

describe('authorizationSettings against the in-memory Keycloak', () => {
  it('converge, then plan nothing', async () => {
    const w: KeycloakWorld = new InMemoryWorld({ keycloak: simulateKeycloak });
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    w.put(keycloakRealmType, { metadata: { name: 'shared', namespace: 'team-a' }, spec: { realmName: 'shared', clientAuthorizationGrants: ['team-a'] } });
    await convergeAt(w, realmRef, clock);
    w.put(keycloakClientType, {
      metadata: { name: 'documents', namespace: 'team-a' },
      spec: {
        clientId: 'documents',
        realmRef: { name: 'shared' },
        settings: { serviceAccountsEnabled: true },
        authorizationSettings: {
          policyEnforcementMode: 'PERMISSIVE',
          scopes: [{ name: 'read', displayName: 'Read' }, { name: 'write' }],
          resources: [{ name: 'doc', uris: ['/doc/*'], scopes: ['read', 'write'], attributes: { team: 'a' } }, { name: 'report', scopes: ['read'], ownerManagedAccess: true }],
          policies: [
            { name: 'readers', type: 'role', description: 'Who reads', roles: [{ name: 'reader', required: true }] },
            { name: 'team', type: 'group', groups: [{ path: 'team' }] },
            { name: 'alice', type: 'user', logic: 'NEGATIVE', users: ['alice'] },
            { name: 'self', type: 'client', clients: ['documents'] },
            { name: 'both', type: 'aggregate', policies: ['readers', 'hours'], decisionStrategy: 'CONSENSUS' },
            { name: 'hours', type: 'time', notBefore: '2000-01-01 00:00:00', hour: 8, hourEnd: 18 },
            { name: 'claims', type: 'regex', targetClaim: 'email', pattern: '.*', targetContextAttributes: true },
          ],
          permissions: [
            { name: 'doc-access', type: 'resource', resources: ['doc'], policies: ['readers', 'team'], decisionStrategy: 'AFFIRMATIVE' },
            { name: 'read-access', type: 'scope', scopes: ['read'], policies: ['alice'] },
          ],
        },
      },
    });
    await convergeAt(w, clientRef, clock);
    const writes = w.apis.keycloak.writes;
    expect(await convergeAt(w, clientRef, clock)).toHaveLength(1);
    expect(w.apis.keycloak.writes).toBe(writes);
    expect((w.get(clientRef)?.['status'] as { managed?: unknown }).managed).toEqual({ authorizationScopes: ['read', 'write'], authorizationResources: ['doc', 'report'] });
  });
});
