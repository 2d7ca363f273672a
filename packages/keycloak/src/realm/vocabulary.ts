import { controlApi, kubernetesApi, vocabulary } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import type { KeycloakAction } from '../apis/keycloak/actions.js';
import { keycloakApi } from '../apis/keycloak/api.js';

/** What a KeycloakRealm's plans may do: write Keycloak, its own object and events, and requeue. */
export type KeycloakRealmAction = KubernetesAction | ControlAction | KeycloakAction;

/** The APIs the KeycloakRealm controller uses: a program running it must provide each of them. */
export const keycloakRealmApis = vocabulary(kubernetesApi, controlApi, keycloakApi);
