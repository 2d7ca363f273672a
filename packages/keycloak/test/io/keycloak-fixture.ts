// What the Keycloak io integration tests share: a test namespace with the admin credentials Secrets, a
// runtime against the real Keycloak, and a handler context for actions without outputs of earlier steps.
import { randomBytes } from 'node:crypto';
import { coreTypes } from '@keyward/kernel';
import { isOutputRef, resolveTemplate, type OutputRef, type Value } from '@keyward/kernel/plan';
import { KubeClient, type HttpRequestInfo } from '@keyward/runtime/io';
import { type HandlerContext } from '@keyward/kernel/interpreter';
import { adminKubeConfig, createTestNamespace, testKeycloak } from '@keyward/test-env';
import type { KeycloakAction, KeycloakCall, KeycloakServer } from '../../src/apis/keycloak/actions.js';
import { keycloakRuntime, type KeycloakRuntime } from '../../src/io.js';

export const SA_SECRET = 'keycloak-admin-sa';
export const USER_SECRET = 'keycloak-admin-user';

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A context for actions whose values are all known: outputs are taken from `outputs` when a test sets them. */
export function contextWith(outputs: ReadonlyMap<string, unknown> = new Map()): HandlerContext {
  const lookup = (ref: OutputRef<unknown>): unknown => {
    if (!outputs.has(`${ref.step}.${ref.output}`)) throw new Error(`no output ${ref.step}.${ref.output}`);
    return outputs.get(`${ref.step}.${ref.output}`);
  };
  return {
    resolve: <T>(value: Value<T>): T => (isOutputRef(value) ? (lookup(value) as T) : value),
    resolveTemplate: (template) => resolveTemplate(template, lookup),
    lookup,
  };
}

export async function writeSecret(kube: KubeClient, namespace: string, name: string, data: Readonly<Record<string, string>>): Promise<void> {
  const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, stringData: data };
  await kube.apply({ type: coreTypes.secret, namespace, name }, body, true);
}

/** What a handler answered: its outcome and outputs. */
export interface Outcome {
  readonly outcome: string;
  readonly outputs: Readonly<Record<string, unknown>>;
}

export interface KeycloakFixture {
  readonly kube: KubeClient;
  readonly namespace: string;
  readonly runtime: KeycloakRuntime;
  /** Every HTTP attempt the runtime made. */
  readonly requests: HttpRequestInfo[];
  /** A call to the test Keycloak with the credentials in `secret` (the service account's by default). */
  call(secret?: string): KeycloakCall;
  /** Runs one action through the runtime's handler table, as the interpreter would. */
  run(action: KeycloakAction): Promise<Outcome>;
  server(secret?: string): KeycloakServer;
  close(): void;
}

/** A namespace holding both kinds of admin credentials Secret, and a runtime whose every request is recorded. */
export async function keycloakFixture(prefix: string): Promise<KeycloakFixture> {
  const kube = new KubeClient(adminKubeConfig());
  const namespace = await createTestNamespace(prefix);
  const keycloak = testKeycloak();
  await writeSecret(kube, namespace, SA_SECRET, { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret });
  await writeSecret(kube, namespace, USER_SECRET, { username: keycloak.username, password: keycloak.password });
  const requests: HttpRequestInfo[] = [];
  const runtime = keycloakRuntime({ kube, observer: { onRequest: (info) => { requests.push(info); } } });
  const server = (secret = SA_SECRET): KeycloakServer => ({ url: keycloak.url, credentials: { namespace, name: secret } });
  return {
    kube,
    namespace,
    runtime,
    requests,
    server,
    call: (secret) => ({ server: server(secret), chargeTo: namespace }),
    run: (action) => {
      const handler = runtime.handlers[action.kind] as (a: KeycloakAction, c: HandlerContext) => Promise<Outcome>;
      return handler(action, contextWith());
    },
    close: () => {
      runtime.close?.();
      kube.close();
    },
  };
}
