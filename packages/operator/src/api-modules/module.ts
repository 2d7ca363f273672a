import type { ConfigOption } from '@keyward/kernel/plan';
import type { AnyApiRuntime } from '@keyward/kernel/interpreter';
import type { KubeClient } from '@keyward/runtime/io';
import type { RuntimeMetrics } from '@keyward/runtime/controller';
import type { SandboxHandlers } from '../planning/rounds.js';

/** What the operator makes an API module's runtime with. */
export interface ApiContext {
  readonly kube: KubeClient;
  /** events.k8s.io reportingInstance: this process. */
  readonly identity: string;
  /** Where its clients' metrics go; none in a program that serves none. */
  readonly metrics?: RuntimeMetrics;
}

/**
 * The operator's settings, flat by name (keystoneUrl, kubeApiQps, ...), each the value its option parsed: an
 * API module reads the ones its options name, a controller module the fields of its configuration.
 */
export type Settings = Readonly<Record<string, unknown>>;

/** An option of an API module: it sets one of its clients' settings, `default` when not given. */
export interface ApiOption<T> extends ConfigOption<T> {
  readonly default: T;
}

/**
 * An API module as the operator runs it: how its runtime is made (its clients and their metrics), the options
 * (flag, variable, Helm value) that set its clients' settings, and what stands in for it in `keyward plan`'s
 * sandbox. The operator's list of them (apis.ts) is the one place an API is added.
 */
export interface ApiModule<R extends AnyApiRuntime> {
  /** Its pure half: the name controllers use it by. */
  readonly api: R['api'];
  readonly options: Readonly<Record<string, ApiOption<unknown>>>;
  /** Its runtime, its clients made with the `settings` its options name, their metrics on the context's registry. */
  runtime(context: ApiContext, settings: Settings): R;
  /**
   * Stands in for its actions in a plan's sandbox, so the reconciles after one that uses it can be shown;
   * without one, a plan that uses the API is the last shown. Kubernetes is the sandbox itself.
   */
  sandbox?(): SandboxHandlers;
}

/** Declares an API module. */
export function defineApiModule<R extends AnyApiRuntime>(module: ApiModule<R>): ApiModule<R> {
  return module;
}

/** A number setting an option of the module parsed, else the option's default. */
export function numberSetting(settings: Settings, key: string, option: ApiOption<number>): number {
  const value = settings[key];
  return typeof value === 'number' ? value : option.default;
}
