// What the Keycloak benchmarks set up: the admin credentials Secret, KeycloakRealm and KeycloakClient objects,
// and both controllers as the operator builds them (one Kubernetes client, the Keycloak runtime with its
// fair rate limiter shared by both controllers).
import { coreTypes, findCondition, type Condition, type KubeObject } from '@keyward/kernel';
import { KubeClient, kubernetesRuntime, type FairRateLimiter, type HttpRequestObserver, type KubeRequestInfo } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller, type ControllerObserver } from '@keyward/runtime/controller';
import {
  defaultKeycloakConfig,
  keycloakClientController,
  keycloakClientType,
  keycloakRealmController,
  keycloakRealmType,
  type KeycloakConfig,
} from '@keyward/keycloak';
import { keycloakRuntime } from '@keyward/keycloak/io';
import type { Environment } from '@keyward/test-env';
import { createNamespace } from '../support/environment.js';

export const OPERATOR_NAMESPACE = 'keyward-system';
const ADMIN_SECRET = 'keycloak-admin';
const API_VERSION = 'vriesdemichael.github.io/v1';

/**
 * The operator's namespace with the admin credentials Secret (the bootstrap service account,
 * client_credentials), and the configuration both controllers read.
 */
export async function keycloakConfig(kube: KubeClient, environment: Environment): Promise<KeycloakConfig> {
  const keycloak = environment.info.keycloak;
  if (keycloak === undefined) throw new Error('the environment was started without Keycloak');
  await createNamespace(kube, OPERATOR_NAMESPACE);
  await kube.create({ type: coreTypes.secret, namespace: OPERATOR_NAMESPACE, name: ADMIN_SECRET }, {
    metadata: { name: ADMIN_SECRET },
    stringData: { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret },
  });
  return {
    ...defaultKeycloakConfig,
    keycloakUrl: keycloak.url,
    keycloakAdminSecret: { namespace: OPERATOR_NAMESPACE, name: ADMIN_SECRET },
    keycloakOperatorNamespace: OPERATOR_NAMESPACE,
  };
}

/** A KeycloakRealm object named after its realm, with `spec` beside the realm's name. */
export async function createRealmObject(kube: KubeClient, namespace: string, realmName: string, spec: Readonly<Record<string, unknown>>): Promise<void> {
  await kube.create({ type: keycloakRealmType, namespace, name: realmName }, {
    apiVersion: API_VERSION,
    kind: 'KeycloakRealm',
    metadata: { name: realmName, namespace },
    spec: { realmName, ...spec },
  });
}

/** A realm with a few settings of each kind a team states, granting `grants` its clients. */
export async function createRealm(kube: KubeClient, namespace: string, realmName: string, grants: readonly string[]): Promise<void> {
  await createRealmObject(kube, namespace, realmName, {
    displayName: `Realm ${realmName}`,
    clientAuthorizationGrants: grants,
    security: { registrationAllowed: false, resetPasswordAllowed: true, bruteForceProtected: true },
    tokenSettings: { accessTokenLifespan: 600 },
  });
}

/** A confidential web client (its credentials Secret written by the controller) in the realm object `realm`. */
export async function createClient(kube: KubeClient, namespace: string, name: string, realm: { readonly namespace: string; readonly name: string }): Promise<void> {
  await kube.create({ type: keycloakClientType, namespace, name }, {
    apiVersion: API_VERSION,
    kind: 'KeycloakClient',
    metadata: { name, namespace },
    spec: {
      clientId: `${namespace}-${name}`,
      realmRef: realm,
      redirectUris: [`https://${name}.example.com/callback`],
      webOrigins: [`https://${name}.example.com`],
      settings: { standardFlowEnabled: true, pkceCodeChallengeMethod: 'S256' },
    },
  });
}

export function isReady(object: KubeObject): boolean {
  const conditions = (object['status'] as { conditions?: readonly Condition[] } | undefined)?.conditions;
  return findCondition(conditions, 'Ready')?.status === 'True';
}

export interface ControllerWiring {
  readonly limiter: FairRateLimiter;
  readonly concurrency: number;
  /** Told about every HTTP attempt to Keycloak. */
  readonly keycloakObserver: HttpRequestObserver;
  readonly onKubeRequest?: (info: KubeRequestInfo) => void;
  /** Told about every reconcile (and plan step) of both controllers. */
  readonly observer?: ControllerObserver;
}

/**
 * Both controllers as the operator wires them (wiring.ts): one Kubernetes client and one Keycloak runtime
 * with the given limiter, for all namespaces, `concurrency` reconciles at once each.
 */
export function keycloakControllers(environment: Environment, config: KeycloakConfig, wiring: ControllerWiring) {
  const kube = new KubeClient(environment.kubeConfig(), wiring.onKubeRequest === undefined ? {} : { onRequest: wiring.onKubeRequest });
  const apis = apiSet(
    kubernetesRuntime(kube, { reportingController: 'keyward.dev/operator', reportingInstance: 'bench' }),
    keycloakRuntime({ kube, limiter: wiring.limiter, observer: wiring.keycloakObserver }),
    controlRuntime,
  );
  const options = { kube, apis, config, namespace: undefined, concurrency: wiring.concurrency, ...(wiring.observer === undefined ? {} : { observer: wiring.observer }) };
  const realms = new Controller(keycloakRealmController, options);
  const clients = new Controller(keycloakClientController, options);
  return {
    realms,
    clients,
    stop: async () => {
      await clients.stop();
      await realms.stop();
      apis.close();
      kube.close();
    },
  };
}
