import { controlApi, keystoneApi, kubernetesApi, vocabulary } from '@keyward/kernel';
import { type ControlAction, type KeystoneAction, type KubernetesAction } from '@keyward/kernel/plan';

/** What the appcred controller's plans may do: Kubernetes objects, Keystone credentials, requeues. */
export type AppCredAction = KubernetesAction | KeystoneAction | ControlAction;

/** The APIs the appcred controller uses: a program running it must provide each of them. */
export const appCredApis = vocabulary(kubernetesApi, keystoneApi, controlApi);
