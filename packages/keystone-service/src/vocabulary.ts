import { controlApi, keystoneApi, kubernetesApi, vocabulary } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';

/** What the Keystone controller's plans may do: Kubernetes objects and requeues. */
export type KeystoneAction = KubernetesAction | ControlAction;

/**
 * The APIs the Keystone controller uses: a program running it must provide each of them. Keystone's only for
 * its token query, which proves the API issues tokens.
 */
export const keystoneServiceApis = vocabulary(kubernetesApi, keystoneApi, controlApi);
