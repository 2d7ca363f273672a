import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordSecretIn } from './secret-scan.js';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { kubeConfigFor, type EnvironmentInfo } from './environment.js';
import { KeystoneAdmin } from './keystone-admin.js';

/** Set by the jest global setup to the env.json of the environment the tests use. */
export const ENV_FILE_VARIABLE = 'KEYWARD_ENV_FILE';

/** CRD folders (relative to the repository root) installed for the integration tests. */
export const TEST_CRD_FOLDERS = ['deploy/crds', 'test/fixtures/crds'] as const;

/**
 * Records a secret a test created (a password, an API key, a credential secret). When the run ends, every
 * log of the environment (components, operators, in-process controllers) is scanned for it, and the run
 * fails if any contains it.
 */
export function rememberSecret(value: string): string {
  recordSecretIn(testEnvironment().dir, value);
  return value;
}

/** A file in the environment folder for the logs of something a test runs (an operator, a controller). */
export function testLogFile(name: string): string {
  const dir = join(testEnvironment().dir, 'test-logs');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.log`);
}

/** The environment of this test run. */
export function testEnvironment(): EnvironmentInfo {
  const file = process.env[ENV_FILE_VARIABLE];
  if (file === undefined) throw new Error(`${ENV_FILE_VARIABLE} is not set: run integration tests through the jest "integration" project`);
  return JSON.parse(readFileSync(file, 'utf8')) as EnvironmentInfo;
}

/** A kubeconfig for the system:masters user. */
export function adminKubeConfig(): KubeConfig {
  return kubeConfigFor(testEnvironment());
}

/** A kubeconfig that authenticates with `token` against the test API server. */
export function kubeConfigWithToken(token: string, user: string): KubeConfig {
  const { kubernetes } = testEnvironment();
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'keyward', server: kubernetes.server, caData: Buffer.from(kubernetes.caPem).toString('base64') }],
    users: [{ name: user, token }],
    contexts: [{ name: 'keyward', cluster: 'keyward', user }],
    currentContext: 'keyward',
  });
  return kubeConfig;
}

/** A fresh namespace with a unique name; tests never share objects. */
export async function createTestNamespace(prefix: string): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await adminKubeConfig().makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  return name;
}

/** A logged-in Keystone admin client for setting up test users. */
export async function keystoneAdmin(): Promise<KeystoneAdmin> {
  const { keystone } = testEnvironment();
  if (keystone === undefined) throw new Error('this environment was started without Keystone');
  return KeystoneAdmin.login(keystone);
}
