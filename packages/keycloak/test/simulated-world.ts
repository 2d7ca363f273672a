// What the tests that run controllers against the in-memory Keycloak share: the operator's settings and the world.
import type { InMemoryWorld } from '@keyward/core/testing';
import { defaultKeycloakConfig, type KeycloakConfig } from '../src/index.js';
import type { SimulatedKeycloak } from '../src/testing.js';

export const simulatedConfig: KeycloakConfig = {
  ...defaultKeycloakConfig,
  keycloakUrl: 'http://keycloak.test',
  keycloakAdminSecret: { namespace: 'keyward-system', name: 'keycloak-admin' },
  keycloakOperatorNamespace: 'keyward-system',
};

export type KeycloakWorld = InMemoryWorld<{ keycloak: SimulatedKeycloak }>;
