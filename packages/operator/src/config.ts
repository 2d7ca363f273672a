import { Command, CommanderError, Option } from 'commander';
import type { Settings } from './api-modules/module.js';
import type { ControllerName } from './controllers.js';
import { commanderOptions, groupedCommanderOptions, helpHeading, resolveOptions, type OptionSpecs, type ResolvedOptions } from './option-spec.js';
import { GENERAL_GROUP, apiOptions, crdsOptions, moduleOptions, planOptions, rbacOptions, runHelpGroups, runOptions, type LogFormat, type LogLevel, type PlanOutput } from './options.js';
import type { RbacInstall } from './rbac-manifests.js';
import type { RuntimeFacts } from './runtime-facts.js';
import type { BindAddress } from './values.js';

export type { ControllerName } from './controllers.js';
export type { LogFormat, LogLevel, PlanOutput } from './options.js';
export type { RuntimeFacts } from './runtime-facts.js';
export type { BindAddress } from './values.js';

/**
 * The API and controller modules' settings, flat by name (kubeApiQps, keystoneUrl, enforcementNamespace, ...):
 * each module takes those its options name (see moduleConfig, and each API module's runtime).
 */
export type ModuleSettings = Settings;

/** How to reach the cluster, which controllers' objects to handle and the modules' settings: shared by run and plan. */
export interface ConnectionConfig extends ModuleSettings {
  readonly controllers: readonly ControllerName[];
  /** Undefined: ~/.kube/config, else the in-cluster config in a pod (see loadKubeConfig). */
  readonly kubeconfig: string | undefined;
  /** Undefined: the kubeconfig's current-context. */
  readonly context: string | undefined;
}

