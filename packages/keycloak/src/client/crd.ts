import { conditionColumn, conditionSchema, namespacedCrd } from '@keyward/kernel/plan';
import { endpointsSchema } from '../endpoints.js';
import { withUpstreamSpellingSchemas } from '../upstream-spellings.js';
import { CLIENT_UPSTREAM_SHAPES, CLIENT_UPSTREAM_SPELLINGS } from './upstream.js';
import { keycloakClientType } from '../types.js';
import { clientSpecSchema } from './spec.js';

// The KeycloakClient CRD: the spec's schema, declared with its codec in spec.ts, and the status's.

const text = { type: 'string' };
const timestamp = { type: 'string', format: 'date-time' };

const statusSchema = {
  type: 'object',
  description: 'The client in Keycloak, its credentials Secret, its secret\'s renewals, and what the last reconcile applied; written by the controller.',
  properties: {
    conditions: { type: 'array', items: conditionSchema, description: 'Ready, Reconciling and Stalled: one is True, with the reason and message of the last reconcile.' },
    observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation of the spec this status describes.' },
    realm: { ...text, description: 'The Keycloak realm, from the realm object.' },
    clientUuid: { ...text, description: 'Keycloak\'s id of the client.' },
    endpoints: endpointsSchema,
    secretName: { ...text, description: 'Name of the credentials Secret, in this namespace.' },
    lastSecretRotation: { ...timestamp, description: 'When the secret was last regenerated, or the rotation period began (RFC 3339); the next rotation is rotationPeriod after it.' },
    secretRegeneratedFor: { ...text, description: 'The regenerateSecret token last acted upon.' },
    refusedGeneration: { type: 'integer', format: 'int64', description: 'The generation whose spec Keycloak refused; it is not sent again until the spec changes.' },
    managed: {
      type: 'object',
      description: 'Scope links and service-account roles applied from the spec: only these are ever removed.',
      properties: {
        defaultClientScopes: { type: 'array', items: text, description: 'Default client scopes the spec linked, by name.' },
        optionalClientScopes: { type: 'array', items: text, description: 'Optional client scopes the spec linked, by name.' },
        serviceAccountRealmRoles: { type: 'array', items: text, description: 'Realm roles the spec granted the service account, by name.' },
        serviceAccountClientRoles: { type: 'object', additionalProperties: { type: 'array', items: text }, description: 'Client roles the spec granted the service account, by the clientId of their client.' },
        authorizationScopes: { type: 'array', items: text, description: 'Authorization scopes the spec made, by name (Keycloak keeps no marker on a scope).' },
        authorizationResources: { type: 'array', items: text, description: 'Authorization resources the spec made, by name (they carry Keyward\'s marker too).' },
      },
    },
  },
};

/** The KeycloakClient CRD: the old operator's group and kind, with a status subresource and validation. */
export const keycloakClientCrd = namespacedCrd({
  type: keycloakClientType,
  singular: 'keycloakclient',
  shortNames: ['kcc'],
  printerColumns: [
    conditionColumn('Ready', 'Ready'),
    { name: 'ClientID', type: 'string', jsonPath: '.spec.clientId' },
    { name: 'Realm', type: 'string', jsonPath: '.status.realm' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  schema: {
    description: 'KeycloakClient: a client in a Keycloak realm, with a credentials Secret in its namespace.',
    required: ['spec'],
    spec: withUpstreamSpellingSchemas(clientSpecSchema, CLIENT_UPSTREAM_SPELLINGS, CLIENT_UPSTREAM_SHAPES),
    status: statusSchema,
  },
});
