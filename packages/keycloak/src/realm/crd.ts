import { conditionColumn, conditionSchema, namespacedCrd } from '@keyward/kernel/plan';
import { endpointsSchema } from '../endpoints.js';
import { realmManagedSchema } from './managed.js';
import { keycloakRealmType } from '../types.js';
import { withUpstreamSpellingSchemas } from '../upstream-spellings.js';
import { REALM_UPSTREAM_SHAPES, REALM_UPSTREAM_SPELLINGS } from './upstream.js';
import { userFederationStatusSchema } from './user-federation/crd.js';
import { realmSpecSchema } from './spec.js';

// The KeycloakRealm CRD: the spec's schema is declared with its codec in spec.ts; the status's is here.

export { REALM_NAME_IMMUTABLE_MESSAGE } from './spec.js';

const text = { type: 'string' };

const status = {
  type: 'object',
  description: 'The realm in Keycloak, how the last reconcile went, and what it applied from the spec; written by the controller.',
  properties: {
    conditions: { type: 'array', items: conditionSchema, description: 'Ready, Reconciling and Stalled: one is True, with the reason and message of the last reconcile.' },
    observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation of the spec this status describes.' },
    realmId: { ...text, description: 'Keycloak\'s id of the realm.' },
    endpoints: endpointsSchema,
    smtpPasswordVersion: { type: 'string', description: 'The resourceVersion of the SMTP password Secret last sent to Keycloak.' },
    message: { ...text, description: 'The message of the Ready condition.' },
    registeredRequiredActions: { type: 'array', items: text, description: 'Required actions this object registered, by alias: the only ones it ever unregisters.' },
    managed: realmManagedSchema,
    identityProviderSecretVersions: { type: 'object', additionalProperties: text, description: 'The resourceVersion of each Secret whose identity provider config values were last sent to Keycloak, by name.' },
    userFederation: userFederationStatusSchema,
    userFederationSecretVersions: { type: 'object', additionalProperties: text, description: 'The resourceVersion of each Secret whose bind credential was last sent to Keycloak, by name.' },
    refusedGeneration: { type: 'integer', format: 'int64', description: 'The generation whose spec Keycloak refused; it is not sent again until the spec changes.' },
  },
};

/** The KeycloakRealm CRD. */
export const keycloakRealmCrd = namespacedCrd({
  type: keycloakRealmType,
  singular: 'keycloakrealm',
  shortNames: ['kcr'],
  printerColumns: [
    conditionColumn('Ready', 'Ready'),
    { name: 'Realm', type: 'string', jsonPath: '.spec.realmName' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  schema: {
    description: 'KeycloakRealm: a realm in Keycloak, with its settings, roles and client scopes.',
    required: ['spec'],
    spec: withUpstreamSpellingSchemas(realmSpecSchema, REALM_UPSTREAM_SPELLINGS, REALM_UPSTREAM_SHAPES),
    status,
  },
});
