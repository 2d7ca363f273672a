// keyward's options, one table per command; option-spec.ts turns them into commands, help, docs and values.
import { formatDuration } from '@keyward/kernel/model';
import { LEASE_TIMING_DEFAULTS } from '@keyward/runtime/controller';
import { API_MODULES } from './apis.js';
import { CONTROLLER_NAMES, MODULES, type ControllerName } from './controllers.js';
import type { RuntimeFacts } from './runtime-facts.js';
import {
  parseBindAddress,
  parseBoolean,
  parseConcurrency,
  parseControllers,
  parseDns1123Label,
  parseDns1123Subdomain,
  parseDurationWithin,
  parseNamespaces,
  parseOneOf,
  parseString,
  perController,
  type BindAddress,
  type Parsed,
} from './values.js';
import type { OptionSpec, OptionSpecs } from './option-spec.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const PLAN_OUTPUTS = ['text', 'json', 'yaml'] as const;
export type PlanOutput = (typeof PLAN_OUTPUTS)[number];

export const DEFAULT_CONCURRENCY = 4;
/** The longest wait between retries of a failing object, as controller-runtime's default rate limiter. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 5 * 60_000;
/** Below Kubernetes' default grace period of 30 s, so the process exits on its own before it is killed. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;
export const DEFAULT_LEASE_NAME = 'keyward-leader';
/** Where deploy/base puts the operator, its ServiceAccount and its Lease. */
export const DEFAULT_OPERATOR_NAMESPACE = 'keyward-system';
export const DEFAULT_SERVICE_ACCOUNT = 'keyward';

/** The default of an option that has none. */
const absent = (): undefined => undefined;
/** A parser typed for an option whose default is `absent`. */
const optional = <T>(parse: (raw: string) => Parsed<T>) => (raw: string): Parsed<T | undefined> => parse(raw);

function booleanOption(flags: string, env: string | undefined, description: string, fallback: boolean, negation?: OptionSpec<boolean>['negation']): OptionSpec<boolean> {
  return {
    flags,
    ...(negation === undefined ? {} : { negation }),
    ...(env === undefined ? {} : { env }),
    description,
    defaultText: String(fallback),
    parse: parseBoolean,
    fallback: () => fallback,
  };
}

/** A duration in milliseconds, given as "30s", "5m" or "1h30m" within the bounds. */
function durationOption(flags: string, env: string, description: string, fallbackMs: number, bounds: { readonly minMs: number; readonly maxMs: number }): OptionSpec<number> {
  return { flags, env, description, defaultText: formatDuration(fallbackMs), parse: parseDurationWithin(bounds.minMs, bounds.maxMs), fallback: () => fallbackMs };
}

/** run's help groups before the controllers' own: the process and its cluster, then what it serves. */
export const GENERAL_GROUP = 'General';
export const SERVING_GROUP = 'Metrics and health';

/** The help group of the options that `controllers` read: "keystone-appcred controller", "a and b controllers". */
export function controllersGroup(controllers: readonly ControllerName[]): string {
  const names = controllers.length <= 1 ? controllers.join('') : `${controllers.slice(0, -1).join(', ')} and ${String(controllers.at(-1))}`;
  return `${names} controller${controllers.length === 1 ? '' : 's'}`;
}

/**
 * The options of the controller modules, which set fields of their configurations (a field two modules share
 * is one option, in the help group of all the modules that read it). Every command takes them: run and plan
 * configure the controllers with them, rbac places the roles they name namespaces for.
 */
export const moduleOptions: OptionSpecs = Object.fromEntries(
  MODULES.flatMap((module) => Object.entries(module.options).flatMap(([key, option]): [string, OptionSpec<unknown>][] => {
    if (option === undefined) return [];
    const fallback = module.defaults[key];
    const readers = MODULES.filter((other) => key in other.options).map((other) => other.definition.name);
    return [[key, { ...option, fallback: () => fallback, group: controllersGroup(readers) }]];
  })).map(([key, spec], _, all): [string, OptionSpec<unknown>] => {
    // One field, one option: modules that share a field must agree on its flag and its default.
    const other = all.find(([otherKey, otherSpec]) => otherKey === key && (otherSpec.flags !== spec.flags || otherSpec.fallback({}) !== spec.fallback({})));
    if (other !== undefined) throw new Error(`controller modules disagree on the option for ${key}: ${spec.flags} and ${other[1].flags}`);
    return [key, spec];
  }),
);

