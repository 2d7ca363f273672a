import * as t from 'io-ts';
import { integerInRange, kubernetesName, minLengthArray, minLengthString, oneOf, uniqueList, withDefault } from '@keyward/kernel/model';
import { type Condition } from '@keyward/kernel';
import { type StoredMeta } from '@keyward/kernel/plan';
import type { UpgradePhase } from './upgrade.js';
import { MIN_ACTIVE_KEYS } from './fernet.js';
import { BASE_FILTER_NAMES } from './paste.js';
import { cronSchedule, matching, refine } from './codec-helpers.js';
import { podSettingsCodecs } from './pod-settings.js';
import { AutoscalingCodec } from './autoscaling.js';
import { DEFAULT_TRUST_FLUSH, trustFlushCodec } from './trust-flush.js';

// The Keystone spec as a codec. crd.ts states the same rules as an OpenAPI schema with CEL, from the same
// constants, and an integration test checks both give the same verdicts on a real API server.

/** INI section and key names: nothing that could end a line or a section header. */
export const INI_NAME_PATTERN = '^[A-Za-z0-9_.-]+$';
/** INI values: one line each, or one value could add lines (and sections) of its own. */
export const INI_VALUE_PATTERN = '^[^\\r\\n]*$';
export const POSITIONS = ['before', 'after'] as const;

export const DEFAULT_ROTATION_SCHEDULE = '0 0 * * 0';
export const DEFAULT_CACHE_BACKEND = 'dogpile.cache.pymemcache';
export const MAX_ACTIVE_KEYS_LIMIT = 100;

export const DATABASE_ONE_OF = 'exactly one of host and clusterRef must be set';
export const CACHE_ONE_OF = 'exactly one of servers and clusterRef must be set';
export const POLICY_AT_LEAST_ONE = 'at least one of rules (not empty) and configMapRef must be set';
export const PORT_NEEDS_HOST = 'port is only used with host';
export const INI_NAMES_MESSAGE = 'names must be letters, digits, ".", "_" or "-"';

const iniName = matching(INI_NAME_PATTERN, 'a name of letters, digits, ".", "_" or "-"');
const iniValue = matching(INI_VALUE_PATTERN, 'a value without line breaks');

/** A map whose keys are INI names (the schema checks them with a CEL rule on the map, so both name the map). */
function iniMap<C extends t.Mixed>(values: C): t.Type<Record<string, t.TypeOf<C>>, Record<string, t.OutputOf<C>>> {
  const record = t.record(t.string, values);
  const regex = new RegExp(INI_NAME_PATTERN);
  return new t.Type<Record<string, t.TypeOf<C>>, Record<string, t.OutputOf<C>>>(
    record.name,
    (u): u is Record<string, t.TypeOf<C>> => record.is(u) && Object.keys(u).every((k) => regex.test(k)),
    (u, c) => {
      const decoded = record.validate(u, c);
      if (decoded._tag === 'Left' || Object.keys(decoded.right).every((k) => regex.test(k))) return decoded;
      return t.failure(u, c, INI_NAMES_MESSAGE);
    },
    record.encode,
  );
}

const exactlyOne = (a: unknown, b: unknown): boolean => (a === undefined) !== (b === undefined);

const LocalRef = t.type({ name: kubernetesName() });

/**
 * An image reference's parts as the container runtimes parse them: an optional registry host (with a port),
 * then lowercase path components separated by "/"; a tag of at most 128 word characters, "." and "-".
 */
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const HOST_COMPONENT = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
export const IMAGE_REPOSITORY_PATTERN = `^(?:${HOST_COMPONENT}(?:\\.${HOST_COMPONENT})*(?::[0-9]+)?/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*$`;
export const IMAGE_TAG_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$';

const ImageCodec = t.type({
  repository: matching(IMAGE_REPOSITORY_PATTERN, 'an image repository (registry/path, lowercase)'),
  tag: matching(IMAGE_TAG_PATTERN, 'an image tag (letters, digits, "_", "." and "-", at most 128)'),
});

/** C5C3's Secret reference: a name, and here the key of the database password (default `password`). */
const DatabaseSecretRef = t.intersection([LocalRef, t.partial({ key: minLengthString(1) })]);

const DatabaseCodec = refine(
  t.intersection([
    t.type({ database: withDefault(minLengthString(1), 'keystone'), secretRef: DatabaseSecretRef }),
    t.partial({ host: minLengthString(1), port: integerInRange(1, 65_535), clusterRef: LocalRef }),
  ]),
  (db) => (!exactlyOne(db.host, db.clusterRef) ? DATABASE_ONE_OF : db.port !== undefined && db.host === undefined ? PORT_NEEDS_HOST : undefined),
);

const CacheCodec = refine(
  t.intersection([
    t.type({ backend: withDefault(minLengthString(1), DEFAULT_CACHE_BACKEND) }),
    t.partial({ servers: uniqueList(minLengthArray(matching('^[^\\s,]+$', 'a server (host:port, no spaces or commas)'), 1)), clusterRef: LocalRef }),
  ]),
  (cache) => (exactlyOne(cache.servers, cache.clusterRef) ? undefined : CACHE_ONE_OF),
);

