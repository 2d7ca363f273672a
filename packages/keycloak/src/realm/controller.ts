import { coreTypes, type ControllerDefinition } from '@keyward/kernel';
import type { KeycloakConfig } from '../config.js';
import { keycloakErrorPolicy, refusedGeneration } from '../problems.js';
import { keycloakRealmType } from '../types.js';
import { decodeRealm } from './decode.js';
import { observe } from './observe.js';
import type { RealmQueries } from './types.js';
import { reconcile } from './reconcile.js';
import { reportFailure, reportInvalid } from './report.js';
import type { KeycloakRealm } from './spec.js';
import { keycloakRealmApis, type KeycloakRealmAction } from './vocabulary.js';
import { federationSecretsWatch } from './user-federation/secrets.js';
import { idpSecretsWatch } from './identity-providers/secrets.js';
import { adminSecretWhileRefused } from '../admin-secret-watch.js';
import { clientsWhileWaiting } from './client-waits.js';

/** The KeycloakRealm controller as data, for @keyward/runtime's runtime. */
export const keycloakRealmController: ControllerDefinition<KeycloakRealm, RealmQueries, KeycloakConfig, KeycloakRealmAction> = {
  name: 'keycloak-realm',
  apis: keycloakRealmApis,
  primary: { type: keycloakRealmType, decode: decodeRealm },
  secondary: () => [],
  // The SMTP password Secret is watched by name: a changed password is sent, a missing one is waited for.
  referenced: [{ type: coreTypes.secret, of: (cr) => (cr.spec.smtpServer?.passwordSecret === undefined ? [] : [{ namespace: cr.metadata.namespace, name: cr.spec.smtpServer.passwordSecret.name }]) }, idpSecretsWatch, federationSecretsWatch, adminSecretWhileRefused, clientsWhileWaiting],
  // Keycloak's rate limit is charged by namespace.
  maxInFlightPerNamespace: (config) => config.keycloakNamespaceConcurrency,
  // Checked for changes made in Keycloak out of band, one object at a time through the operator's one loop.
  spreadResyncMs: (config) => config.keycloakResyncPeriod,
  observe,
  reconcile,
  reportFailure: (cr, failure, now) => reportFailure(cr, failure, now),
  // A spec Keycloak refused (400) is recorded with its generation, and nothing sends it again until an edit.
  errorPolicy: keycloakErrorPolicy,
  heldGeneration: refusedGeneration,
  reportInvalid,
  // A plan that changes the realm in Keycloak is read back in the same reconcile, so the realm's status is
  // written once, saying Ready when Keycloak holds the spec (not first "applying", then Ready).
  readsBack: (plan) => plan.steps.some((step) => step.action.kind.startsWith('keycloak.')),
};
