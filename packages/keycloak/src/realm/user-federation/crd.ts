import { UserFederationList } from './spec.js';

// The schema of a realm's user federation providers: the spec's, declared with its codec in spec.ts, and the
// status's.

export const userFederationSchema = UserFederationList.schema;

const text = { type: 'string' };

export const userFederationStatusSchema = {
  type: 'array',
  description: 'One entry per user federation provider the spec lists, with Keycloak\'s id and connection test once read.',
  items: {
    type: 'object',
    properties: {
      name: { ...text, description: 'The provider\'s name in the spec.' },
      providerId: { ...text, description: 'ldap or kerberos.' },
      id: { ...text, description: 'Keycloak\'s id of the provider, once read.' },
      connectionTestPassed: { type: 'boolean', description: 'LDAP: whether Keycloak\'s connection test bound to the directory with the stored credential.' },
      connectionTestError: { ...text, description: 'Why the connection test failed, as Keycloak says it.' },
    },
  },
};
