// The real environment a fault scenario runs in, with a Keystone service user of the scenario's own whose
// password Secret the CRs of a namespace use. A scenario that leaves its environment whole (it kills only the
// operator, or stands a proxy in front of Keystone) runs in the test run's shared environment when it is given
// one (KEYWARD_ENV_FILE, as the jest integration run sets it); one that stops a component of its environment
// (the API server) always starts its own, as every scenario does when run alone (`pnpm faults`).
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coreTypes, sensitive } from '@keyward/kernel';
import { KeystoneClient, KubeClient } from '@keyward/runtime/io';
import {
  ENV_FILE_VARIABLE,
  KeystoneAdmin,
  TEST_CRD_FOLDERS,
  attachEnvironment,
  kubeConfigFor,
  recordSecretIn,
  startEnvironment,
  type Environment,
  type EnvironmentInfo,
} from '@keyward/test-env';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export function inRepository(path: string): string {
  return join(repositoryRoot, path);
}

/** Progress goes to stderr: stdout carries only the scenario's JSON. */
export function progress(line: string): void {
  process.stderr.write(`[faults] ${line}\n`);
}

export interface FaultEnvironment {
  readonly info: EnvironmentInfo;
  readonly kube: KubeClient;
  readonly keystoneUrl: string;
  readonly user: { readonly userName: string; readonly password: string };
  /** The user's live application credentials in Keystone whose names start with `prefix`. */
  liveCredentials(prefix?: string): Promise<{ readonly id: string; readonly name: string }[]>;
  stop(): Promise<void>;
}

/** A fault environment this scenario started, whose components it may stop and start. */
export interface OwnFaultEnvironment extends FaultEnvironment {
  readonly env: Environment;
}

export const PASSWORD_SECRET = 'osp-secret';
export const PASSWORD_KEY = 'ServicePassword';

/** A namespace name of the scenario's: unique, so that scenarios sharing an environment never meet. */
export function scenarioNamespace(name: string): string {
  return `${name}-${randomBytes(3).toString('hex')}`;
}

/** The run's shared environment when there is one, else one of the scenario's own; `scenario` names its user. */
export async function startFaultEnvironment(scenario: string): Promise<FaultEnvironment> {
  const envFile = process.env[ENV_FILE_VARIABLE];
  if (envFile === undefined) return startOwnFaultEnvironment(scenario);
  const info = attachEnvironment(dirname(envFile));
  progress(`running in the shared environment ${info.dir}`);
  return faultEnvironment(info, scenario, () => Promise.resolve());
}

/** An environment of the scenario's own, for a scenario that stops its components. */
export async function startOwnFaultEnvironment(scenario: string): Promise<OwnFaultEnvironment> {
  const env = await startEnvironment({ ownership: 'session', keystone: true, crdFolders: TEST_CRD_FOLDERS.map(inRepository), log: (line) => { progress(line); } });
  return { ...(await faultEnvironment(env.info, scenario, () => env.stop())), env };
}

async function faultEnvironment(info: EnvironmentInfo, scenario: string, stopEnvironment: () => Promise<void>): Promise<FaultEnvironment> {
  const keystone = info.keystone;
  if (keystone === undefined) throw new Error('the environment has no Keystone');
  const user = { userName: `faults-${scenario}-${randomBytes(3).toString('hex')}`, password: `pw-${randomBytes(12).toString('hex')}` };
  // The operator's logs land in the environment's folder: its secret scan looks for this password there.
  recordSecretIn(info.dir, user.password);
  await (await KeystoneAdmin.login(keystone)).ensureServiceUser(user);
  const kube = new KubeClient(kubeConfigFor(info));
  const liveCredentials = async (prefix = ''): Promise<{ id: string; name: string }[]> => {
    const client = new KeystoneClient({ baseUrl: keystone.url });
    const login = await client.authenticate({ userName: user.userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(user.password) });
    return (await client.listApplicationCredentials(login.token, login.userId)).filter((c) => c.name.startsWith(prefix)).map(({ id, name }) => ({ id, name }));
  };
  return {
    info,
    kube,
    keystoneUrl: keystone.url,
    user,
    liveCredentials,
    stop: async () => {
      kube.close();
      await stopEnvironment();
    },
  };
}

/** A namespace holding the password Secret of the environment's service user. */
export async function namespaceWithPassword(fault: FaultEnvironment, name: string): Promise<string> {
  await fault.kube.create({ type: coreTypes.namespace, name }, { metadata: { name } });
  await fault.kube.create({ type: coreTypes.secret, namespace: name, name: PASSWORD_SECRET }, { metadata: { name: PASSWORD_SECRET }, stringData: { [PASSWORD_KEY]: fault.user.password } });
  return name;
}
