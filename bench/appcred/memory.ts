// Resident memory of the operator (its real binary, in its own process, every controller, all namespaces) with
// 200 converged KeystoneApplicationCredentials, before and after 5,000 unrelated Secrets appear in another
// namespace. Target: the Secrets add at most 10 MiB, i.e. nothing caches Secrets it does not manage. Figures
// are compared after a forced full GC: as found, they differ by tens of MiB with the time of the last one.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { coreTypes } from '@keyward/core';
import { KubeClient } from '@keyward/core/interpreter';
import { appCredType } from '@keyward/keystone-appcred';
import { freeLoopbackPort, httpCall, type Environment } from '@keyward/test-env';
import { createNamespace, inRepository, startBenchEnvironment } from '../support/environment.js';
import { inBatches } from '../support/pool.js';
import { median, rounded, within } from '../support/timing.js';
import { whenCount } from '../support/watch.js';
import { isReady, namespaceWithCrs, serviceUser } from './setup.js';

const CRS = 200;
const UNRELATED_SECRETS = 5_000;
const SECRET_BYTES = 100;
const SAMPLES = 10;
const SAMPLE_INTERVAL_MS = 1_000;
/** After a change, before measuring: the operator's reactions to it, if any, are over by then. */
const SETTLE_MS = 15_000;
/**
 * After the forced collection, before sampling: most memory goes back at once, but V8's memory reducer gives
 * back a few more MiB some twenty seconds later.
 */
const AFTER_GC_MS = 30_000;
const MIB = 1024 * 1024;

interface Operator {
  readonly process: ChildProcess;
  readonly metricsUrl: string;
  /** The end of its output, for an error message. */
  output(): string;
}

/** The keyward binary as e2e.int.test.ts starts it (TypeScript sources through tsx), with its defaults otherwise. */
async function startOperator(environment: Environment, keystoneUrl: string): Promise<Operator> {
  const metricsPort = await freeLoopbackPort();
  const child = spawn(process.execPath, [
    '--import', 'tsx', '--conditions=@keyward/source',
    // Only a signal handler that collects garbage on request; see gc-on-signal.ts.
    '--expose-gc', '--import', inRepository('bench/support/gc-on-signal.ts'),
    inRepository('packages/operator/src/main.ts'), 'run',
    '--kubeconfig', environment.info.kubeconfig,
    '--keystone-url', keystoneUrl,
    '--lease-namespace', 'default',
    '--metrics-bind-address', `127.0.0.1:${String(metricsPort)}`,
    '--health-bind-address', '0',
    '--log-format', 'json',
    '--log-level', 'warn',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer): void => { tail = (tail + chunk.toString('utf8')).slice(-4_000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { process: child, metricsUrl: `http://127.0.0.1:${String(metricsPort)}/metrics`, output: () => tail };
}

async function stopOperator(operator: Operator): Promise<void> {
  const child = operator.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await within(exited, 15_000, 'the operator to exit').catch(() => child.kill('SIGKILL'));
}

/** VmRSS of a process, from the kernel (what the container's memory limit is measured against). */
function residentBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  if (line?.[1] === undefined) throw new Error(`no VmRSS for process ${String(pid)}`);
  return Number(line[1]) * 1024;
}

/** V8's used heap as the operator's own metrics report it (prom-client default metrics). */
async function heapUsedBytes(operator: Operator): Promise<number> {
  const metrics = (await httpCall(operator.metricsUrl, { timeoutMs: 10_000 })).body;
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics)?.[1] ?? Number.NaN);
}

interface Window {
  readonly rssMiB: number;
  readonly rssRangeMiB: readonly [number, number];
  readonly heapUsedMiB: number;
}

interface Measurement {
  /** As found: depends on when V8 last collected, which after a burst of work can be a minute later. */
  readonly asFound: Window;
  /** After a forced full collection: what the operator keeps. */
  readonly afterGc: Window;
}

/** Medians of samples taken over about ten seconds: one sample catches a GC cycle at any point. */
async function sampleWindow(operator: Operator): Promise<Window> {
  const rss: number[] = [];
  const heap: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const pid = operator.process.pid ?? 0;
    rss.push(residentBytes(pid) / MIB);
    heap.push((await heapUsedBytes(operator)) / MIB);
    await sleep(SAMPLE_INTERVAL_MS);
  }
  return { rssMiB: rounded(median(rss), 1), rssRangeMiB: [rounded(Math.min(...rss), 1), rounded(Math.max(...rss), 1)], heapUsedMiB: rounded(median(heap), 1) };
}

/** A window as found, then one after a full collection the preloaded handler runs on SIGUSR2. */
async function measure(operator: Operator): Promise<Measurement> {
  const asFound = await sampleWindow(operator);
  operator.process.kill('SIGUSR2');
  await sleep(AFTER_GC_MS);
  return { asFound, afterGc: await sampleWindow(operator) };
}

async function unrelatedSecrets(kube: KubeClient, namespace: string): Promise<void> {
  await createNamespace(kube, namespace);
  await inBatches(UNRELATED_SECRETS, 50, (i) => {
    const name = `unrelated-${String(i)}`;
    return kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { value: 'x'.repeat(SECRET_BYTES) } });
  });
}

const environment = await startBenchEnvironment({ keystone: true });
const kube = new KubeClient(environment.kubeConfig());
let operator: Operator | undefined;
try {
  const { keystoneUrl, user } = await serviceUser(environment.info);
  await namespaceWithCrs(kube, 'bench', user, CRS);
  const ready = await whenCount(kube, { type: appCredType, namespace: 'bench' }, CRS, isReady);
  const started = await startOperator(environment, keystoneUrl);
  operator = started;
  await within(ready.reached, 10 * 60_000, `${String(CRS)} CRs to be Ready`).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; operator output: ${started.output()}`);
  });
  await ready.stop();

  await sleep(SETTLE_MS);
  const baseline = await measure(started);
  await unrelatedSecrets(kube, 'unrelated');
  await sleep(SETTLE_MS);
  const withSecrets = await measure(started);

  console.log(JSON.stringify({
    benchmark: 'appcred-memory',
    crs: CRS,
    unrelatedSecrets: { count: UNRELATED_SECRETS, dataBytes: SECRET_BYTES, namespace: 'unrelated' },
    operator: 'keyward run from sources through tsx: every controller, all namespaces, defaults otherwise',
    samples: `median of ${String(SAMPLES)}, ${String(SAMPLE_INTERVAL_MS)} ms apart, ${String(SETTLE_MS / 1000)} s after each change; as found, then ${String(AFTER_GC_MS / 1000)} s after a forced full GC`,
    baseline,
    withSecrets,
    deltaMiB: {
      afterGc: rounded(withSecrets.afterGc.rssMiB - baseline.afterGc.rssMiB, 1),
      asFound: rounded(withSecrets.asFound.rssMiB - baseline.asFound.rssMiB, 1),
    },
    targets: { deltaMiBAfterGc: 10 },
  }, null, 2));
} finally {
  if (operator !== undefined) await stopOperator(operator);
  kube.close();
  await environment.stop();
}
