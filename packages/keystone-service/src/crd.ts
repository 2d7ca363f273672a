import { conditionColumn, conditionSchema, namespacedCrd } from '@keyward/kernel/plan';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/kernel/model';
import { CONDITION_READY, DB_PASSWORD_KEY, MAX_NAME_LENGTH, NAME_PATTERN, STEP_CONDITIONS, keystoneType } from './api.js';
import { MEMCACHED_PORT, MYSQL_PORT } from './keystone-conf.js';
import { CRON_FIELD_PATTERN } from './cron-pattern.js';
import { NAME_MESSAGE } from './decode.js';
import { MIN_ACTIVE_KEYS } from './fernet.js';
import { BASE_FILTER_NAMES } from './paste.js';
import { UPGRADE_PHASES } from './upgrade.js';
import { podSettingsSchema } from './pod-settings.js';
import { trustFlushSchema } from './trust-flush.js';
import { autoscalingSchema } from './autoscaling.js';
import {
  BASE_FILTER_MESSAGE,
  CACHE_ONE_OF,
  DATABASE_ONE_OF,
  DEFAULT_CACHE_BACKEND,
  DEFAULT_ROTATION_SCHEDULE,
  IMAGE_REPOSITORY_PATTERN,
  IMAGE_TAG_PATTERN,
  INI_NAME_PATTERN,
  INI_VALUE_PATTERN,
  MAX_ACTIVE_KEYS_LIMIT,
  MIDDLEWARE_UNSUPPORTED,
  POLICY_AT_LEAST_ONE,
  PORT_NEEDS_HOST,
  POSITIONS,
} from './spec.js';

const text = { type: 'string', minLength: 1 };
const timestamp = { type: 'string', format: 'date-time' };
/** A reference to an object in the Keystone's namespace, by name. */
const refName = { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN, description: 'Name of the object, in the Keystone\'s namespace.' };
const localRef = (description: string) => ({ type: 'object', description, required: ['name'], properties: { name: refName } });
const iniName = (description: string) => ({ type: 'string', pattern: INI_NAME_PATTERN, description });
const iniValue = { type: 'string', pattern: INI_VALUE_PATTERN };
/**
 * A map of INI names. Its keys are checked by the codec only: a CEL rule over map keys of unbounded length
 * exceeds the API server's cost budget, so a bad section or key name is reported as an invalid spec.
 */
