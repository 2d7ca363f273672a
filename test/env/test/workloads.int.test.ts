// jest-cost: 225 s
// jest-exclusive: workload tier
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { kubeConfigFor, startEnvironment, type Environment, type EnvironmentInfo } from '../src/environment.js';
import { ComponentError } from '../src/errors.js';
import { httpCall } from '../src/http.js';
import { oneShotPod, runPodOnce } from '../src/pods.js';
import { holdForThisFile } from '../src/testing.js';
import { waitFor } from '../src/wait.js';
import { CommandRun } from './support/command-run.js';
import { shimSockets, tierLeftovers } from './support/tier-leftovers.js';

const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));
const quiet = (): undefined => undefined;

// Every test here starts, stops or inspects the machine's one workload tier: no other file's tier may run meanwhile.
let release: () => void;
beforeAll(async () => {
  release = await holdForThisFile('workload tier');
}, 30 * 60_000);
afterAll(() => {
  release();
});

async function createNamespace(kubeConfig: KubeConfig): Promise<string> {
  const name = `tier-${randomBytes(3).toString('hex')}`;
  await kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  return name;
}

describe('the workload tier', () => {
  let environment: Environment;
  let info: EnvironmentInfo;
  let kubeConfig: KubeConfig;
  let namespace: string;
  let image: string;
  const socketsBefore = shimSockets();
  /** A tier before this one whose processes were all killed at once (SIGKILL) while a pod ran, and what it left. */
  let killed: { readonly info: EnvironmentInfo; readonly leftovers: readonly string[] };

  beforeAll(async () => {
    killed = await killedWithRunningPod(socketsBefore);
    // The next environment with the tier cleans up after it, then starts.
    // MariaDB for the pods' database test; no host Keystone, which no test here uses.
    environment = await startEnvironment({ ownership: 'session', keystone: false, mariadb: true, workloads: true, log: quiet });
    info = environment.info;
    kubeConfig = kubeConfigFor(info);
    namespace = await createNamespace(kubeConfig);
    image = info.workloads?.images.keystone ?? '';
  }, 900_000);

  it('starts after a tier whose processes were all killed at once (SIGKILL) while a pod ran, keeping only its folder', () => {
    // Left running then: containerd's shims and the pod's containers; left in place: mounts, cgroups, bridge, rules, lock.
    expect(killed.leftovers.length).toBeGreaterThan(1);
    expect(existsSync(killed.info.dir)).toBe(true);
  });

  afterAll(async () => {
    await environment.stop();
  }, 120_000);

  it('runs a pod from a locally built image', async () => {
    expect(await runPodOnce(kubeConfig, namespace, { name: 'hello', image, command: ['python3', '-c', 'print("hello from a pod")'] })).toEqual({ phase: 'Succeeded', log: 'hello from a pod\n' });
  }, 180_000);

  it('makes a Deployment available, and its Service answers from the host (ClusterIP and NodePort) and from a pod', async () => {
    const labels = { app: 'web' };
    await kubeConfig.makeApiClient(AppsV1Api).createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              containers: [
                {
                  name: 'web',
                  image,
                  imagePullPolicy: 'Never',
                  command: ['python3', '-m', 'http.server', '8080'],
                  readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 },
                },
              ],
            },
          },
        },
      },
    });
    const available = await waitFor(
      async () => {
        const { status } = await kubeConfig.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'web', namespace });
        return status?.conditions?.find((c) => c.type === 'Available' && c.status === 'True') === undefined ? undefined : status.availableReplicas;
      },
      { what: 'Deployment web to be Available', timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(available).toBe(1);

    const service = await kubeConfig.makeApiClient(CoreV1Api).createNamespacedService({
      namespace,
      body: { metadata: { name: 'web' }, spec: { type: 'NodePort', selector: labels, ports: [{ port: 80, targetPort: 8080 }] } },
    });
    const clusterIp = service.spec?.clusterIP ?? '';
    const nodePort = service.spec?.ports?.[0]?.nodePort ?? 0;
    // kube-proxy writes the Service's rules within a second or so of its endpoints appearing; until then the
    // address may lead elsewhere (this host's default route), so only the pod's own answer counts.
    const answer = (url: string): Promise<string> =>
      waitFor(
        async () => {
          const response = await httpCall(url, { timeoutMs: 2_000 });
          return response.status === 200 && response.body.includes('Directory listing for /') ? `${String(response.status)} from the pod` : undefined;
        },
        { what: `${url} to answer from the pod`, timeoutMs: 60_000, intervalMs: 500 },
      );
    expect(await answer(`http://${clusterIp}/`)).toBe('200 from the pod');
    expect(await answer(`http://${info.workloads?.nodeIp ?? ''}:${String(nodePort)}/`)).toBe('200 from the pod');

    // And from another pod, through the ClusterIP (kube-proxy masquerades, so the answer finds its way back).
    const fetch = `import urllib.request; print(urllib.request.urlopen('http://${clusterIp}/', timeout=5).status)`;
    expect(await runPodOnce(kubeConfig, namespace, { name: 'web-client', image, command: ['python3', '-c', fetch] })).toEqual({ phase: 'Succeeded', log: '200\n' });
  }, 240_000);

  it('lets a pod reach MariaDB on the node IP, as the pods user', async () => {
    const database = info.workloads?.database;
    if (database === undefined) throw new Error('the environment has no database for pods');
    const core = kubeConfig.makeApiClient(CoreV1Api);
    // The password goes through a Secret, not the command line, which the API server and kubelet log.
    await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'db' }, stringData: { password: database.password } } });
    const script = [
      'import os, pymysql',
      "c = pymysql.connect(host=os.environ['DB_HOST'], port=int(os.environ['DB_PORT']), user=os.environ['DB_USER'], password=os.environ['DB_PASSWORD'])",
      'cur = c.cursor()',
      "cur.execute('SELECT CURRENT_USER()')",
      "print('connected as', cur.fetchone()[0])",
    ].join('\n');
    const env = [
      { name: 'DB_HOST', value: database.host },
      { name: 'DB_PORT', value: String(database.port) },
      { name: 'DB_USER', value: database.user },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
    ];
    expect(await runPodOnce(kubeConfig, namespace, { name: 'db-client', image, command: ['python3', '-c', script], env })).toEqual({ phase: 'Succeeded', log: `connected as ${database.user}@10.213.0.%\n` });
  }, 180_000);

  it('refuses a second tier on the same machine when told not to wait, naming the step, and starts nothing', async () => {
    const error = await startEnvironment({ ownership: 'session', keystone: false, workloads: true, workloadsWaitMs: 0, log: quiet }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ComponentError);
    expect((error as ComponentError).component).toBe('node network');
    expect((error as ComponentError).message).toContain(`the environment in ${info.dir} runs the workload tier`);
  }, 120_000);

  it('leaves nothing behind once stopped: no process, mount, cgroup, bridge, iptables rule, lock or folder', async () => {
    await environment.stop();
    expect(tierLeftovers(info.dir, socketsBefore)).toEqual([]);
    // Of the killed tier, only its folder, kept for its logs.
    expect(tierLeftovers(killed.info.dir, socketsBefore)).toEqual([`folder ${killed.info.dir}`]);
    rmSync(killed.info.dir, { recursive: true, force: true });
  }, 120_000);
});