/** The leader Lease (when enabled) and the timings of every Lease the operator holds, the shard Leases' included. */
export interface LeaseSettings {
  readonly enabled: boolean;
  readonly leaseName: string;
  readonly leaseNamespace: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** Everything `keyward run` needs; frozen. */
export interface OperatorConfig extends ConnectionConfig {
  readonly namespaces: readonly string[] | 'all';
  readonly leaderElection: LeaseSettings;
  /** Objects shared out over the replicas, each holding a shard Lease in leaderElection.leaseNamespace, instead of one leader. */
  readonly sharding: boolean;
  readonly metricsBindAddress: BindAddress | 'disabled';
  /** HTTPS and TokenReview/SubjectAccessReview for /metrics; off: plain HTTP to anyone. */
  readonly metricsSecure: boolean;
  /** The secure metrics server's certificate and key files; absent: a self-signed certificate made at start. */
  readonly metricsCertFile: string | undefined;
  readonly metricsKeyFile: string | undefined;
  readonly healthBindAddress: BindAddress | 'disabled';
  /** Reconciles at once, per controller. */
  readonly concurrency: Readonly<Record<ControllerName, number>>;
  /** Longest wait between retries of a failing object, in milliseconds. */
  readonly maxRetryDelay: number;
  /** On SIGTERM, how long steps in flight may take before the process exits anyway, in milliseconds. */
  readonly shutdownTimeout: number;
  readonly log: { readonly level: LogLevel; readonly format: LogFormat };
}

/** Everything `keyward plan` needs; frozen. */
export interface PlanConfig extends ConnectionConfig {
  /** The namespace given (-n); without it, the kubeconfig context's, as kubectl does. */
  readonly namespace: string | undefined;
  /** -A: every namespace's objects. */
  readonly allNamespaces: boolean;
  readonly name: string | undefined;
  readonly filename: string | undefined;
  readonly output: PlanOutput;
  readonly exitCode: boolean;
  /** Where the running operator publishes its settings (see operator-settings.ts). */
  readonly operatorNamespace: string;
  /** The module settings given by flag or environment variable: the running operator's do not override them. */
  readonly explicitSettings: readonly string[];
}

export type ConfigResult<C> = { readonly ok: true; readonly config: C } | { readonly ok: false; readonly error: string };

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The `run` command with its options and help, without an action. Its help lists the options by group:
 * general, metrics and health, then each controller's (see OptionSpec.group).
 */
export function createRunCommand(): Command {
  const command = commandWith('run', 'run the controllers against the cluster', runOptions, runHelpGroups());
  // --help with the general options, not under a heading of its own at the end.
  return command.addHelpOption(new Option('-h, --help', 'display help for command').helpGroup(helpHeading(GENERAL_GROUP)));
}

/** The `plan` command with its options and help, without an action. */
export function createPlanCommand(): Command {
  return commandWith('plan', 'show what the controllers would do, without doing it', planOptions);
}

/** The `crds` command with its one option, without an action: the CRDs depend on no controller setting. */
export function createCrdsCommand(): Command {
  const command = new Command('crds').description('print the CRDs of the controllers as multi-document YAML').showHelpAfterError("run 'keyward crds --help' for usage");
  for (const option of Object.values(crdsOptions).flatMap((spec) => commanderOptions(spec))) command.addOption(option);
  return command;
}

/** The controllers whose CRDs `keyward crds` prints. */
export function crdsConfigFrom(command: Command, env: Environment, facts: RuntimeFacts): ConfigResult<{ readonly controllers: readonly ControllerName[] }> {
  const resolved = resolveOptions(crdsOptions, command.opts(), env, facts);
  return resolved.ok ? { ok: true, config: { controllers: resolved.value('controllers') } } : resolved;
}

/** The `rbac` command with its options and help, without an action. */
export function createRbacCommand(): Command {
  return commandWith('rbac', 'print the Roles, ClusterRoles and bindings the operator needs as multi-document YAML', rbacOptions);
}

/**
 * `keyward run`'s configuration from its arguments (those after "run") and environment. Pure: the caller
 * passes process.argv, process.env and detectRuntimeFacts(). Flags override environment variables.
 */
export function parseRunConfig(argv: readonly string[], env: Environment, facts: RuntimeFacts = {}): ConfigResult<OperatorConfig> {
  return parseWith(createRunCommand(), argv, (command) => runConfigFrom(command, env, facts));
}

/** `keyward plan`'s configuration from its arguments (those after "plan") and environment; pure. */
export function parsePlanConfig(argv: readonly string[], env: Environment, facts: RuntimeFacts = {}): ConfigResult<PlanConfig> {
  return parseWith(createPlanCommand(), argv, (command) => planConfigFrom(command, env, facts));
}

/** The configuration of a `run` command that commander has parsed. */
export function runConfigFrom(command: Command, env: Environment, facts: RuntimeFacts): ConfigResult<OperatorConfig> {
  const resolved = withSettings(resolveOptions(runOptions, command.opts(), env, facts), command, env, facts);
  if (!resolved.ok) return resolved;
  const { value } = resolved.options;
  if ((value('metricsCertFile') === undefined) !== (value('metricsKeyFile') === undefined)) {
    return { ok: false, error: '--metrics-cert-file and --metrics-key-file go together: give both, or neither for a self-signed certificate' };
  }
  const timing = { leaseDurationMs: value('leaseDuration'), renewDeadlineMs: value('renewDeadline'), retryPeriodMs: value('retryPeriod') };
  if (!(timing.renewDeadlineMs < timing.leaseDurationMs)) return { ok: false, error: '--renew-deadline must be shorter than --lease-duration: a replica stops before another may take over' };
  if (!(timing.retryPeriodMs < timing.renewDeadlineMs)) return { ok: false, error: '--retry-period must be shorter than --renew-deadline: a Lease is renewed several times before the deadline' };
  if (value('sharding') && !value('leaderElect')) return { ok: false, error: '--sharding holds a Lease per replica and reconciles its share of the objects; it does not go with --no-leader-elect' };
  return {
    ok: true,
    config: deepFreeze({
      ...connectionConfig(resolved),
      namespaces: value('namespaces'),
      leaderElection: { enabled: value('leaderElect'), leaseName: value('leaseName'), leaseNamespace: value('leaseNamespace'), ...timing },
      sharding: value('sharding'),
      metricsBindAddress: value('metricsBindAddress'),
      metricsSecure: value('metricsSecure'),
      metricsCertFile: value('metricsCertFile'),
      metricsKeyFile: value('metricsKeyFile'),
      healthBindAddress: value('healthBindAddress'),
      concurrency: value('concurrency'),
      maxRetryDelay: value('maxRetryDelay'),
      shutdownTimeout: value('shutdownTimeout'),
      log: { level: value('logLevel'), format: value('logFormat') },
    }),
  };
}

/** The configuration of a `plan` command that commander has parsed. */
export function planConfigFrom(command: Command, env: Environment, facts: RuntimeFacts): ConfigResult<PlanConfig> {
  const resolved = withSettings(resolveOptions(planOptions, command.opts(), env, facts), command, env, facts);
  if (!resolved.ok) return resolved;
  const { value } = resolved.options;
  const [allNamespaces, namespace, filename] = [value('allNamespaces'), value('namespace'), value('filename')];
  if (allNamespaces && namespace !== undefined) return { ok: false, error: '--all-namespaces and --namespace exclude each other: give one' };
  if (allNamespaces && filename !== undefined) return { ok: false, error: '--all-namespaces selects the cluster\'s objects, --filename a file\'s: give one' };
  return {
    ok: true,
    config: deepFreeze({
      ...connectionConfig(resolved),
      namespace,
      allNamespaces,
      name: value('name'),
      filename,
      output: value('output'),
      exitCode: value('exitCode'),
      operatorNamespace: value('operatorNamespace'),
      explicitSettings: resolved.explicit,
    }),
  };
}

/** The options of connectionOptions, as run and plan take them: how to reach the cluster, and which controllers. */
type ConnectionValues = Pick<ConnectionConfig, 'controllers' | 'kubeconfig' | 'context'>;

/** The part of run's and plan's configuration their connectionOptions and the modules' settings make. */
function connectionConfig<V extends ConnectionValues>({ options: { value }, settings }: { readonly options: ResolvedOptions<V>; readonly settings: ModuleSettings }): ConnectionConfig {
  return { ...settings, controllers: value('controllers'), kubeconfig: value('kubeconfig'), context: value('context') };
}

/** The install of a `rbac` command that commander has parsed. */
export function rbacConfigFrom(command: Command, env: Environment, facts: RuntimeFacts): ConfigResult<RbacInstall> {
  const resolved = withSettings(resolveOptions(rbacOptions, command.opts(), env, facts), command, env, facts);
  if (!resolved.ok) return resolved;
  const { value } = resolved.options;
  return {
    ok: true,
    config: deepFreeze({
      ...resolved.settings,
      controllers: value('controllers'),
      namespaces: value('namespaces'),
      operatorNamespace: value('operatorNamespace'),
      serviceAccount: value('serviceAccount'),
    }),
  };
}

/**
 * A command's own options with the modules' settings: the controller modules' options and the API modules'
 * among the command's, by name; and which controller module settings were given.
 */
function withSettings<V>(
  options: ResolvedOptions<V> | { readonly ok: false; readonly error: string },
  command: Command,
  env: Environment,
  facts: RuntimeFacts,
): { readonly ok: true; readonly options: ResolvedOptions<V>; readonly settings: ModuleSettings; readonly explicit: readonly string[] } | { readonly ok: false; readonly error: string } {
  if (!options.ok) return options;
  const modules = resolveOptions(moduleOptions, command.opts(), env, facts);
  if (!modules.ok) return modules;
  const apiSettings = Object.keys(apiOptions).filter((key) => key in options.values).map((key): [string, unknown] => [key, options.values[key]]);
  return { ok: true, options, settings: { ...modules.values, ...Object.fromEntries(apiSettings) }, explicit: modules.explicit };
}

/** A command with its own options and the controllers' after them; in help under `helpGroups` when given. */
function commandWith(name: string, description: string, specs: OptionSpecs, helpGroups?: readonly string[]): Command {
  const command = new Command(name).description(description).showHelpAfterError(`run 'keyward ${name} --help' for usage`);
  const all = Object.values({ ...specs, ...moduleOptions });
  const options = helpGroups === undefined ? all.flatMap((spec) => commanderOptions(spec)) : groupedCommanderOptions(all, helpGroups);
  for (const option of options) command.addOption(option);
  return command;
}

/** Parses `argv` with `command` without touching the process: no output, no exit. */
function parseWith<C>(command: Command, argv: readonly string[], resolve: (parsed: Command) => ConfigResult<C>): ConfigResult<C> {
  command.exitOverride().configureOutput({ writeOut: ignore, writeErr: ignore, outputError: ignore });
  try {
    command.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return { ok: false, error: error.exitCode === 0 ? '--help is for the command line' : oneLine(error.message).replace(/^error: /, '') };
    throw error;
  }
  return resolve(command);
}

/** Commander puts its "(Did you mean ...?)" on a line of its own; usage errors are one line. */
export function oneLine(message: string): string {
  return message.trimEnd().replace(/\s*\n\s*/g, ' ');
}

function ignore(): void {
  // parsers are pure: help and errors come back as values
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}
