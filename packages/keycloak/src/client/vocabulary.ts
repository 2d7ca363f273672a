import { controlApi, kubernetesApi, vocabulary } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { keycloakApi } from '../apis/keycloak/api.js';
import type { KeycloakAction } from '../apis/keycloak/actions.js';

/** What the KeycloakClient controller's plans may do: Kubernetes objects, Keycloak, requeues. */
export type ClientAction = KubernetesAction | KeycloakAction | ControlAction;

/** The APIs the KeycloakClient controller uses: a program running it must provide each of them. */
export const clientApis = vocabulary(kubernetesApi, controlApi, keycloakApi);
