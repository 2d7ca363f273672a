import { coreTypes, type ControllerDefinition } from '@keyward/kernel';
import { owns } from '@keyward/kernel/plan';
import { adminSecretWhileRefused } from '../admin-secret-watch.js';
import type { KeycloakConfig } from '../config.js';
import { keycloakErrorPolicy, refusedGeneration } from '../problems.js';
import { keycloakClientType, keycloakRealmType } from '../types.js';
import { decodeKeycloakClient } from './decode.js';
import { observeClient, type ClientQueries } from './observe.js';
import { realmObjectRef, realmViewChanged } from './realm.js';
import { reconcileClient } from './reconcile.js';
import { reportClientFailure, reportInvalidClient } from './report.js';
import type { KeycloakClient } from './spec.js';
import { clientApis, type ClientAction } from './vocabulary.js';

/** The KeycloakClient controller as data, for @keyward/runtime's runtime. */
export const keycloakClientController: ControllerDefinition<KeycloakClient, ClientQueries, KeycloakConfig, ClientAction> = {
  name: 'keycloak-client',
  apis: clientApis,
  primary: { type: keycloakClientType, decode: decodeKeycloakClient },
  // The credentials Secret: a change to it (or its deletion) has it written again.
  secondary: () => [owns(coreTypes.secret, keycloakClientType)],
  referenced: [
    // A realm that appears, grants the namespace or is made in Keycloak wakes its clients; its own status
    // changes (applying an edit, a failed login) do not.
    { type: keycloakRealmType, of: (client) => [realmObjectRef(client)], wakesOn: realmViewChanged },
    // A provided client secret that appears or changes is pushed to Keycloak.
    { type: coreTypes.secret, of: (client) => (client.spec.clientSecret === undefined ? [] : [{ namespace: client.metadata.namespace, name: client.spec.clientSecret.name }]) },
    adminSecretWhileRefused,
  ],
  // Keycloak's rate limit is charged by namespace.
  maxInFlightPerNamespace: (config) => config.keycloakNamespaceConcurrency,
  // Checked for changes made in Keycloak out of band, one object at a time through the operator's one loop.
  spreadResyncMs: (config) => config.keycloakResyncPeriod,
  observe: observeClient,
  reconcile: reconcileClient,
  reportFailure: (client, failure, now) => reportClientFailure(client, failure, now),
  // A spec Keycloak refused (400) is recorded with its generation, and nothing sends it again until an edit.
  errorPolicy: keycloakErrorPolicy,
  heldGeneration: refusedGeneration,
  reportInvalid: reportInvalidClient,
};
