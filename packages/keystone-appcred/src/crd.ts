import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/kernel/model';
import { conditionColumn, conditionSchema, namespacedCrd } from '@keyward/kernel/plan';
import { ACIDSecretKey, ACSecretSecretKey, CONDITION_AC_READY, CONDITION_KEYSTONE_API_READY, CONDITION_READY, ACCESS_RULE_PATH, ACCESS_RULE_SERVICE, DEFAULT_EXPIRATION_DAYS, DEFAULT_GRACE_PERIOD_DAYS, HTTP_METHODS, GRACE_PERIOD_MESSAGE, MAX_ACCESS_RULES, MAX_EXPIRATION_DAYS, MAX_ROLES, ROLE_NAME, appCredType, keystoneApiType } from './api.js';

const timestamp = { type: 'string', format: 'date-time' };
const text = { type: 'string' };

/**
 * The KeystoneApplicationCredential CRD: the same API as the upstream keystone-operator (group, names,
 * fields, defaults, the CEL rule and printer columns), plus status.pendingACName. The codec in api.ts applies
 * the same rules; a test checks both give the same verdicts on the real API server.
 */
export const appCredCrd = namespacedCrd({
  type: appCredType,
  singular: 'keystoneapplicationcredential',
  shortNames: ['appcred'],
  printerColumns: [
    { name: 'ACID', type: 'string', jsonPath: '.status.acID' },
    { name: 'SecretName', type: 'string', jsonPath: '.status.secretName' },
    { name: 'LastRotated', type: 'date', jsonPath: '.status.lastRotated' },
    // A time to come: as a `date` column kubectl would print it as an age, which for a future time is `<invalid>`.
    { name: 'RotationEligible', type: 'string', jsonPath: '.status.rotationEligibleAt' },
    conditionColumn('Status', 'Ready'),
    conditionColumn('Message', 'Ready', 'message'),
  ],
  schema: {
    description: 'KeystoneApplicationCredential: a Keystone application credential kept in an immutable Secret and rotated before it expires.',
    required: ['spec'],
    spec: {
      type: 'object',
      description: 'The Keystone user the credential is for, what it may do, and how long each credential lives.',
      required: ['secret', 'passwordSelector', 'userName', 'roles'],
      // fieldPath: a rejection names spec.gracePeriodDays, as the codec does, rather than the whole spec.
      'x-kubernetes-validations': [{ rule: 'self.gracePeriodDays < self.expirationDays', message: GRACE_PERIOD_MESSAGE, fieldPath: '.gracePeriodDays' }],
      properties: {
        secret: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN, description: 'Name of the Secret, in this namespace, holding the service user\'s password.' },
        passwordSelector: { type: 'string', minLength: 1, description: 'Key of the password in that Secret.' },
        userName: { type: 'string', minLength: 1, description: 'Keystone user that owns the credential, in project service of domain Default.' },
        expirationDays: { type: 'integer', minimum: 2, maximum: MAX_EXPIRATION_DAYS, default: DEFAULT_EXPIRATION_DAYS, description: `Lifetime of each credential in days, from 2 to ${String(MAX_EXPIRATION_DAYS)} (100 years); default ${String(DEFAULT_EXPIRATION_DAYS)}.` },
        gracePeriodDays: { type: 'integer', minimum: 1, maximum: MAX_EXPIRATION_DAYS - 1, default: DEFAULT_GRACE_PERIOD_DAYS, description: `Days before expiry at which the credential is rotated, smaller than expirationDays; default ${String(DEFAULT_GRACE_PERIOD_DAYS)}.` },
        roles: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_ROLES,
          items: { type: 'string', minLength: 1, maxLength: ROLE_NAME.maxLength, pattern: ROLE_NAME.pattern, description: 'A Keystone role name.' },
          'x-kubernetes-list-type': 'set',
          description: 'Roles the credential carries, each once.',
        },
        unrestricted: { type: 'boolean', default: false, description: 'Whether the credential may create credentials and trusts; default false.' },
        accessRules: {
          type: 'array',
          description: 'APIs the credential may call, each rule once; all when empty.',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['service', 'path', 'method'],
          maxItems: MAX_ACCESS_RULES,
          items: {
            type: 'object',
            required: ['service', 'path', 'method'],
            properties: {
              service: { type: 'string', minLength: 1, maxLength: ACCESS_RULE_SERVICE.maxLength, pattern: ACCESS_RULE_SERVICE.pattern, description: 'Service type of the API, as in the catalog (compute, image).' },
              path: { type: 'string', minLength: 1, maxLength: ACCESS_RULE_PATH.maxLength, pattern: ACCESS_RULE_PATH.pattern, description: 'Path of the API calls allowed, from / (may use * and ** wildcards).' },
              method: { type: 'string', enum: [...HTTP_METHODS], description: 'HTTP method of the API calls allowed.' },
            },
          },
        },
      },
    },
    status: {
      type: 'object',
      description: 'The current credential, where it is stored, when it is rotated, and how the last reconcile went; written by the controller.',
      properties: {
        acID: { ...text, description: 'Keystone id of the current application credential.' },
        secretName: { ...text, description: `Name of the immutable Secret holding the current credential (keys ${ACIDSecretKey} and ${ACSecretSecretKey}); consumers read this one.` },
        previousSecretName: { ...text, description: 'Name of the Secret of the credential before the last rotation, kept while a consumer holds it.' },
        createdAt: { ...timestamp, description: 'When the current credential was created (RFC 3339).' },
        expiresAt: { ...timestamp, description: 'When the current credential expires in Keystone (RFC 3339): its creation time plus expirationDays. A missing or past value rotates it.' },
        rotationEligibleAt: { ...timestamp, description: 'When the current credential is rotated (RFC 3339): expiresAt minus gracePeriodDays; rotation follows as soon as this time has passed.' },
        lastRotated: { ...timestamp, description: 'When a credential last replaced an earlier one (RFC 3339); not set by the first creation.' },
        observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation of the spec this status describes.' },
        securityHash: { ...text, description: 'Hash of the spec\'s roles, accessRules and unrestricted the current credential was created with; a spec that hashes differently rotates the credential.' },
        pendingACName: { type: 'string', description: 'Name of a credential a rotation is creating, until its Secret is stored (the first credential\'s name is in the annotation keystone.keyward.io/credential-name).' },
        conditions: {
          type: 'array',
          items: conditionSchema,
          description: `${CONDITION_KEYSTONE_API_READY} (Keystone found), ${CONDITION_AC_READY} (the credential and its Secret exist) and ${CONDITION_READY} (both are True).`,
        },
      },
    },
  },
});

/**
 * A minimal KeystoneAPI CRD (status.apiEndpoints and conditions only) for clusters and tests without
 * keystone-operator. Where keystone-operator is installed, its own CRD is used instead.
 */
export const keystoneApiCrd = namespacedCrd({
  type: keystoneApiType,
  singular: 'keystoneapi',
  schema: {
    spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    status: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        apiEndpoints: { type: 'object', additionalProperties: { type: 'string' } },
        conditions: { type: 'array', items: conditionSchema },
      },
    },
  },
});
