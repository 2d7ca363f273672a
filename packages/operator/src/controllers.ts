import { isRight } from 'fp-ts/lib/Either.js';
import { deepEqual, type AnyQuery, type ConfigOption, type Queries, type QueryIn, type Vocabulary } from '@keyward/kernel/plan';
import { type AnyAction, type ControllerModule, type KubeObject, type ResourceType } from '@keyward/kernel';
import type { ApiSet } from '@keyward/kernel/interpreter';
import { Controller, type ControllerOptions } from '@keyward/runtime/controller';
import { appCredModule } from '@keyward/keystone-appcred';
import { apiKeyModule } from '@keyward/apikey-enforcement';
import { keycloakClientModule, keycloakRealmModule } from '@keyward/keycloak';
import { keystoneServiceModule } from '@keyward/keystone-service';
import type { Settings } from './api-modules/module.js';
import type { OperatorApis } from './apis.js';
import { bodyOf } from './planning/manifest.js';
import { planRounds, type ObjectOutcome, type RoundsOptions } from './planning/rounds.js';

/**
 * Where a module's RBAC rule applies, its configured namespace read from the operator's settings; `namespaceOf`
 * names the options it comes from, the first set one's (see RuleScope).
 */
export type ModuleRuleScope = 'watched' | 'operator' | { readonly namespace: (settings: Settings) => string; readonly namespaceOf: readonly string[] };

/**
 * A controller module as the operator lists it, whatever its types: what it is (name, kind, API vocabulary,
 * options, RBAC, CRDs), and what it does given only the operator's settings, its own configuration made from
 * them inside, where its types are known. So lists of modules of different types need no cast.
 */
export interface ErasedModule {
  readonly definition: { readonly name: string; readonly primary: { readonly type: ResourceType }; readonly apis: Vocabulary<AnyAction, AnyQuery> };
  readonly options: Readonly<Record<string, ConfigOption<unknown> | undefined>>;
  /** Each option's value when the option is not given. */
  readonly defaults: Settings;
  readonly rbac: readonly { readonly apiGroups: readonly string[]; readonly resources: readonly string[]; readonly verbs: readonly string[]; readonly scope: ModuleRuleScope }[];
  readonly crds: readonly object[];
  /** Its configuration: its defaults, overridden by the operator settings its options name. */
  config(settings: Settings): unknown;
  /** Whether two objects have the same content to the controller: compared as its codec reads them, defaults applied. */
  readonly sameContent: (a: KubeObject, b: KubeObject) => boolean;
  /** The reconciles `keyward plan` shows for `object` (see planRounds), configured from `settings`. */
  planRounds(object: KubeObject, settings: Settings, options: Omit<RoundsOptions<unknown>, 'config'>): Promise<ObjectOutcome>;
}

/** What the operator does with a module's controller. */
export type ModuleController = Pick<Controller<KubeObject, Queries, unknown, AnyAction>, 'name' | 'requires' | 'start' | 'stop' | 'queueState'>;

/** A module the operator runs: also its controller, given APIs of type `S`. */
export interface OperatorModule<S> extends ErasedModule {
  /** Its controller, configured from `settings`. */
  controller(apis: S, settings: Settings, options: Omit<ControllerOptions<unknown, AnyAction, AnyQuery>, 'apis' | 'config'>): ModuleController;
}

const isRecord = (value: unknown): value is Settings => typeof value === 'object' && value !== null;

/**
 * A module's configuration: its defaults, overridden by the settings its options name. Each such setting holds
 * a value that option parsed, so each field keeps its type.
 */
function configOf<C>(module: Pick<ControllerModule<KubeObject, Queries, C, AnyAction>, 'defaultConfig' | 'options'>, settings: Settings): C {
  const named = Object.keys(module.options).filter((key) => key in settings);
  return { ...module.defaultConfig, ...Object.fromEntries(named.map((key) => [key, settings[key]])) };
}

/** The namespace the first set of `fields` names: the field's value, or the namespace of the object it refers to. */
function namespaceNamed<C>(config: C, fields: readonly (keyof C)[]): string {
  for (const field of fields) {
    const value: unknown = config[field];
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null && 'namespace' in value && typeof value.namespace === 'string') return value.namespace;
  }
  throw new Error(`none of ${fields.map(String).join(', ')} names a namespace`);
}

/** What a module is and does, without its types; `keyward plan` takes modules of an embedding program so. */
export function erasedModule<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(module: ControllerModule<P, Q, C, A>): ErasedModule {
  const { definition } = module;
  const options: Readonly<Record<string, ConfigOption<unknown> | undefined>> = module.options;
  const defaults = isRecord(module.defaultConfig) ? module.defaultConfig : {};
  const config = (settings: Settings): C => configOf(module, settings);
  const content = (object: KubeObject): unknown => {
    const decoded = definition.primary.decode(object);
    return bodyOf(isRight(decoded) ? decoded.right : object);
  };
  return {
    definition: { name: definition.name, primary: { type: definition.primary.type }, apis: definition.apis },
    options,
    defaults,
    rbac: module.rbac.map(({ scope, ...rule }) => ({
      ...rule,
      scope: typeof scope === 'string' ? scope : { namespace: (settings: Settings) => namespaceNamed(config(settings), scope.namespaceOf), namespaceOf: scope.namespaceOf.map(String) },
    })),
    crds: module.crds,
    config,
    sameContent: (a, b) => deepEqual(content(a), content(b)),
    planRounds: (object, settings, rounds) => planRounds(definition, object, { ...rounds, config: config(settings) }),
  };
}

/**
 * The module as the operator runs it with APIs of type `S`, which must handle every action and answer every
 * query the module declares: `S` is inferred from where the module is listed, so a missing API is a compile
 * error there.
 */
export function operatorModule<P extends KubeObject, Q extends Queries, C, A extends AnyAction, S extends ApiSet<A, QueryIn<Q>>>(module: ControllerModule<P, Q, C, A>): OperatorModule<S> {
  return {
    ...erasedModule(module),
    controller: (apis, settings, options) => new Controller(module.definition, { ...options, apis, config: configOf(module, settings) }),
  };
}

/**
 * The controllers this operator is built with. Adding a domain adds its module here, and nothing else in the
 * operator: names, options, Helm values, RBAC, CRDs and `keyward plan` all come from the modules.
 */
export const MODULES: readonly OperatorModule<OperatorApis>[] = [
  operatorModule(appCredModule),
  operatorModule(apiKeyModule),
  operatorModule(keycloakRealmModule),
  operatorModule(keycloakClientModule),
  operatorModule(keystoneServiceModule),
];

/** The controllers by the names used in --controllers, --concurrency and RBAC. */
export const CONTROLLER_NAMES: readonly string[] = MODULES.map((module) => module.definition.name);

export type ControllerName = string;

export function isControllerName(value: string): boolean {
  return CONTROLLER_NAMES.includes(value);
}

export function moduleNamed(name: ControllerName): OperatorModule<OperatorApis> {
  const module = MODULES.find((candidate) => candidate.definition.name === name);
  if (module === undefined) throw new Error(`no controller named ${name}`);
  return module;
}

/** A module's configuration: its defaults, overridden by the operator settings its options name. */
export function moduleConfig(module: ErasedModule, settings: Settings): unknown {
  return module.config(settings);
}