const keyCount = integerInRange(MIN_ACTIVE_KEYS, MAX_ACTIVE_KEYS_LIMIT);

const FernetCodec = t.type({ rotationSchedule: withDefault(cronSchedule, DEFAULT_ROTATION_SCHEDULE), maxActiveKeys: withDefault(keyCount, MIN_ACTIVE_KEYS) });
// rotationSchedule is C5C3's field, accepted and not acted on: see docs/keystone-service.md.
const CredentialKeysCodec = t.intersection([t.type({ maxActiveKeys: withDefault(keyCount, MIN_ACTIVE_KEYS) }), t.partial({ rotationSchedule: cronSchedule })]);

const BootstrapCodec = t.intersection([
  t.type({
    adminUser: withDefault(minLengthString(1), 'admin'),
    adminPasswordSecretRef: t.intersection([LocalRef, t.type({ key: withDefault(minLengthString(1), 'password') })]),
    region: withDefault(iniName, 'RegionOne'),
  }),
  t.partial({ publicEndpoint: matching('^https?://[^\\s]+$', 'an http(s) URL') }),
]);

const iniSection = iniMap(iniValue);

const MiddlewareCodec = t.intersection([
  t.type({ name: iniName, filterFactory: iniName, position: oneOf(POSITIONS) }),
  t.partial({ filter: oneOf(BASE_FILTER_NAMES), config: iniSection }),
]);

export const BASE_FILTER_MESSAGE = 'a middleware cannot have the name of a filter of the base pipeline';
/**
 * Keystone builds its WSGI pipeline in code (keystone.server.flask) and never reads api-paste.ini, so a filter
 * listed here would silently do nothing: the field is refused until Keystone can load one.
 */
export const MIDDLEWARE_UNSUPPORTED = "middleware is not supported: Keystone builds its WSGI pipeline in code and never reads api-paste.ini, so a filter here would do nothing; leave the list empty";

const middlewareList = refine(
  uniqueList(t.array(MiddlewareCodec), (m) => m.name),
  (list) => (list.some((m) => (BASE_FILTER_NAMES as readonly string[]).includes(m.name)) ? BASE_FILTER_MESSAGE : list.length > 0 ? MIDDLEWARE_UNSUPPORTED : undefined),
);

const PluginCodec = t.type({ name: iniName, configSection: iniName, config: withDefault(iniSection, {}) });

// Both may be given, as in C5C3: the inline rules win over the ConfigMap's.
const PolicyCodec = refine(t.partial({ rules: t.record(t.string, iniValue), configMapRef: LocalRef }), (p) =>
  Object.keys(p.rules ?? {}).length > 0 || p.configMapRef !== undefined ? undefined : POLICY_AT_LEAST_ONE);

export const KeystoneSpecCodec = t.intersection([
  t.type({
    replicas: withDefault(integerInRange(1, 1_000), 3),
    image: ImageCodec,
    database: DatabaseCodec,
    fernet: withDefault(FernetCodec, { rotationSchedule: DEFAULT_ROTATION_SCHEDULE, maxActiveKeys: MIN_ACTIVE_KEYS }),
    credentialKeys: withDefault(CredentialKeysCodec, { maxActiveKeys: MIN_ACTIVE_KEYS }),
    bootstrap: BootstrapCodec,
  }),
  t.partial({
    cache: CacheCodec,
    middleware: middlewareList,
    plugins: uniqueList(t.array(PluginCodec), (p) => p.name),
    policyOverrides: PolicyCodec,
    extraConfig: iniMap(iniSection),
    ...podSettingsCodecs,
    autoscaling: AutoscalingCodec,
  }),
  t.type({ trustFlush: withDefault(trustFlushCodec, DEFAULT_TRUST_FLUSH) }),
]);

export type KeystoneSpec = t.TypeOf<typeof KeystoneSpecCodec>;
export type MiddlewareSpec = t.TypeOf<typeof MiddlewareCodec>;
export type PluginSpec = t.TypeOf<typeof PluginCodec>;
export type DatabaseSpec = t.TypeOf<typeof DatabaseCodec>;
export type CacheSpec = t.TypeOf<typeof CacheCodec>;

/** Status as we write it; every field optional, so any stored status decodes. */
// A type, not an interface: plain JSON data that goes into plan templates as is.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type KeystoneStatus = {
  readonly observedGeneration?: number;
  readonly conditions?: readonly Condition[];
  /** The in-cluster Identity v3 URL, once the Deployment is ready. */
  readonly endpoint?: string;
  /** The rendered configuration the pods run with. */
  readonly configMapName?: string;
  /** The run key bootstrap last completed with (a keyed hash of the admin password): the record that it ran. */
  readonly bootstrapRunKey?: string;
  readonly lastFernetRotation?: string;
  readonly nextFernetRotation?: string;
  /** The OpenStack release the database schema is at, once an image whose tag starts with one has run db_sync. */
  readonly installedRelease?: string;
  /** While an upgrade runs: the release it goes to, and its phase. */
  readonly targetRelease?: string;
  readonly upgradePhase?: UpgradePhase;
};

export interface Keystone {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: StoredMeta;
  readonly spec: KeystoneSpec;
  readonly status: KeystoneStatus;
  readonly [field: string]: unknown;
}
