import { afterEach, describe, expect, it } from '@jest/globals';
import { defaultKeycloakConfig } from '@keyward/keycloak';
import { defaultAppCredConfig } from '@keyward/keystone-appcred';
import { defaultKeystoneServiceConfig } from '@keyward/keystone-service';
import { parsePlanConfig, parseRunConfig, type OperatorConfig, type PlanConfig } from '../src/config.js';
import { moduleConfig, moduleNamed } from '../src/controllers.js';

/** The configuration, failing the test with the parser's message when there is none. */
function runConfig(argv: readonly string[], env: Record<string, string> = {}, facts = {}): OperatorConfig {
  const result = parseRunConfig(argv, env, facts);
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

function planConfig(argv: readonly string[], env: Record<string, string> = {}): PlanConfig {
  const result = parsePlanConfig(argv, env);
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

function runError(argv: readonly string[], env: Record<string, string> = {}): string {
  const result = parseRunConfig(argv, env);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.config)}`);
  return result.error;
}

function planError(argv: readonly string[], env: Record<string, string> = {}): string {
  const result = parsePlanConfig(argv, env);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.config)}`);
  return result.error;
}

describe('parseRunConfig', () => {
  afterEach(() => {
    delete process.env['KEYWARD_CONCURRENCY'];
  });

  it('has documented defaults', () => {
    expect(runConfig([])).toEqual({
      controllers: ['keystone-appcred', 'apikey-enforcement', 'keycloak-realm', 'keycloak-client', 'keystone-service'],
      kubeconfig: undefined,
      context: undefined,
      kubeApiQps: 20,
      kubeApiBurst: 30,
      keycloakNamespaceRate: 5,
      keycloakNamespaceBurst: 10,
      keycloakGlobalRate: 50,
      keycloakGlobalBurst: 100,
      keycloakTokenRate: 2,
      keycloakTokenBurst: 5,
      keystoneUrl: undefined,
      enforcementNamespace: 'kuadrant',
      keycloakUrl: undefined,
      keycloakAdminSecret: undefined,
      keycloakOperatorNamespace: 'keyward-system',
      keycloakAdoptUnowned: false,
      keycloakAdoptUnownedNamespaces: [],
      keycloakAllowedServiceAccountRoles: [],
      keycloakNamespaceConcurrency: 2,
      keycloakResyncPeriod: 600_000,
      keycloakAllowJsPolicies: false,
      clusterDomain: 'cluster.local',
      namespaces: 'all',
      leaderElection: { enabled: true, leaseName: 'keyward-leader', leaseNamespace: 'default', leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
      sharding: false,
      metricsBindAddress: { host: '127.0.0.1', port: 8080 },
      metricsSecure: true,
      metricsCertFile: undefined,
      metricsKeyFile: undefined,
      healthBindAddress: { host: '127.0.0.1', port: 8081 },
      concurrency: { 'keystone-appcred': 4, 'apikey-enforcement': 4, 'keycloak-realm': 4, 'keycloak-client': 4, 'keystone-service': 4 },
      maxRetryDelay: 300_000,
      shutdownTimeout: 20_000,
      revokeOnDelete: false,
      log: { level: 'info', format: 'json' },
    });
  });

  it('shares the objects out with --sharding or KEYWARD_SHARDING, with the timings of every Lease', () => {
    expect(runConfig(['--sharding', '--lease-duration', '4s', '--renew-deadline', '3s', '--retry-period', '1s']).sharding).toBe(true);
    expect(runConfig([], { KEYWARD_SHARDING: 'true' }).sharding).toBe(true);
    expect(runConfig(['--lease-duration', '4s', '--renew-deadline', '3s', '--retry-period', '1s']).leaderElection).toMatchObject({ leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 1_000 });
  });

  it('defaults the lease namespace to the pod\'s and the log format to text on a terminal', () => {
    const config = runConfig([], {}, { serviceAccountNamespace: 'keyward-system', stdoutIsTty: true });
    expect(config.leaderElection.leaseNamespace).toBe('keyward-system');
    expect(config.log.format).toBe('text');
    expect(runConfig(['--log-format', 'json'], {}, { stdoutIsTty: true }).log.format).toBe('json');
    expect(runConfig([], { KEYWARD_LOG_FORMAT: 'json' }, { stdoutIsTty: true }).log.format).toBe('json');
  });

  it('reads every option from its flag and from its environment variable', () => {
    const flags = runConfig([
      '--controllers', 'apikey-enforcement',
      '--kubeconfig', 'cluster.yaml',
      '--context', 'staging',
      '--kube-api-qps', '50',
      '--kube-api-burst', '80',
      '--keycloak-namespace-rate', '2.5',
      '--keycloak-namespace-burst', '4',
      '--keycloak-global-rate', '10',
      '--keycloak-global-burst', '20',
      '--keycloak-token-rate', '1',
      '--keycloak-token-burst', '3',
      '--keystone-url', 'https://keystone.example:5000/v3',
      '--enforcement-namespace', 'authorino',
      '--keycloak-url', 'https://keycloak.example:8443',
      '--keycloak-admin-secret', 'keycloak/admin',
      '--keycloak-operator-namespace', 'identity',
      '--keycloak-adopt-unowned-namespaces', 'team-a, team-b/shop',
      '--keycloak-namespace-concurrency', '3',
      '--keycloak-allowed-service-account-roles', 'realm-management/manage-users, admin',
      '--keycloak-resync-period', '1h',
      '--keystone-cluster-domain', 'cluster.example',
      '--namespaces', 'team-a,team-b',
      '--no-leader-elect',
      '--lease-name', 'leader',
      '--lease-namespace', 'ops',
      '--lease-duration', '30s',
      '--renew-deadline', '20s',
      '--retry-period', '5s',
      '--metrics-bind-address', '127.0.0.1:9090',
      '--no-metrics-secure',
      '--metrics-cert-file', 'tls.crt',
      '--metrics-key-file', 'tls.key',
      '--health-bind-address', '0',
      '--concurrency', '2',
      '--max-retry-delay', '1m30s',
      '--shutdown-timeout', '10s',
      '--revoke-on-delete',
      '--log-level', 'debug',
      '--log-format', 'text',
    ]);
    const env = runConfig([], {
      KEYWARD_CONTROLLERS: 'apikey-enforcement',
      KUBECONFIG: 'cluster.yaml',
      KEYWARD_KEYSTONE_URL: 'https://keystone.example:5000/v3',
      KEYWARD_ENFORCEMENT_NAMESPACE: 'authorino',
      KEYWARD_NAMESPACES: 'team-a,team-b',
      KEYWARD_LEADER_ELECT: 'false',
      KEYWARD_LEASE_NAME: 'leader',
      KEYWARD_LEASE_NAMESPACE: 'ops',
      KEYWARD_LEASE_DURATION: '30s',
      KEYWARD_RENEW_DEADLINE: '20s',
      KEYWARD_RETRY_PERIOD: '5s',
      KEYWARD_METRICS_BIND_ADDRESS: '127.0.0.1:9090',
      KEYWARD_METRICS_SECURE: 'false',
      KEYWARD_METRICS_CERT_FILE: 'tls.crt',
      KEYWARD_METRICS_KEY_FILE: 'tls.key',
      KEYWARD_HEALTH_BIND_ADDRESS: '0',
      KEYWARD_CONCURRENCY: '2',
      KEYWARD_MAX_RETRY_DELAY: '1m30s',
      KEYWARD_SHUTDOWN_TIMEOUT: '10s',
      KEYWARD_REVOKE_ON_DELETE: 'true',
      KEYWARD_LOG_LEVEL: 'debug',
      KEYWARD_LOG_FORMAT: 'text',
      KEYWARD_KUBE_CONTEXT: 'staging',
      KEYWARD_KUBE_API_QPS: '50',
      KEYWARD_KUBE_API_BURST: '80',
      KEYWARD_KEYCLOAK_NAMESPACE_RATE: '2.5',
      KEYWARD_KEYCLOAK_NAMESPACE_BURST: '4',
      KEYWARD_KEYCLOAK_GLOBAL_RATE: '10',
      KEYWARD_KEYCLOAK_GLOBAL_BURST: '20',
      KEYWARD_KEYCLOAK_TOKEN_RATE: '1',
      KEYWARD_KEYCLOAK_TOKEN_BURST: '3',
      KEYWARD_KEYCLOAK_URL: 'https://keycloak.example:8443',
      KEYWARD_KEYCLOAK_ADMIN_SECRET: 'keycloak/admin',
      KEYWARD_KEYCLOAK_OPERATOR_NAMESPACE: 'identity',
      KEYWARD_KEYCLOAK_ADOPT_UNOWNED_NAMESPACES: 'team-a,team-b/shop',
      KEYWARD_KEYCLOAK_NAMESPACE_CONCURRENCY: '3',
      KEYWARD_KEYCLOAK_ALLOWED_SERVICE_ACCOUNT_ROLES: 'realm-management/manage-users,admin',
      KEYWARD_KEYCLOAK_RESYNC_PERIOD: '1h',
      KEYWARD_KEYSTONE_CLUSTER_DOMAIN: 'cluster.example',
    });
    const expected: OperatorConfig = {
      controllers: ['apikey-enforcement'],
      kubeconfig: 'cluster.yaml',
      context: 'staging',
      kubeApiQps: 50,
      kubeApiBurst: 80,
      keycloakNamespaceRate: 2.5,
      keycloakNamespaceBurst: 4,
      keycloakGlobalRate: 10,
      keycloakGlobalBurst: 20,
      keycloakTokenRate: 1,
      keycloakTokenBurst: 3,
      keystoneUrl: 'https://keystone.example:5000/v3',
      enforcementNamespace: 'authorino',
      keycloakUrl: 'https://keycloak.example:8443',
      keycloakAdminSecret: { namespace: 'keycloak', name: 'admin' },
      keycloakOperatorNamespace: 'identity',
      keycloakAdoptUnowned: false,
      keycloakAdoptUnownedNamespaces: ['team-a', 'team-b/shop'],
      keycloakNamespaceConcurrency: 3,
      keycloakAllowedServiceAccountRoles: ['realm-management/manage-users', 'admin'],
      keycloakResyncPeriod: 3_600_000,
      keycloakAllowJsPolicies: false,
      clusterDomain: 'cluster.example',
      namespaces: ['team-a', 'team-b'],
      leaderElection: { enabled: false, leaseName: 'leader', leaseNamespace: 'ops', leaseDurationMs: 30_000, renewDeadlineMs: 20_000, retryPeriodMs: 5_000 },
      sharding: false,
      metricsBindAddress: { host: '127.0.0.1', port: 9090 },
      metricsSecure: false,
      metricsCertFile: 'tls.crt',
      metricsKeyFile: 'tls.key',
      healthBindAddress: 'disabled',
      concurrency: { 'keystone-appcred': 2, 'apikey-enforcement': 2, 'keycloak-realm': 2, 'keycloak-client': 2, 'keystone-service': 2 },
      maxRetryDelay: 90_000,
      shutdownTimeout: 10_000,
      revokeOnDelete: true,
      log: { level: 'debug', format: 'text' },
    };
    expect(flags).toEqual(expected);
    expect(env).toEqual(expected);
  });

  it('refuses a metrics certificate without its key, and a key without its certificate', () => {
    for (const argv of [['--metrics-cert-file', 'tls.crt'], ['--metrics-key-file', 'tls.key']]) {
      expect(parseRunConfig(argv, {})).toEqual({ ok: false, error: '--metrics-cert-file and --metrics-key-file go together: give both, or neither for a self-signed certificate' });
    }
  });

  it('lets flags override environment variables', () => {
    const env = { KEYWARD_CONCURRENCY: '2', KEYWARD_LEADER_ELECT: 'false', KEYWARD_REVOKE_ON_DELETE: 'true', KEYWARD_LOG_LEVEL: 'debug' };
    const config = runConfig(['--concurrency', '6', '--leader-elect', '--no-revoke-on-delete', '--log-level', 'warn'], env);
    expect(config.concurrency).toEqual({ 'keystone-appcred': 6, 'apikey-enforcement': 6, 'keycloak-realm': 6, 'keycloak-client': 6, 'keystone-service': 6 });
    expect(config.leaderElection.enabled).toBe(true);
    expect(config['revokeOnDelete']).toBe(false);
    expect(config.log.level).toBe('warn');
  });

  it('treats an empty environment variable as unset', () => {
    expect(runConfig([], { KEYWARD_KEYSTONE_URL: '', KEYWARD_CONTROLLERS: '', KEYWARD_CONCURRENCY: '' })).toMatchObject({
      keystoneUrl: undefined,
      controllers: ['keystone-appcred', 'apikey-enforcement', 'keycloak-realm', 'keycloak-client', 'keystone-service'],
      concurrency: { 'keystone-appcred': 4, 'apikey-enforcement': 4, 'keycloak-realm': 4, 'keycloak-client': 4, 'keystone-service': 4 },
    });
  });

  it('bounds the retry delay and names the flag when it is out of range', () => {
    expect(parseRunConfig(['--max-retry-delay', '500ms'], {})).toEqual({ ok: false, error: 'invalid --max-retry-delay (KEYWARD_MAX_RETRY_DELAY): "500ms" is not between 1s and 1d' });
    expect(parseRunConfig(['--max-retry-delay', 'soon'], {})).toEqual({ ok: false, error: 'invalid --max-retry-delay (KEYWARD_MAX_RETRY_DELAY): "soon" is not a duration such as 30s, 5m or 1h' });
  });

  it('reads nothing from the process environment', () => {
    process.env['KEYWARD_CONCURRENCY'] = '7';
    expect(runConfig([]).concurrency['keystone-appcred']).toBe(4);
  });

  it('returns a deeply frozen configuration', () => {
    const config = runConfig(['--namespaces', 'a,b']);
    for (const part of [config, config.controllers, config.namespaces, config.leaderElection, config.concurrency, config.log, config.metricsBindAddress]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
  });

  it('takes controllers as a comma list, deduplicated, in a stable order', () => {
    expect(runConfig(['--controllers', ' apikey-enforcement , keystone-appcred,apikey-enforcement']).controllers).toEqual(['keystone-appcred', 'apikey-enforcement']);
  });

  it('takes one concurrency for every controller or controller=n pairs', () => {
    expect(runConfig(['--concurrency', 'keystone-appcred=2,apikey-enforcement=8']).concurrency).toEqual({ 'keystone-appcred': 2, 'apikey-enforcement': 8, 'keycloak-realm': 4, 'keycloak-client': 4, 'keystone-service': 4 });
    expect(runConfig(['--concurrency', 'apikey-enforcement=8']).concurrency).toEqual({ 'keystone-appcred': 4, 'apikey-enforcement': 8, 'keycloak-realm': 4, 'keycloak-client': 4, 'keystone-service': 4 });
    expect(runConfig(['--concurrency', '2,apikey-enforcement=8']).concurrency).toEqual({ 'keystone-appcred': 2, 'apikey-enforcement': 8, 'keycloak-realm': 2, 'keycloak-client': 2, 'keystone-service': 2 });
    expect(runConfig(['--concurrency', 'keycloak-realm=1,keycloak-client=3']).concurrency).toEqual({ 'keystone-appcred': 4, 'apikey-enforcement': 4, 'keycloak-realm': 1, 'keycloak-client': 3, 'keystone-service': 4 });
  });

  it('takes namespaces as a deduplicated list, empty for all', () => {
    expect(runConfig(['--namespaces', 'b, a,b']).namespaces).toEqual(['b', 'a']);
    expect(runConfig(['--namespaces', ''], { KEYWARD_NAMESPACES: 'a' }).namespaces).toBe('all');
  });

  it.each([
    [':9090', { host: undefined, port: 9090 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
    ['[::1]:9090', { host: '::1', port: 9090 }],
    // The Deployment's "[$(POD_IP)]:port", which serves IPv4 and IPv6 pod addresses alike.
    ['[10.1.2.3]:8081', { host: '10.1.2.3', port: 8081 }],
    ['[fd00::7]:8081', { host: 'fd00::7', port: 8081 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['0', 'disabled'],
  ])('reads bind address %s', (address, expected) => {
    expect(runConfig(['--metrics-bind-address', address]).metricsBindAddress).toEqual(expected);
  });

  it.each([
    [['--concurrency', '0'], {}, 'invalid --concurrency (KEYWARD_CONCURRENCY): "0" is not an integer >= 1'],
    [[], { KEYWARD_CONCURRENCY: '1.5' }, 'invalid --concurrency (KEYWARD_CONCURRENCY): "1.5" is not an integer >= 1'],
    [['--concurrency', 'keystone-appcred=0'], {}, 'invalid --concurrency (KEYWARD_CONCURRENCY): "keystone-appcred=0" sets keystone-appcred to "0", which is not an integer >= 1'],
    [['--concurrency', 'vault=2'], {}, 'invalid --concurrency (KEYWARD_CONCURRENCY): "vault=2" names unknown controller "vault" (valid: keystone-appcred, apikey-enforcement, keycloak-realm, keycloak-client, keystone-service)'],
    [['--concurrency', 'keystone-appcred=1,keystone-appcred=2'], {}, 'invalid --concurrency (KEYWARD_CONCURRENCY): "keystone-appcred=1,keystone-appcred=2" sets keystone-appcred twice'],
    [['--concurrency', ','], {}, 'invalid --concurrency (KEYWARD_CONCURRENCY): "," is not an integer >= 1 or a list of controller=n'],
    [[], { KEYWARD_CONTROLLERS: 'keystone-appcred,vault' }, 'invalid --controllers (KEYWARD_CONTROLLERS): "keystone-appcred,vault" names unknown controller "vault" (valid: keystone-appcred, apikey-enforcement, keycloak-realm, keycloak-client, keystone-service)'],
    [['--controllers', ','], {}, 'invalid --controllers (KEYWARD_CONTROLLERS): "," names no controller (valid: keystone-appcred, apikey-enforcement, keycloak-realm, keycloak-client, keystone-service)'],
    [['--namespaces', 'team-a,Team_B'], {}, 'invalid --namespaces (KEYWARD_NAMESPACES): "team-a,Team_B" has "Team_B", which is not a namespace name (a DNS-1123 label)'],
    [['--keystone-url', 'keystone:5000'], {}, 'invalid --keystone-url (KEYWARD_KEYSTONE_URL): "keystone:5000" is not an http(s) URL'],
    [[], { KEYWARD_KEYSTONE_URL: 'ftp://keystone' }, 'invalid --keystone-url (KEYWARD_KEYSTONE_URL): "ftp://keystone" is not an http(s) URL'],
    [['--enforcement-namespace', 'Kuadrant'], {}, 'invalid --enforcement-namespace (KEYWARD_ENFORCEMENT_NAMESPACE): "Kuadrant" is not a DNS-1123 label (lowercase letters, digits and "-", at most 63)'],
    [[], { KEYWARD_LEADER_ELECT: 'yes' }, 'invalid --leader-elect (KEYWARD_LEADER_ELECT): "yes" is not true or false'],
    [[], { KEYWARD_REVOKE_ON_DELETE: '1' }, 'invalid --revoke-on-delete (KEYWARD_REVOKE_ON_DELETE): "1" is not true or false'],
    [['--lease-namespace', 'a.b'], {}, 'invalid --lease-namespace (KEYWARD_LEASE_NAMESPACE): "a.b" is not a DNS-1123 label (lowercase letters, digits and "-", at most 63)'],
    [['--renew-deadline', '15s'], {}, '--renew-deadline must be shorter than --lease-duration: a replica stops before another may take over'],
    [[], { KEYWARD_RETRY_PERIOD: '10s' }, '--retry-period must be shorter than --renew-deadline: a Lease is renewed several times before the deadline'],
    [['--sharding', '--no-leader-elect'], {}, '--sharding holds a Lease per replica and reconciles its share of the objects; it does not go with --no-leader-elect'],
    [['--lease-name', 'Leader'], {}, 'invalid --lease-name (KEYWARD_LEASE_NAME): "Leader" is not a DNS-1123 subdomain (an object name)'],
    [['--health-bind-address', '8081'], {}, 'invalid --health-bind-address (KEYWARD_HEALTH_BIND_ADDRESS): "8081" is not [host]:port, or "0" to disable'],
    [[], { KEYWARD_METRICS_BIND_ADDRESS: ':65536' }, 'invalid --metrics-bind-address (KEYWARD_METRICS_BIND_ADDRESS): ":65536" is not [host]:port, or "0" to disable'],
    [['--log-level', 'trace'], {}, 'invalid --log-level (KEYWARD_LOG_LEVEL): "trace" is not one of error, warn, info, debug'],
    [[], { KEYWARD_LOG_FORMAT: 'yaml' }, 'invalid --log-format (KEYWARD_LOG_FORMAT): "yaml" is not one of json, text'],
    [['--keycloak-adopt-unowned'], {}, 'invalid --keycloak-adopt-unowned (KEYWARD_KEYCLOAK_ADOPT_UNOWNED): "true" is no longer taken: adoption is not operator-wide; name the namespaces (or namespace/realm) that may adopt with --keycloak-adopt-unowned-namespaces'],
    [[], { KEYWARD_KEYCLOAK_ADOPT_UNOWNED: 'true' }, 'invalid --keycloak-adopt-unowned (KEYWARD_KEYCLOAK_ADOPT_UNOWNED): "true" is no longer taken: adoption is not operator-wide; name the namespaces (or namespace/realm) that may adopt with --keycloak-adopt-unowned-namespaces'],
    [['--keycloak-adopt-unowned-namespaces', 'team-a,team-b/shop/x'], {}, 'invalid --keycloak-adopt-unowned-namespaces (KEYWARD_KEYCLOAK_ADOPT_UNOWNED_NAMESPACES): "team-a,team-b/shop/x" has "team-b/shop/x", which is not namespace or namespace/realm'],
  ])('rejects %j with %j in one line naming the flag, the variable and the value', (argv, env, message) => {
    expect(runError(argv, env)).toBe(message);
  });

  it('reports the flag\'s value when both flag and variable are invalid', () => {
    expect(runError(['--concurrency', '-1'], { KEYWARD_CONCURRENCY: '0' })).toBe('invalid --concurrency (KEYWARD_CONCURRENCY): "-1" is not an integer >= 1');
  });

  it('rejects unknown options, missing values and arguments', () => {
    expect(runError(['--concurency', '2'])).toBe("unknown option '--concurency' (Did you mean --concurrency?)");
    expect(runError(['--concurrency'])).toBe("option '--concurrency <n>' argument missing");
    expect(runError(['extra'])).toBe('too many arguments. Expected 0 arguments but got 1.');
  });
});

describe('parsePlanConfig', () => {
  it('has documented defaults', () => {
    expect(planConfig([])).toEqual({
      namespace: undefined,
      allNamespaces: false,
      name: undefined,
      filename: undefined,
      output: 'text',
      exitCode: false,
      operatorNamespace: 'keyward-system',
      controllers: ['keystone-appcred', 'apikey-enforcement', 'keycloak-realm', 'keycloak-client', 'keystone-service'],
      kubeconfig: undefined,
      context: undefined,
      kubeApiQps: 20,
      kubeApiBurst: 30,
      keycloakNamespaceRate: 5,
      keycloakNamespaceBurst: 10,
      keycloakGlobalRate: 50,
      keycloakGlobalBurst: 100,
      keycloakTokenRate: 2,
      keycloakTokenBurst: 5,
      keystoneUrl: undefined,
      enforcementNamespace: 'kuadrant',
      keycloakUrl: undefined,
      keycloakAdminSecret: undefined,
      keycloakOperatorNamespace: 'keyward-system',
      keycloakAdoptUnowned: false,
      keycloakAdoptUnownedNamespaces: [],
      keycloakAllowedServiceAccountRoles: [],
      keycloakNamespaceConcurrency: 2,
      keycloakResyncPeriod: 600_000,
      keycloakAllowJsPolicies: false,
      clusterDomain: 'cluster.local',
      revokeOnDelete: false,
      explicitSettings: [],
    });
  });

  it('reads its own options, the shared connection options and the controllers\' options', () => {
    const config = planConfig(
      ['-n', 'team-a', '--name', 'key.one', '-f', 'keys.yaml', '-o', 'json', '--exit-code', '--controllers', 'apikey-enforcement', '--keycloak-url', 'http://keycloak:8080'],
      {
        KUBECONFIG: 'cluster.yaml',
        KEYWARD_KEYSTONE_URL: 'http://keystone:5000',
        KEYWARD_ENFORCEMENT_NAMESPACE: 'authorino',
        KEYWARD_CONTROLLERS: 'keystone-appcred',
        KEYWARD_REVOKE_ON_DELETE: 'true',
        KEYWARD_KEYCLOAK_ADMIN_SECRET: 'keycloak/admin',
      },
    );
    expect(config).toEqual({
      namespace: 'team-a',
      allNamespaces: false,
      name: 'key.one',
      filename: 'keys.yaml',
      output: 'json',
      exitCode: true,
      operatorNamespace: 'keyward-system',
      controllers: ['apikey-enforcement'],
      kubeconfig: 'cluster.yaml',
      context: undefined,
      kubeApiQps: 20,
      kubeApiBurst: 30,
      keycloakNamespaceRate: 5,
      keycloakNamespaceBurst: 10,
      keycloakGlobalRate: 50,
      keycloakGlobalBurst: 100,
      keycloakTokenRate: 2,
      keycloakTokenBurst: 5,
      keystoneUrl: 'http://keystone:5000',
      enforcementNamespace: 'authorino',
      keycloakUrl: 'http://keycloak:8080',
      keycloakAdminSecret: { namespace: 'keycloak', name: 'admin' },
      keycloakOperatorNamespace: 'keyward-system',
      keycloakAdoptUnowned: false,
      keycloakAdoptUnownedNamespaces: [],
      keycloakAllowedServiceAccountRoles: [],
      keycloakNamespaceConcurrency: 2,
      keycloakResyncPeriod: 600_000,
      keycloakAllowJsPolicies: false,
      clusterDomain: 'cluster.local',
      revokeOnDelete: true,
      // Given by flag or variable, so the running operator's settings do not override them.
      explicitSettings: ['keystoneUrl', 'revokeOnDelete', 'enforcementNamespace', 'keycloakUrl', 'keycloakAdminSecret'],
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.controllers)).toBe(true);
  });

  it('plans the objects of the controllers --controllers selects, the same names run takes; --kind is gone', () => {
    expect(planConfig(['--controllers', 'apikey-enforcement']).controllers).toEqual(['apikey-enforcement']);
    expect(planConfig(['--controllers', 'apikey-enforcement,keystone-appcred']).controllers).toEqual(['keystone-appcred', 'apikey-enforcement']);
    expect(planConfig([], { KEYWARD_CONTROLLERS: 'keystone-appcred' }).controllers).toEqual(['keystone-appcred']);
    for (const controllers of ['apikey-enforcement', 'keystone-appcred,apikey-enforcement']) {
      expect(planConfig(['--controllers', controllers]).controllers).toEqual(runConfig(['--controllers', controllers]).controllers);
    }
    expect(planError(['--kind', 'apikey'])).toBe("unknown option '--kind'");
  });

  it('rejects invalid values in the same style, without a variable for plan-only options', () => {
    expect(planError(['--controllers', 'apikey,appcred'])).toBe('invalid --controllers (KEYWARD_CONTROLLERS): "apikey,appcred" names unknown controller "apikey" (valid: keystone-appcred, apikey-enforcement, keycloak-realm, keycloak-client, keystone-service)');
    expect(planError(['-o', 'xml'])).toBe('invalid --output: "xml" is not one of text, json, yaml');
    expect(planError(['--namespace', 'Team'])).toBe('invalid --namespace: "Team" is not a DNS-1123 label (lowercase letters, digits and "-", at most 63)');
    expect(planError(['--name', 'a/b'])).toBe('invalid --name: "a/b" is not a DNS-1123 subdomain (an object name)');
    expect(planError([], { KEYWARD_CONTROLLERS: 'vault' })).toBe('invalid --controllers (KEYWARD_CONTROLLERS): "vault" names unknown controller "vault" (valid: keystone-appcred, apikey-enforcement, keycloak-realm, keycloak-client, keystone-service)');
    expect(planError([], { KEYWARD_REVOKE_ON_DELETE: '1' })).toBe('invalid --revoke-on-delete (KEYWARD_REVOKE_ON_DELETE): "1" is not true or false');
    expect(planError(['--leader-elect'])).toBe("unknown option '--leader-elect'");
  });

  it('selects namespaces as kubectl does: -n takes a value, none means the context\'s, -A means all', () => {
    // Before, no -n meant every namespace; the context's namespace is now resolved where the kubeconfig is read.
    expect(planConfig([])).toMatchObject({ namespace: undefined, allNamespaces: false });
    expect(planConfig(['-n', 'team-a'])).toMatchObject({ namespace: 'team-a', allNamespaces: false });
    expect(planConfig(['--namespace=team-a'])).toMatchObject({ namespace: 'team-a', allNamespaces: false });
    expect(planConfig(['-A'])).toMatchObject({ namespace: undefined, allNamespaces: true });
    expect(planConfig(['--all-namespaces'])).toMatchObject({ namespace: undefined, allNamespaces: true });
    expect(planError(['-n'])).toBe("option '-n, --namespace <namespace>' argument missing");
    expect(planError(['--namespace', ''])).toBe('invalid --namespace: "" is not a DNS-1123 label (lowercase letters, digits and "-", at most 63)');
    expect(planError(['-n', '-A'])).toBe('invalid --namespace: "-A" is not a DNS-1123 label (lowercase letters, digits and "-", at most 63)');
    expect(planError(['-A', '-n', 'team-a'])).toBe('--all-namespaces and --namespace exclude each other: give one');
    expect(planError(['-A', '-f', 'keys.yaml'])).toBe('--all-namespaces selects the cluster\'s objects, --filename a file\'s: give one');
  });

  it('prints text, JSON or YAML', () => {
    expect(['text', 'json', 'yaml'].map((output) => planConfig(['-o', output]).output)).toEqual(['text', 'json', 'yaml']);
  });
});

describe('the controllers\' options in run and plan', () => {
  // `keyward plan` used to configure the appcred controller without --revoke-on-delete: it planned the
  // deletion of a CR as if the credentials were kept while `keyward run` revoked them.
  it.each([
    ['the default', [], {}, false],
    ['the flag', ['--revoke-on-delete'], {}, true],
    ['the variable', [], { KEYWARD_REVOKE_ON_DELETE: 'true' }, true],
    ['the negated flag over the variable', ['--no-revoke-on-delete'], { KEYWARD_REVOKE_ON_DELETE: 'true' }, false],
    ['the flag over the variable', ['--revoke-on-delete'], { KEYWARD_REVOKE_ON_DELETE: 'false' }, true],
    ['an empty variable, as unset', [], { KEYWARD_REVOKE_ON_DELETE: '' }, false],
  ] as const)('resolve --revoke-on-delete from %s the same way, into the same controller configuration', (_source, argv, env, revokeOnDelete) => {
    const run = runConfig(argv, env);
    const plan = planConfig(argv, env);
    expect([run['revokeOnDelete'], plan['revokeOnDelete']]).toEqual([revokeOnDelete, revokeOnDelete]);
    const appcred = moduleNamed('keystone-appcred');
    expect(moduleConfig(appcred, plan)).toEqual(moduleConfig(appcred, run));
    expect(moduleConfig(appcred, plan)).toEqual({ ...defaultAppCredConfig, revokeOnDelete });
  });

  it('give each controller the same configuration in run and plan, from flags and from variables', () => {
    const argv = [
      '--keystone-url', 'http://keystone:5000/v3', '--enforcement-namespace', 'authorino', '--revoke-on-delete',
      '--keycloak-url', 'http://keycloak:8080', '--keycloak-admin-secret', 'keycloak/admin', '--keycloak-operator-namespace', 'identity', '--keycloak-adopt-unowned-namespaces', 'identity',
      '--keycloak-namespace-concurrency', '3', '--keycloak-allowed-service-account-roles', '*', '--keystone-cluster-domain', 'cluster.example',
      '--keycloak-namespace-concurrency', '3', '--keycloak-resync-period', '1h', '--keystone-cluster-domain', 'cluster.example',
    ];
    const env = {
      KEYWARD_KEYSTONE_URL: 'http://keystone:5000/v3',
      KEYWARD_ENFORCEMENT_NAMESPACE: 'authorino',
      KEYWARD_REVOKE_ON_DELETE: 'true',
      KEYWARD_KEYCLOAK_URL: 'http://keycloak:8080',
      KEYWARD_KEYCLOAK_ADMIN_SECRET: 'keycloak/admin',
      KEYWARD_KEYCLOAK_OPERATOR_NAMESPACE: 'identity',
      KEYWARD_KEYCLOAK_ADOPT_UNOWNED_NAMESPACES: 'identity',
      KEYWARD_KEYCLOAK_NAMESPACE_CONCURRENCY: '3',
      KEYWARD_KEYCLOAK_ALLOWED_SERVICE_ACCOUNT_ROLES: '*',
      KEYWARD_KEYCLOAK_RESYNC_PERIOD: '1h',
      KEYWARD_KEYSTONE_CLUSTER_DOMAIN: 'cluster.example',
    };
    const keycloak = {
      ...defaultKeycloakConfig,
      keycloakUrl: 'http://keycloak:8080',
      keycloakAdminSecret: { namespace: 'keycloak', name: 'admin' },
      keycloakOperatorNamespace: 'identity',
      keycloakAdoptUnownedNamespaces: ['identity'],
      keycloakNamespaceConcurrency: 3,
      keycloakAllowedServiceAccountRoles: ['*'],
      keycloakResyncPeriod: 3_600_000,
      keycloakAllowJsPolicies: false,
    };
    const expected = {
      'keystone-appcred': { ...defaultAppCredConfig, keystoneUrl: 'http://keystone:5000/v3', revokeOnDelete: true },
      'apikey-enforcement': { enforcementNamespace: 'authorino' },
      'keycloak-realm': keycloak,
      'keycloak-client': keycloak,
      'keystone-service': { ...defaultKeystoneServiceConfig, clusterDomain: 'cluster.example' },
    };
    for (const [given, variables] of [[argv, {}], [[], env]] as const) {
      const run = runConfig(given, variables);
      const plan = planConfig(given, variables);
      for (const [controller, config] of Object.entries(expected)) {
        expect({ controller, run: moduleConfig(moduleNamed(controller), run), plan: moduleConfig(moduleNamed(controller), plan) }).toEqual({ controller, run: config, plan: config });
      }
    }
  });
});
