import { controlApi, kubernetesApi, vocabulary } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';

/** What the APIKey enforcement controller's plans may do: Kubernetes objects only (and requeues). */
export type APIKeyAction = KubernetesAction | ControlAction;

/** The APIs the APIKey enforcement controller uses. */
export const apiKeyApis = vocabulary(kubernetesApi, controlApi);