/** The groups of run's help in the order they print: the process's own, then the controllers' in their order. */
export function runHelpGroups(): readonly string[] {
  const groups = [...Object.values(moduleOptions), ...Object.values(apiOptions)].flatMap((spec) => (spec.group === undefined ? [] : [spec.group]));
  return [...new Set([GENERAL_GROUP, SERVING_GROUP, ...groups])];
}

/**
 * The options of the API modules, which set their clients' settings (rate limits): in the help group of the
 * controllers that use the API, or the general one when every controller does.
 */
export const apiOptions: OptionSpecs = Object.fromEntries(API_MODULES.flatMap((module) => {
  const users = MODULES.filter((controller) => controller.definition.apis.apis.includes(module.api.name)).map((controller) => controller.definition.name);
  const group = users.length === MODULES.length ? GENERAL_GROUP : controllersGroup(users);
  return Object.entries(module.options).map(([key, { default: fallback, ...option }]): [string, OptionSpec<unknown>] => [key, { ...option, fallback: () => fallback, group }]);
}));

/** What `run` and `plan` both need: which controllers, and how to reach the cluster. */
export const connectionOptions = {
  controllers: {
    flags: '--controllers <list>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_CONTROLLERS',
    description: `controllers to use, comma-separated: ${CONTROLLER_NAMES.join(', ')}`,
    defaultText: 'all',
    parse: parseControllers,
    fallback: (): readonly ControllerName[] => CONTROLLER_NAMES,
  },
  kubeconfig: {
    flags: '--kubeconfig <path>',
    group: GENERAL_GROUP,
    env: 'KUBECONFIG',
    description: 'kubeconfig file to use (several, separated by ":", are merged as kubectl merges them)',
    defaultText: '~/.kube/config, else the in-cluster config in a pod',
    parse: optional(parseString),
    fallback: absent,
  },
  context: {
    flags: '--context <name>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_KUBE_CONTEXT',
    description: 'kubeconfig context to use instead of its current-context',
    defaultText: 'the current-context',
    parse: optional(parseString),
    fallback: absent,
  },
  ...apiOptions,
} as const satisfies OptionSpecs;

