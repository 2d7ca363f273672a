import { controlApi, kubernetesApi, vocabulary, type ControlAction, type KubernetesAction } from '@keyward/vocabulary';

/** What the APIKey enforcement controller's plans may do: Kubernetes objects only (and requeues). */
export type APIKeyAction = KubernetesAction | ControlAction;

/** The APIs the APIKey enforcement controller uses. */
export const apiKeyApis = vocabulary(kubernetesApi, controlApi);
