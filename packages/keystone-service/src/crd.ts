import { conditionColumn, conditionSchema, DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN, namespacedCrd } from '@keyward/vocabulary';
import { MAX_NAME_LENGTH, NAME_PATTERN, keystoneType } from './api.js';
import { CRON_FIELD_PATTERN } from './cron-pattern.js';
import { NAME_MESSAGE } from './decode.js';
import { MIN_ACTIVE_KEYS } from './fernet.js';
import { BASE_FILTER_NAMES } from './paste.js';
import {
  BASE_FILTER_MESSAGE,
  CACHE_ONE_OF,
  DATABASE_ONE_OF,
  DEFAULT_CACHE_BACKEND,
  DEFAULT_ROTATION_SCHEDULE,
  INI_NAME_PATTERN,
  INI_VALUE_PATTERN,
  MAX_ACTIVE_KEYS_LIMIT,
  POLICY_ONE_OF,
  PORT_NEEDS_HOST,
  POSITIONS,
} from './spec.js';

const text = { type: 'string', minLength: 1 };
const timestamp = { type: 'string', format: 'date-time' };
const localRef = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN } } };
const iniName = { type: 'string', pattern: INI_NAME_PATTERN };
const iniValue = { type: 'string', pattern: INI_VALUE_PATTERN };
/**
 * A map of INI names. Its keys are checked by the codec only: a CEL rule over map keys of unbounded length
 * exceeds the API server's cost budget, so a bad section or key name is reported as an invalid spec.
 */
const iniMap = (values: object) => ({ type: 'object', additionalProperties: values });
const iniSection = iniMap(iniValue);
const keyCount = (description: string) => ({ type: 'integer', minimum: MIN_ACTIVE_KEYS, maximum: MAX_ACTIVE_KEYS_LIMIT, default: MIN_ACTIVE_KEYS, description });
const exactlyOne = (a: string, b: string, message: string) => ({ rule: `has(self.${a}) != has(self.${b})`, message });

/**
 * The Keystone CRD (keystone.openstack.c5c3.io/v1alpha1). The codec in spec.ts applies the same rules; an
 * integration test checks both give the same verdicts on the real API server. The cron schedule's syntax and
 * ranges are checked by pattern here; the codec also refuses an inverted range ("5-1"), which it reports.
 */
const crdWithoutNameRule = namespacedCrd({
  type: keystoneType,
  singular: 'keystone',
  printerColumns: [
    conditionColumn('Ready', 'Ready'),
    { name: 'Endpoint', type: 'string', jsonPath: '.status.endpoint' },
  ],
  schema: {
    description: 'Keystone: a Keystone identity service run from this object (keys, configuration, database schema, API Deployment, bootstrap).',
    required: ['spec'],
    spec: {
      type: 'object',
      required: ['image', 'database', 'bootstrap'],
      properties: {
        replicas: { type: 'integer', minimum: 1, maximum: 1000, default: 3, description: 'API pods.' },
        image: { type: 'object', required: ['repository', 'tag'], properties: { repository: text, tag: text } },
        database: {
          type: 'object',
          required: ['secretRef'],
          description: 'An existing server (host, port) or a MariaDB operator cluster (clusterRef); secretRef holds username and password.',
          'x-kubernetes-validations': [exactlyOne('host', 'clusterRef', DATABASE_ONE_OF), { rule: '!has(self.port) || has(self.host)', message: PORT_NEEDS_HOST }],
          properties: {
            host: text,
            port: { type: 'integer', minimum: 1, maximum: 65535 },
            clusterRef: localRef,
            database: { type: 'string', minLength: 1, default: 'keystone' },
            secretRef: localRef,
          },
        },
        cache: {
          type: 'object',
          'x-kubernetes-validations': [exactlyOne('servers', 'clusterRef', CACHE_ONE_OF)],
          properties: {
            servers: { type: 'array', minItems: 1, 'x-kubernetes-list-type': 'set', items: { type: 'string', pattern: '^[^\\s,]+$' } },
            clusterRef: localRef,
            backend: { type: 'string', minLength: 1, default: DEFAULT_CACHE_BACKEND },
          },
        },
        fernet: {
          type: 'object',
          default: {},
          properties: {
            rotationSchedule: { type: 'string', pattern: CRON_FIELD_PATTERN, default: DEFAULT_ROTATION_SCHEDULE, description: 'Cron schedule (UTC) of fernet key rotation.' },
            maxActiveKeys: keyCount('Keys kept: the staged key, the primary and the secondaries.'),
          },
        },
        credentialKeys: { type: 'object', default: {}, properties: { maxActiveKeys: keyCount('Credential encryption keys created.') } },
        bootstrap: {
          type: 'object',
          required: ['adminPasswordSecretRef'],
          properties: {
            adminUser: { type: 'string', minLength: 1, default: 'admin' },
            adminPasswordSecretRef: { ...localRef, properties: { ...localRef.properties, key: { type: 'string', minLength: 1, default: 'password' } } },
            region: { type: 'string', pattern: INI_NAME_PATTERN, default: 'RegionOne' },
            publicEndpoint: { type: 'string', pattern: '^https?://[^\\s]+$' },
          },
        },
        middleware: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-validations': [{ rule: `self.all(m, !(m.name in ${JSON.stringify(BASE_FILTER_NAMES).replaceAll('"', "'")}))`, message: BASE_FILTER_MESSAGE }],
          items: {
            type: 'object',
            required: ['name', 'filterFactory', 'position'],
            properties: {
              name: iniName,
              filterFactory: iniName,
              position: { type: 'string', enum: [...POSITIONS] },
              filter: { type: 'string', enum: [...BASE_FILTER_NAMES], description: 'The base filter to stand before or after; the whole base pipeline when absent.' },
              config: iniSection,
            },
          },
        },
        plugins: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name', 'configSection'], properties: { name: iniName, configSection: iniName, config: { ...iniSection, default: {} } } },
        },
        policyOverrides: {
          type: 'object',
          'x-kubernetes-validations': [exactlyOne('rules', 'configMapRef', POLICY_ONE_OF)],
          properties: { rules: { type: 'object', additionalProperties: iniValue }, configMapRef: localRef },
        },
        extraConfig: iniMap(iniSection),
      },
    },
    status: {
      type: 'object',
      properties: {
        observedGeneration: { type: 'integer', format: 'int64' },
        conditions: { type: 'array', items: conditionSchema },
        endpoint: { type: 'string' },
        configMapName: { type: 'string' },
        lastFernetRotation: timestamp,
        nextFernetRotation: timestamp,
      },
    },
  },
});

/** The name rule, which needs the whole object: at the root of the schema, where CEL may read metadata.name (the message names the field, as no fieldPath can). */
export const keystoneNameRule = { rule: `self.metadata.name.size() <= ${String(MAX_NAME_LENGTH)} && self.metadata.name.matches('${NAME_PATTERN}')`, message: `metadata.name: ${NAME_MESSAGE}` };

const [version] = crdWithoutNameRule.spec.versions;

export const keystoneCrd = {
  ...crdWithoutNameRule,
  spec: {
    ...crdWithoutNameRule.spec,
    versions: [{ ...version, schema: { openAPIV3Schema: { ...version.schema.openAPIV3Schema, 'x-kubernetes-validations': [keystoneNameRule] } } }],
  },
};