export const runOptions = {
  ...connectionOptions,
  namespaces: {
    flags: '--namespaces <list>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_NAMESPACES',
    description: 'namespaces to watch, comma-separated',
    defaultText: 'all',
    parse: parseNamespaces,
    fallback: (): readonly string[] | 'all' => 'all',
  },
  leaderElect: {
    ...booleanOption('--leader-elect', 'KEYWARD_LEADER_ELECT', 'reconcile only while holding the leader lease', true, {
      flags: '--no-leader-elect',
      description: 'reconcile without leader election (one replica only)',
    }),
    group: GENERAL_GROUP,
  },
  leaseName: {
    flags: '--lease-name <name>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_LEASE_NAME',
    description: 'name of the leader election Lease',
    defaultText: DEFAULT_LEASE_NAME,
    parse: parseDns1123Subdomain,
    fallback: () => DEFAULT_LEASE_NAME,
  },
  leaseNamespace: {
    flags: '--lease-namespace <namespace>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_LEASE_NAMESPACE',
    description: 'namespace of the leader election Lease',
    defaultText: "the pod's namespace, else default",
    parse: parseDns1123Label,
    fallback: (facts: RuntimeFacts) => facts.serviceAccountNamespace ?? 'default',
  },
  leaseDuration: {
    ...durationOption('--lease-duration <duration>', 'KEYWARD_LEASE_DURATION', 'how long a Lease (the leader\'s or a shard\'s) left unrenewed stays its holder\'s; the others take over after it', LEASE_TIMING_DEFAULTS.leaseDurationMs, { minMs: 2_000, maxMs: 10 * 60_000 }),
    group: GENERAL_GROUP,
  },
  renewDeadline: {
    ...durationOption('--renew-deadline <duration>', 'KEYWARD_RENEW_DEADLINE', 'a replica that could not renew its Lease for this long stops reconciling; shorter than --lease-duration', LEASE_TIMING_DEFAULTS.renewDeadlineMs, { minMs: 1_000, maxMs: 10 * 60_000 }),
    group: GENERAL_GROUP,
  },
  retryPeriod: {
    ...durationOption('--retry-period <duration>', 'KEYWARD_RETRY_PERIOD', 'how often a Lease is renewed or tried for, and the shard Leases listed; shorter than --renew-deadline', LEASE_TIMING_DEFAULTS.retryPeriodMs, { minMs: 1_000, maxMs: 10 * 60_000 }),
    group: GENERAL_GROUP,
  },
  sharding: {
    ...booleanOption('--sharding', 'KEYWARD_SHARDING', 'share the objects out over every replica run with it, each holding a shard Lease (keyward-shard-<identity>), instead of electing one leader', false),
    group: GENERAL_GROUP,
  },
  // Loopback by default: exposing them is a decision the Deployment makes (it binds them to the pod IP, which
  // the kubelet probes and the scraper reaches); the probes have no authentication, the metrics do unless
  // --no-metrics-secure.
  metricsBindAddress: {
    flags: '--metrics-bind-address <address>',
    group: SERVING_GROUP,
    env: 'KEYWARD_METRICS_BIND_ADDRESS',
    description: 'where to serve Prometheus metrics, [host]:port (":port" for every interface); "0" disables',
    defaultText: '127.0.0.1:8080',
    parse: parseBindAddress,
    fallback: (): BindAddress | 'disabled' => ({ host: '127.0.0.1', port: 8080 }),
  },
  metricsSecure: {
    ...booleanOption('--metrics-secure', 'KEYWARD_METRICS_SECURE', 'serve metrics over HTTPS to callers whose token a TokenReview authenticates and a SubjectAccessReview allows to get /metrics', true, {
      flags: '--no-metrics-secure',
      description: 'serve metrics over plain HTTP to anyone who reaches the address',
    }),
    group: SERVING_GROUP,
  },
  metricsCertFile: {
    flags: '--metrics-cert-file <path>',
    group: SERVING_GROUP,
    env: 'KEYWARD_METRICS_CERT_FILE',
    description: "PEM certificate (chain) of the secure metrics server, with --metrics-key-file; read at start",
    defaultText: 'a self-signed certificate made at start',
    parse: optional(parseString),
    fallback: absent,
  },
  metricsKeyFile: {
    flags: '--metrics-key-file <path>',
    group: SERVING_GROUP,
    env: 'KEYWARD_METRICS_KEY_FILE',
    description: 'PEM private key of --metrics-cert-file',
    defaultText: 'none',
    parse: optional(parseString),
    fallback: absent,
  },
  healthBindAddress: {
    flags: '--health-bind-address <address>',
    group: SERVING_GROUP,
    env: 'KEYWARD_HEALTH_BIND_ADDRESS',
    description: 'where to serve /healthz and /readyz, [host]:port (":port" for every interface); "0" disables',
    defaultText: '127.0.0.1:8081',
    parse: parseBindAddress,
    fallback: (): BindAddress | 'disabled' => ({ host: '127.0.0.1', port: 8081 }),
  },
  concurrency: {
    flags: '--concurrency <n>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_CONCURRENCY',
    description: 'reconciles at once per controller: n, or controller=n pairs such as keystone-appcred=2,apikey-enforcement=8',
    defaultText: String(DEFAULT_CONCURRENCY),
    parse: parseConcurrency(DEFAULT_CONCURRENCY),
    fallback: () => perController(() => DEFAULT_CONCURRENCY),
  },
  maxRetryDelay: {
    ...durationOption(
      '--max-retry-delay <duration>',
      'KEYWARD_MAX_RETRY_DELAY',
      'longest wait between retries of a failing object; the wait doubles from 5ms up to it (an unreachable Keystone is asked less and less often)',
      DEFAULT_MAX_RETRY_DELAY_MS,
      { minMs: 1_000, maxMs: 24 * 3_600_000 },
    ),
    group: GENERAL_GROUP,
  },
  shutdownTimeout: {
    ...durationOption(
      '--shutdown-timeout <duration>',
      'KEYWARD_SHUTDOWN_TIMEOUT',
      "on SIGTERM, how long the steps in flight may take before the process exits anyway; keep it below the pod's termination grace period",
      DEFAULT_SHUTDOWN_TIMEOUT_MS,
      { minMs: 1_000, maxMs: 10 * 60_000 },
    ),
    group: GENERAL_GROUP,
  },
  logLevel: {
    flags: '--log-level <level>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_LOG_LEVEL',
    description: `least severe level to log: ${LOG_LEVELS.join(', ')}`,
    defaultText: 'info',
    parse: parseOneOf(LOG_LEVELS),
    fallback: (): LogLevel => 'info',
  },
  logFormat: {
    flags: '--log-format <format>',
    group: GENERAL_GROUP,
    env: 'KEYWARD_LOG_FORMAT',
    description: `log line format: ${LOG_FORMATS.join(', ')}`,
    defaultText: 'json; text when stdout is a terminal',
    parse: parseOneOf(LOG_FORMATS),
    fallback: (facts: RuntimeFacts): LogFormat => (facts.stdoutIsTty === true ? 'text' : 'json'),
  },
} as const satisfies OptionSpecs;

