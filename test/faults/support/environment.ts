// The real environment a fault scenario starts for itself (it stops components, so it cannot share one),
// with a Keystone service user whose password Secret the CRs of a namespace use.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coreTypes, sensitive } from '@keyward/core';
import { KeystoneClient, KubeClient } from '@keyward/core/interpreter';
import { KeystoneAdmin, TEST_CRD_FOLDERS, startEnvironment, type Environment } from '@keyward/test-env';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export function inRepository(path: string): string {
  return join(repositoryRoot, path);
}

/** Progress goes to stderr: stdout carries only the scenario's JSON. */
export function progress(line: string): void {
  process.stderr.write(`[faults] ${line}\n`);
}

export interface FaultEnvironment {
  readonly env: Environment;
  readonly kube: KubeClient;
  readonly keystoneUrl: string;
  readonly user: { readonly userName: string; readonly password: string };
  /** The user's live application credentials in Keystone whose names start with `prefix`. */
  liveCredentials(prefix?: string): Promise<{ readonly id: string; readonly name: string }[]>;
  stop(): Promise<void>;
}

export const PASSWORD_SECRET = 'osp-secret';
export const PASSWORD_KEY = 'ServicePassword';

export async function startFaultEnvironment(): Promise<FaultEnvironment> {
  const env = await startEnvironment({ ownership: 'session', keystone: true, crdFolders: TEST_CRD_FOLDERS.map(inRepository), log: (line) => { progress(line); } });
  const keystone = env.info.keystone;
  if (keystone === undefined) throw new Error('the environment started without Keystone');
  const user = { userName: 'faults-service', password: `pw-${randomBytes(12).toString('hex')}` };
  await (await KeystoneAdmin.login(keystone)).ensureServiceUser(user);
  const kube = new KubeClient(env.kubeConfig());
  const liveCredentials = async (prefix = ''): Promise<{ id: string; name: string }[]> => {
    const client = new KeystoneClient({ baseUrl: keystone.url });
    const login = await client.authenticate({ userName: user.userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(user.password) });
    return (await client.listApplicationCredentials(login.token, login.userId)).filter((c) => c.name.startsWith(prefix)).map(({ id, name }) => ({ id, name }));
  };
  return {
    env,
    kube,
    keystoneUrl: keystone.url,
    user,
    liveCredentials,
    stop: async () => {
      kube.close();
      await env.stop();
    },
  };
}

/** A namespace holding the password Secret of the environment's service user. */
export async function namespaceWithPassword(fault: FaultEnvironment, name: string): Promise<string> {
  await fault.kube.create({ type: coreTypes.namespace, name }, { metadata: { name } });
  await fault.kube.create({ type: coreTypes.secret, namespace: name, name: PASSWORD_SECRET }, { metadata: { name: PASSWORD_SECRET }, stringData: { [PASSWORD_KEY]: fault.user.password } });
  return name;
}
