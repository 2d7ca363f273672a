import { API_PORT, CONFIG_DIR, CREDENTIAL_KEYS_DIR, FERNET_KEYS_DIR } from './api.js';
import { mergeSections, renderIni, type IniSections } from './ini.js';
import type { KeystoneSpec } from './spec.js';

export const MYSQL_PORT = 3306;
export const MEMCACHED_PORT = 11211;
export const POLICY_FILE = `${CONFIG_DIR}/policy.yaml`;
export const PASTE_FILE = `${CONFIG_DIR}/api-paste.ini`;

/** What keystone.conf is rendered from besides the spec. */
export interface ConfInputs {
  readonly namespace: string;
  /** The database user, from the database Secret (the password never goes into the file). */
  readonly dbUsername: string;
  readonly clusterDomain: string;
  /** Whether the ConfigMap carries a policy.yaml. */
  readonly hasPolicy: boolean;
}

/** host:port of the database: as given, or the MariaDB cluster's Service. */
export function databaseAddress(spec: KeystoneSpec, namespace: string, clusterDomain: string): { readonly host: string; readonly port: number } {
  const { database } = spec;
  if (database.host !== undefined) return { host: database.host, port: database.port ?? MYSQL_PORT };
  return { host: `${database.clusterRef?.name ?? ''}.${namespace}.svc.${clusterDomain}`, port: MYSQL_PORT };
}

/** A host for a URL: IPv6 literals in brackets. */
function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The SQLAlchemy URL of the database, with the password when one is given (only ever into a Secret). */
export function connectionUrl(spec: KeystoneSpec, inputs: Pick<ConfInputs, 'namespace' | 'dbUsername' | 'clusterDomain'>, password?: string): string {
  const { host, port } = databaseAddress(spec, inputs.namespace, inputs.clusterDomain);
  const user = encodeURIComponent(inputs.dbUsername);
  const credentials = password === undefined ? user : `${user}:${encodeURIComponent(password)}`;
  return `mysql+pymysql://${credentials}@${urlHost(host)}:${String(port)}/${encodeURIComponent(spec.database.database)}?charset=utf8mb4`;
}

/** The memcached servers: the spec's list, or the memcached cluster's Service. */
export function cacheServers(spec: KeystoneSpec, namespace: string, clusterDomain: string): string | undefined {
  const { cache } = spec;
  if (cache === undefined) return undefined;
  return cache.servers?.join(',') ?? `${cache.clusterRef?.name ?? ''}.${namespace}.svc.${clusterDomain}:${String(MEMCACHED_PORT)}`;
}

/** The sections Keyward owns: plugins cannot change them, extraConfig can (on purpose, as the escape hatch). */
export function operatorSections(spec: KeystoneSpec, inputs: ConfInputs): IniSections {
  const servers = cacheServers(spec, inputs.namespace, inputs.clusterDomain);
  const fernetKeys = String(spec.fernet.maxActiveKeys);
  return {
    DEFAULT: { use_stderr: 'true', ...(spec.bootstrap.publicEndpoint === undefined ? {} : { public_endpoint: spec.bootstrap.publicEndpoint }) },
    // The password comes from OS_DATABASE__CONNECTION, which overrides this value in every pod and Job.
    database: { connection: connectionUrl(spec, inputs), max_retries: '-1' },
    ...(servers === undefined || spec.cache === undefined ? {} : { cache: { enabled: 'true', backend: spec.cache.backend, memcache_servers: servers } }),
    token: { provider: 'fernet' },
    fernet_tokens: { key_repository: FERNET_KEYS_DIR, max_active_keys: fernetKeys },
    fernet_receipts: { key_repository: FERNET_KEYS_DIR, max_active_keys: fernetKeys },
    credential: { provider: 'fernet', key_repository: CREDENTIAL_KEYS_DIR },
    paste_deploy: { config_file: PASTE_FILE },
    ...(inputs.hasPolicy ? { oslo_policy: { policy_file: POLICY_FILE } } : {}),
  };
}

/** Each plugin's config as its section. */
export function pluginSections(spec: KeystoneSpec): IniSections {
  return (spec.plugins ?? []).reduce<IniSections>((acc, plugin) => mergeSections(acc, { [plugin.configSection]: plugin.config }), {});
}

/** keystone.conf: plugins, then Keyward's sections over them, then extraConfig over everything. */
export function keystoneConf(spec: KeystoneSpec, inputs: ConfInputs): string {
  return renderIni(mergeSections(mergeSections(pluginSections(spec), operatorSections(spec, inputs)), spec.extraConfig ?? {}));
}

/** The in-cluster Identity v3 URL of a Keystone's Service. */
export function internalEndpoint(crName: string, namespace: string, clusterDomain: string): string {
  return `http://${crName}.${namespace}.svc.${clusterDomain}:${String(API_PORT)}/v3`;
}