/** An environment with the tier in a child process (see fixtures/run-environment.ts), with a pod running in it. */
async function startWithRunningPod(): Promise<{ info: EnvironmentInfo; child: ReturnType<typeof spawn>; exited: Promise<number | null> }> {
  // Its pod runs the sandbox image alone, so Keystone's image need not be unpacked.
  const child = spawn(process.execPath, ['--import', 'tsx', join(fixtures, 'run-environment.ts'), '--workloads', '--lazy-images'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { resolve(code); }));
  let info: EnvironmentInfo | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    info = JSON.parse(line) as EnvironmentInfo;
    break;
  }
  if (info === undefined) throw new Error('the environment process ended without reporting its environment');
  const kubeConfig = kubeConfigFor(info);
  const namespace = await createNamespace(kubeConfig);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  // The pause image's one program, /pause, waits until it is stopped.
  await core.createNamespacedPod({ namespace, body: oneShotPod({ name: 'sleeper', image: info.workloads?.images.pause ?? '', command: ['/pause'] }) });
  await waitFor(async () => ((await core.readNamespacedPod({ name: 'sleeper', namespace })).status?.phase === 'Running' ? true : undefined), {
    what: 'pod sleeper to run',
    timeoutMs: 120_000,
    intervalMs: 500,
  });
  return { info, child, exited };
}

describe('a workload tier whose owner gets SIGTERM while a pod runs', () => {
  it('is stopped and cleaned up like the rest of the environment', async () => {
    const socketsBefore = shimSockets();
    const { info, child, exited } = await startWithRunningPod();
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(tierLeftovers(info.dir, socketsBefore)).toEqual([]);
  }, 900_000);
});

describe('pnpm devenv up --workloads', () => {
  it('stops everything and cleans up the tier on SIGTERM in the middle of start-up, once kubelet runs', async () => {
    const socketsBefore = shimSockets();
    const run = CommandRun.start(process.execPath, ['--import', 'tsx', 'test/env/src/cli.ts', 'up', '--workloads']);
    try {
      // Keystone and Keycloak are still starting then.
      await run.waitForLine(/kubelet ready/);
      run.terminate();
      expect(await run.exited).toEqual({ code: 143, signal: null });
      expect(await run.processesLeft()).toEqual([]);
      expect(run.foldersLeft()).toEqual([]);
      // Every environment folder of the run lies in its TMPDIR.
      expect(tierLeftovers(run.tmp, socketsBefore)).toEqual([`folder ${run.tmp}`]);
    } finally {
      run.cleanUp();
    }
  }, 900_000);
});

/** Starts an environment with the tier and a running pod, then kills all its processes at once (SIGKILL). */
async function killedWithRunningPod(socketsBefore: ReturnType<typeof shimSockets>): Promise<{ info: EnvironmentInfo; leftovers: string[] }> {
  const { info, child, exited } = await startWithRunningPod();
  child.kill('SIGKILL');
  await exited;
  for (const component of info.components) {
    try {
      process.kill(-component.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  return { info, leftovers: tierLeftovers(info.dir, socketsBefore) };
}