const iniMap = (values: object) => ({ type: 'object', additionalProperties: values });
const iniSection = iniMap(iniValue);
const keyCount = (description: string) => ({
  type: 'integer',
  minimum: MIN_ACTIVE_KEYS,
  maximum: MAX_ACTIVE_KEYS_LIMIT,
  default: MIN_ACTIVE_KEYS,
  description: `${description}, from ${String(MIN_ACTIVE_KEYS)} to ${String(MAX_ACTIVE_KEYS_LIMIT)}; default ${String(MIN_ACTIVE_KEYS)}.`,
});
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
      description: 'The Keystone to run: its image, database, cache, keys, bootstrap and configuration.',
      required: ['image', 'database', 'bootstrap'],
      properties: {
        replicas: { type: 'integer', minimum: 1, maximum: 1000, default: 3, description: 'Keystone API pods, from 1 to 1000; default 3. With more than one, a PodDisruptionBudget keeps at least one available.' },
        image: {
          type: 'object',
          description: 'The Keystone container image the API pods and the db_sync and bootstrap Jobs run; a new image runs db_sync again (not bootstrap).',
          required: ['repository', 'tag'],
          properties: {
            repository: { type: 'string', pattern: IMAGE_REPOSITORY_PATTERN, description: 'Image repository, such as registry.example/keystone: an optional registry host (and port), then lowercase path components.' },
            tag: { type: 'string', pattern: IMAGE_TAG_PATTERN, description: 'Image tag: letters, digits, "_", "." and "-", at most 128, not starting with "." or "-".' },
          },
        },
        database: {
          type: 'object',
          required: ['secretRef'],
          description: 'An existing server (host, port) or a MariaDB operator cluster (clusterRef); secretRef holds username and password.',
          'x-kubernetes-validations': [exactlyOne('host', 'clusterRef', DATABASE_ONE_OF), { rule: '!has(self.port) || has(self.host)', message: PORT_NEEDS_HOST }],
          properties: {
            host: { ...text, description: 'Host name or address of an existing MariaDB or MySQL server, used as given: the database must exist and the user hold its privileges. Exactly one of host and clusterRef.' },
            port: { type: 'integer', minimum: 1, maximum: 65535, description: `Port of that server, only with host; default ${String(MYSQL_PORT)}.` },
            clusterRef: localRef('A MariaDB operator MariaDB in this namespace: Keyward creates its Database, User and Grant, named after the Keystone, and connects to its Service. Exactly one of host and clusterRef.'),
            database: { type: 'string', minLength: 1, default: 'keystone', description: 'Name of the database; default keystone.' },
            secretRef: {
              type: 'object',
              description: 'Secret with the database user\'s username (key username) and password (key key); the password reaches the pods only through a Secret, never the ConfigMap.',
              required: ['name'],
              properties: { name: refName, key: { ...text, description: `Key of the password in that Secret; default ${DB_PASSWORD_KEY}.` } },
            },
          },
        },
        cache: {
          type: 'object',
          description: 'Memcached for Keystone\'s cache ([cache] in keystone.conf): a list of servers or a memcached cluster (clusterRef). Without it Keystone caches nothing.',
          'x-kubernetes-validations': [exactlyOne('servers', 'clusterRef', CACHE_ONE_OF)],
          properties: {
            servers: {
              type: 'array',
              minItems: 1,
              'x-kubernetes-list-type': 'set',
              items: { type: 'string', pattern: '^[^\\s,]+$' },
              description: 'Memcached servers as host:port, each once (no spaces or commas). Exactly one of servers and clusterRef.',
            },
            clusterRef: localRef(`A memcached cluster whose Service of that name in this namespace serves port ${String(MEMCACHED_PORT)}. Exactly one of servers and clusterRef.`),
            backend: { type: 'string', minLength: 1, default: DEFAULT_CACHE_BACKEND, description: `The oslo.cache backend; default ${DEFAULT_CACHE_BACKEND}.` },
          },
        },
        fernet: {
          type: 'object',
          default: {},
          description: 'The fernet keys that sign tokens, in Secret <name>-fernet-keys, rotated by Keyward with Keystone\'s algorithm.',
          properties: {
            rotationSchedule: { type: 'string', pattern: CRON_FIELD_PATTERN, default: DEFAULT_ROTATION_SCHEDULE, description: `Cron schedule of fernet key rotation in UTC, five fields or a macro such as @daily; default "${DEFAULT_ROTATION_SCHEDULE}", weekly at midnight on Sunday.` },
            maxActiveKeys: keyCount('Keys kept: the staged key, the primary and the secondaries'),
          },
        },
        credentialKeys: {
          type: 'object',
          default: {},
          description: 'The keys that encrypt the credentials Keystone stores (its credential API), in Secret <name>-credential-keys; created once, never rotated.',
          properties: {
            maxActiveKeys: keyCount('Credential encryption keys created'),
            rotationSchedule: { type: 'string', pattern: CRON_FIELD_PATTERN, description: 'Accepted as C5C3 writes it (a cron schedule) and not acted on: rotating these keys needs every stored credential re-encrypted, which Keyward does not do, so they are never rotated.' },
          },
        },
        bootstrap: {
          type: 'object',
          required: ['adminPasswordSecretRef'],
          description: 'keystone-manage bootstrap: the admin user, project and roles, the region and the identity endpoints. It runs again when the admin password changes, and for nothing else.',
          properties: {
            adminUser: { type: 'string', minLength: 1, default: 'admin', description: 'Name of the admin user; default admin.' },
            adminPasswordSecretRef: {
              ...localRef('Secret with the admin user\'s password; a new password runs bootstrap again.'),
              properties: { name: refName, key: { type: 'string', minLength: 1, default: 'password', description: 'Key of the password in that Secret; default password.' } },
            },
            region: { type: 'string', pattern: INI_NAME_PATTERN, default: 'RegionOne', description: 'Region of the identity endpoints (letters, digits, ".", "_" or "-"); default RegionOne.' },
            publicEndpoint: { type: 'string', pattern: '^https?://[^\\s]+$', description: 'Public URL of the identity API (http or https), registered as the public endpoint and set as public_endpoint in keystone.conf; default the in-cluster URL (status.endpoint).' },
          },
        },
        middleware: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-validations': [
            { rule: `self.all(m, !(m.name in ${JSON.stringify(BASE_FILTER_NAMES).replaceAll('"', "'")}))`, message: BASE_FILTER_MESSAGE },
            { rule: 'size(self) == 0', message: MIDDLEWARE_UNSUPPORTED },
          ],
          description: 'Refused unless empty: C5C3\'s WSGI filters for api-paste.ini, which Keystone never reads (it builds its pipeline in code), so a filter would do nothing.',
          items: {
            type: 'object',
            required: ['name', 'filterFactory', 'position'],
            properties: {
              name: iniName('Name of the filter in the pipeline and of its [filter:<name>] section; not the name of a base filter.'),
              filterFactory: iniName('The paste.filter_factory that makes the filter (letters, digits, ".", "_" or "-").'),
              position: { type: 'string', enum: [...POSITIONS], description: 'Whether the filter stands before or after filter (or the whole base pipeline).' },
              filter: { type: 'string', enum: [...BASE_FILTER_NAMES], description: 'The base filter to stand before or after; the whole base pipeline when absent.' },
              config: { ...iniSection, description: 'Further settings of the filter\'s section, key to one-line value; a paste.filter_factory here is ignored.' },
            },
          },
        },
        plugins: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          description: 'Keystone plugins configured through keystone.conf, each name once: each writes its config as one section; Keyward\'s own settings win over a plugin\'s.',
          items: {
            type: 'object',
            required: ['name', 'configSection'],
            properties: {
              name: iniName('Name of the plugin, unique in the list.'),
              configSection: iniName('The keystone.conf section its config goes into.'),
              config: { ...iniSection, default: {}, description: 'Settings of that section, key to one-line value; default none.' },
            },
          },
        },
        policyOverrides: {
          type: 'object',
          description: 'Policy rules over Keystone\'s defaults, written as policy.yaml: given here (rules) or read from a ConfigMap (configMapRef).',
          'x-kubernetes-validations': [{ rule: '(has(self.rules) && size(self.rules) > 0) || has(self.configMapRef)', message: POLICY_AT_LEAST_ONE }],
          properties: {
            rules: { type: 'object', additionalProperties: iniValue, description: 'Rule name to check string ("admin_required"), one line each; with configMapRef, these win over the ConfigMap\'s rules.' },
            configMapRef: localRef('A ConfigMap in this namespace whose policy.yaml (a map of rule to check string, not empty) holds rules; with rules, the inline rules win.'),
          },
        },
        extraConfig: { ...iniMap(iniSection), description: 'keystone.conf settings, section to key to one-line value, applied last: they win over plugins and over Keyward\'s own settings (the escape hatch).' },
        ...podSettingsSchema,
        trustFlush: trustFlushSchema,
        autoscaling: autoscalingSchema,
      },
    },
    status: {
      type: 'object',
      description: 'How far the Keystone has come, written by the controller.',
      properties: {
        observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation of the spec this status describes.' },
        conditions: {
          type: 'array',
          items: conditionSchema,
          description: `One condition per step (${STEP_CONDITIONS.join(', ')}) and ${CONDITION_READY}, True when every step is.`,
        },
        endpoint: { type: 'string', description: 'In-cluster URL of the Identity v3 API, http://<name>.<namespace>.svc.<cluster domain>:5000/v3, once the API pods are ready.' },
        configMapName: { type: 'string', description: 'Name of the immutable ConfigMap (keystone.conf, api-paste.ini, policy.yaml) the pods run with.' },
        bootstrapRunKey: { type: 'string', description: 'What bootstrap last completed with (a keyed hash of the admin password, which reveals nothing of it): the record that it ran, so a deleted bootstrap Job does not run it again.' },
        lastFernetRotation: { ...timestamp, description: 'When the fernet keys were last rotated (RFC 3339).' },
        nextFernetRotation: { ...timestamp, description: 'When the fernet keys are next rotated, from rotationSchedule (RFC 3339).' },
        installedRelease: { type: 'string', description: 'The OpenStack release (such as 2025.1) the database schema is at: recorded once db_sync has run with an image whose tag starts with a release.' },
        targetRelease: { type: 'string', description: 'While an upgrade runs: the release of the new image.' },
        upgradePhase: { type: 'string', enum: [...UPGRADE_PHASES], description: 'While an upgrade runs: Expanding (db_sync --expand), Migrating (--migrate), RollingUpdate (the pods move to the new image), Contracting (--contract).' },
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
