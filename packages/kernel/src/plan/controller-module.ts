import type { KubeObject } from '../apis/kubernetes/actions.js';
import type { Parsed } from '../model/option-values.js';
import type { AnyAction, AnyQuery } from './actions.js';
import type { Vocabulary } from './api.js';
import type { ControllerDefinition } from './controller.js';
import type { Queries } from './queries.js';


/** An operator option that sets one field of a controller's configuration: a flag, an environment variable. */
export interface ConfigOption<T> {
  /** As commander takes them: '--keystone-url <url>'; a boolean has no placeholder. */
  readonly flags: string;
  /** The flag that turns a boolean off. */
  readonly negation?: { readonly flags: string; readonly description: string };
  readonly env?: string;
  readonly description: string;
  /** The default as help and docs show it (the value itself is the module's default configuration). */
  readonly defaultText: string;
  /** The value, or why it is not one (the operator names the flag and variable). */
  readonly parse: (raw: string) => Parsed<T>;
  /** The value as the flag takes it, where that is not its plain text (milliseconds given as "10m"). */
  format?(value: T): string;
  /** Where the Helm chart takes it: the chart passes the value to the operator as the option's variable. */
  readonly helm?: HelmValue;
}

/**
 * An option's value in the Helm chart: where it sits in values.yaml, what it takes (checked by
 * values.schema.json), its default there and the comment above it. The chart's values, schema and the
 * Deployment's variables are generated from these.
 */
export interface HelmValue {
  /** Its path in the chart's values: 'keycloak.url', 'keycloak.rateLimits.tokenRate'. */
  readonly path: string;
  /**
   * What it takes: text or a number ('' leaves the operator's default), a boolean, a namespace name (never
   * empty), an object's namespace/name ('' for none; the chart refuses anything else), or a list of text items
   * matching a pattern (passed comma-separated).
   */
  readonly type: 'text' | 'number' | 'boolean' | 'namespace' | 'namespacedName' | { readonly listOf: string };
  /** Its value in values.yaml; '' (the operator's default) for text and numbers, [] for lists, when not given. */
  readonly default?: string | boolean;
  /** What values.yaml says of it, after the flag. */
  readonly comment: string;
  /** An empty value means the release namespace, not the option's default. */
  readonly emptyMeansReleaseNamespace?: boolean;
  /** No longer taken: the chart fails when it is set (true, or not empty), giving this reason. */
  readonly retired?: string;
}

/** The fields of a configuration that can hold a namespace: its name, or an object's reference (namespace/name). */
export type NamespaceField<C> = { [K in keyof C]-?: NonNullable<C[K]> extends string | { readonly namespace: string } ? K : never }[keyof C];

/** Those of them that are always set. */
export type SetNamespaceField<C> = { [K in keyof C]-?: undefined extends C[K] ? never : C[K] extends string | { readonly namespace: string } ? K : never }[keyof C];

/**
 * Where an RBAC rule applies: the namespaces the operator watches (a ClusterRole, or a Role in each listed
 * namespace), the operator's own namespace, or a namespace the controller's configuration names: that of the
 * first of the `namespaceOf` fields that is set, the last always is. Fields, not a function of the
 * configuration, so the Helm chart places the rule from their options' Helm values too.
 */
export type RuleScope<C> = 'watched' | 'operator' | { readonly namespaceOf: readonly [...NamespaceField<C>[], SetNamespaceField<C>] };

/** Permissions a controller needs, least privilege: every verb one its plans or watches use. */
export interface RbacRule<C> {
  readonly apiGroups: readonly string[];
  /** `resource` or `resource/subresource`. */
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly scope: RuleScope<C>;
}

/**
 * Everything a program needs to run one domain's controller, exported together by its package: the
 * definition (which declares the API modules its plans use), its default configuration and the operator
 * options that change it, its RBAC rules and its CRDs. The operator iterates over the modules it is built
 * with; adding a domain adds one entry to that list.
 */
export interface ControllerModule<P extends KubeObject, Q extends Queries, C, A extends AnyAction> {
  readonly definition: ControllerDefinition<P, Q, C, A>;
  readonly defaultConfig: C;
  readonly options: { readonly [K in keyof NoInfer<C>]?: ConfigOption<NoInfer<C>[K]> };
  readonly rbac: readonly RbacRule<C>[];
  /** The CustomResourceDefinitions of the kinds it serves (not of kinds it only reads). */
  readonly crds: readonly object[];
}

/** Declares a controller module with its parts checked against each other. */
export function defineControllerModule<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(module: ControllerModule<P, Q, C, A>): ControllerModule<P, Q, C, A> {
  return module;
}

/** The actions a module's controller may emit. */
export type ModuleActions<M> = M extends { readonly definition: { readonly apis: Vocabulary<infer A, infer _Q> } } ? A : never;
/** The queries a module's controller may ask. */
export type ModuleQueries<M> = M extends { readonly definition: { readonly apis: Vocabulary<infer _A, infer Q> } } ? Q : never;

/** Kinds a module needs that a set of APIs (actions `A`, queries `Q`) does not provide; never when none. */
export type UnhandledKinds<M, A extends AnyAction, Q extends AnyQuery> =
  | Exclude<ModuleActions<M> extends AnyAction ? ModuleActions<M>['kind'] : never, A['kind']>
  | Exclude<ModuleQueries<M> extends AnyQuery ? ModuleQueries<M>['kind'] : never, Q['kind']>;
