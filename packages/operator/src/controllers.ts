import type { AnyAction, ControllerModule, KubeObject } from '@keyward/kernel';
import type { Queries, UnhandledKinds } from '@keyward/kernel/plan';
import type { ApiSet } from '@keyward/kernel/interpreter';
import { appCredModule } from '@keyward/keystone-appcred';
import { apiKeyModule } from '@keyward/apikey-enforcement';
import { keycloakClientModule, keycloakRealmModule } from '@keyward/keycloak';
import { keystoneServiceModule } from '@keyward/keystone-service';
import type { OperatorApis } from './apis.js';

/**
 * The controllers this operator is built with. Adding a domain adds its module here, and nothing else in the
 * operator: names, options, RBAC, CRDs and `keyward plan` all come from the modules.
 */
export const CONTROLLER_MODULES = [appCredModule, apiKeyModule, keycloakRealmModule, keycloakClientModule, keystoneServiceModule] as const;

/**
 * Compiles only if the operator's API modules handle every action and answer every query each controller
 * module declares; otherwise the error names the module and the kinds nobody handles.
 */
type Covered<M extends readonly unknown[], S> = S extends ApiSet<infer A, infer Q>
  ? { readonly [I in keyof M]: [UnhandledKinds<M[I], A, Q>] extends [never] ? M[I] : { readonly unhandledKinds: UnhandledKinds<M[I], A, Q> } }
  : never;
export const coveredModules: Covered<typeof CONTROLLER_MODULES, OperatorApis> = CONTROLLER_MODULES;

/** A module with its types erased, for iterating; safe because `coveredModules` checked them. */
export type ErasedModule = ControllerModule<KubeObject, Queries, unknown, AnyAction>;

export const MODULES: readonly ErasedModule[] = CONTROLLER_MODULES as unknown as readonly ErasedModule[];

/** The controllers by the names used in --controllers, --concurrency and RBAC. */
export const CONTROLLER_NAMES: readonly string[] = MODULES.map((module) => module.definition.name);

export type ControllerName = string;

export function isControllerName(value: string): boolean {
  return CONTROLLER_NAMES.includes(value);
}

export function moduleNamed(name: ControllerName): ErasedModule {
  const module = MODULES.find((candidate) => candidate.definition.name === name);
  if (module === undefined) throw new Error(`no controller named ${name}`);
  return module;
}

/** A module's configuration: its defaults, overridden by the operator settings its options name. */
export function moduleConfig(module: ErasedModule, settings: Readonly<Record<string, unknown>>): unknown {
  const overrides = Object.keys(module.options).filter((key) => key in settings).map((key) => [key, settings[key]]);
  return { ...(module.defaultConfig as object), ...Object.fromEntries(overrides) };
}
