import { controlApi, keystoneApi, kubernetesApi, vocabulary, type ControlAction, type KeystoneAction, type KubernetesAction } from '@keyward/vocabulary';

/** What the appcred controller's plans may do: Kubernetes objects, Keystone credentials, requeues. */
export type AppCredAction = KubernetesAction | KeystoneAction | ControlAction;

/** The APIs the appcred controller uses: a program running it must provide each of them. */
export const appCredApis = vocabulary(kubernetesApi, keystoneApi, controlApi);
