import { apiSet, controlRuntime, keystoneRuntime, kubernetesRuntime, type KubeClient, type KeystoneClientOptions } from '@keyward/core/interpreter';

export interface OperatorApiOptions {
  readonly kube: KubeClient;
  /** events.k8s.io reportingInstance: this process. */
  readonly identity: string;
  readonly keystone?: Omit<KeystoneClientOptions, 'baseUrl'>;
}

/** Every API module the operator ships, put together; the controllers' modules are checked against it. */
export function operatorApis({ kube, identity, keystone }: OperatorApiOptions) {
  return apiSet(
    kubernetesRuntime(kube, { reportingController: 'keyward.dev/operator', reportingInstance: identity }),
    keystoneRuntime({ kube, ...(keystone === undefined ? {} : { client: keystone }) }),
    controlRuntime,
  );
}

export type OperatorApis = ReturnType<typeof operatorApis>;