export const planOptions = {
  namespace: {
    flags: '-n, --namespace <namespace>',
    description: 'plan only objects in this namespace; a file\'s objects without one go there',
    defaultText: "the kubeconfig context's namespace, else default",
    parse: optional(parseDns1123Label),
    fallback: absent,
  },
  allNamespaces: booleanOption('-A, --all-namespaces', undefined, 'plan the objects of every namespace instead of one (not with -n or -f)', false),
  name: {
    flags: '--name <name>',
    description: 'plan only objects with this name',
    defaultText: 'all',
    parse: optional(parseDns1123Subdomain),
    fallback: absent,
  },
  filename: {
    flags: '-f, --filename <file>',
    description: 'plan the objects of this manifest, as they would be once applied, instead of the cluster\'s',
    defaultText: 'none',
    parse: optional(parseString),
    fallback: absent,
  },
  output: {
    flags: '-o, --output <format>',
    description: `output format: ${PLAN_OUTPUTS.join(', ')}`,
    defaultText: 'text',
    parse: parseOneOf(PLAN_OUTPUTS),
    fallback: (): PlanOutput => 'text',
  },
  exitCode: booleanOption('--exit-code', undefined, 'exit with status 3 when some object\'s reconcile would fail, else 2 when anything would change, 0 when everything has converged', false),
  operatorNamespace: {
    flags: '--operator-namespace <namespace>',
    env: 'KEYWARD_OPERATOR_NAMESPACE',
    description: "namespace of the running operator, whose published settings the controllers' options not given here take",
    defaultText: DEFAULT_OPERATOR_NAMESPACE,
    parse: parseDns1123Label,
    fallback: () => DEFAULT_OPERATOR_NAMESPACE,
  },
  ...connectionOptions,
} as const satisfies OptionSpecs;

/** `keyward crds`: the CRDs of the controllers named. */
export const crdsOptions = {
  controllers: { ...connectionOptions.controllers, description: `controllers whose CRDs to print, comma-separated: ${CONTROLLER_NAMES.join(', ')}` },
} as const satisfies OptionSpecs;

/** `keyward rbac`: the roles of an install, from the same options the operator runs with. */
export const rbacOptions = {
  controllers: connectionOptions.controllers,
  namespaces: {
    ...runOptions.namespaces,
    description: 'namespaces the operator watches, comma-separated: a Role in each instead of ClusterRoles',
  },
  operatorNamespace: {
    flags: '--operator-namespace <namespace>',
    description: "the operator's namespace: its ServiceAccount and leader election Lease",
    defaultText: DEFAULT_OPERATOR_NAMESPACE,
    parse: parseDns1123Label,
    fallback: () => DEFAULT_OPERATOR_NAMESPACE,
  },
  serviceAccount: {
    flags: '--service-account <name>',
    description: "the operator's ServiceAccount, which the roles are bound to",
    defaultText: DEFAULT_SERVICE_ACCOUNT,
    parse: parseDns1123Subdomain,
    fallback: () => DEFAULT_SERVICE_ACCOUNT,
  },
} as const satisfies OptionSpecs;
