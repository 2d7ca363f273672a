import { apiSet, type ApiSet } from '@keyward/kernel/interpreter';
import type { ControlAction, KeystoneAction, KeystoneQuery, KubernetesAction, KubernetesQuery } from '@keyward/kernel/plan';
import type { KeycloakAction, KeycloakQuery } from '@keyward/keycloak/api';
import { controlApiModule } from './api-modules/control.js';
import { keycloakApiModule } from './api-modules/keycloak.js';
import { keystoneApiModule } from './api-modules/keystone.js';
import { kubernetesApiModule } from './api-modules/kubernetes.js';
import type { ApiContext, Settings } from './api-modules/module.js';
import type { SandboxHandlers } from './planning/rounds.js';

/**
 * The API modules the operator is built with. Adding an API adds its module here, and nothing else in the
 * operator: its runtime, options, Helm values, metrics and plan sandbox come from the module, and the
 * controllers' modules are checked against the set (controllers.ts).
 */
export const API_MODULES = [kubernetesApiModule, keystoneApiModule, keycloakApiModule, controlApiModule] as const;

export interface OperatorApiOptions extends ApiContext {
  /** The operator's settings, of which each module reads those its options name; its defaults without. */
  readonly settings?: Settings;
}

/** Every action and query the operator's API modules handle; written out, as the declarations must name them. */
type OperatorApiSet = ApiSet<KubernetesAction | KeystoneAction | KeycloakAction | ControlAction, KubernetesQuery | KeystoneQuery | KeycloakQuery>;

/** Every API module the operator ships, put together; the controllers' modules are checked against it. */
export function operatorApis({ settings = {}, ...context }: OperatorApiOptions): OperatorApiSet {
  return apiSet(...API_MODULES.map((module) => module.runtime(context, settings)));
}

export type OperatorApis = ReturnType<typeof operatorApis>;

/** What stands in for the APIs besides Kubernetes in `keyward plan`'s sandbox. */
export function operatorSandbox(): SandboxHandlers {
  return Object.fromEntries(API_MODULES.flatMap((module) => Object.entries(module.sandbox?.() ?? {})));
}
