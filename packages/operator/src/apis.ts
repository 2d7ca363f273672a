import { apiSet, controlRuntime, type ApiSet } from '@keyward/kernel/interpreter';
import type { ControlAction, KeystoneAction, KubernetesAction, KubernetesQuery } from '@keyward/kernel/plan';
import type { KeycloakAction, KeycloakQuery } from '@keyward/keycloak/api';
import { keystoneRuntime, kubernetesRuntime, type KubeClient, type KeystoneClientOptions } from '@keyward/runtime/io';
import { keycloakRuntime, type KeycloakRuntimeOptions } from '@keyward/keycloak/io';

export interface OperatorApiOptions {
  readonly kube: KubeClient;
  /** events.k8s.io reportingInstance: this process. */
  readonly identity: string;
  readonly keystone?: Omit<KeystoneClientOptions, 'baseUrl'>;
  readonly keycloak?: Omit<KeycloakRuntimeOptions, 'kube'>;
}

/** Every API module the operator ships, put together; the controllers' modules are checked against it. */
export function operatorApis({ kube, identity, keystone, keycloak }: OperatorApiOptions): ApiSet<KubernetesAction | KeystoneAction | KeycloakAction | ControlAction, KubernetesQuery | KeycloakQuery> {
  return apiSet(
    kubernetesRuntime(kube, { reportingController: 'keyward.dev/operator', reportingInstance: identity }),
    keystoneRuntime({ kube, ...(keystone === undefined ? {} : { client: keystone }) }),
    keycloakRuntime({ kube, ...keycloak }),
    controlRuntime,
  );
}

export type OperatorApis = ReturnType<typeof operatorApis>;
