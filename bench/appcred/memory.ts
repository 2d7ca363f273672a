// Resident memory of the operator (the image's bundle started as the image starts it, in its own process, every
// controller, all namespaces) with 200 converged KeystoneApplicationCredentials, before and after 5,000
// unrelated Secrets appear in another namespace. Targets: at most 90 MiB with the 200 CRs (1.2 × the Go
// controller it replaces, which held 56 to 75 MB on the same 200), and the Secrets add at most 10 MiB, i.e.
// nothing caches Secrets it does not manage. Figures are compared after a forced full GC: as found, they
// differ by MiB with the time of the last one.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ts from 'typescript';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { freeLoopbackPort, httpCall, type Environment } from '@keyward/test-env';
import { asTheImageStarts, imageEntrypoint } from '../../packages/operator/test/image-entrypoint.js';
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
const TARGET_RSS_MIB = 90;
const GO_CONTROLLER_RSS_MB = [56, 75];

interface Operator {
  readonly process: ChildProcess;
  readonly metricsUrl: string;
  /** The end of its output, for an error message. */
  output(): string;
}

/** The production bundle, written by the script the image's build runs, into a folder of its own. */
function buildBundle(): string {
  const bundle = join(mkdtempSync(join(tmpdir(), 'keyward-bench-')), 'operator');
  execFileSync(inRepository('scripts/bundle-operator.sh'), [bundle], { stdio: ['ignore', 'ignore', 'inherit'] });
  return bundle;
}

/**
 * gc-on-signal.ts as JavaScript in a data: URL: the bundle runs on plain node, and a TypeScript loader in the
 * measured process would add its own memory.
 */
function gcOnSignalModule(): string {
  const source = readFileSync(inRepository('bench/support/gc-on-signal.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return `data:text/javascript,${encodeURIComponent(outputText)}`;
}

/** The bundle as the image starts it (deploy/Dockerfile's ENTRYPOINT), with its defaults otherwise. */
async function startOperator(environment: Environment, bundle: string, keystoneUrl: string): Promise<Operator> {
  const metricsPort = await freeLoopbackPort();
  const { command, args } = asTheImageStarts(bundle, ['run',
    '--kubeconfig', environment.info.kubeconfig,
    '--keystone-url', keystoneUrl,
    '--lease-namespace', 'default',
    '--metrics-bind-address', `127.0.0.1:${String(metricsPort)}`,
    '--no-metrics-secure',
    '--health-bind-address', '0',
    '--log-format', 'json',
    '--log-level', 'warn',
  ]);
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Only a signal handler that collects garbage on request; see gc-on-signal.ts.
    env: { ...process.env, NODE_OPTIONS: `--expose-gc --import=${gcOnSignalModule()}` },
  });
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

/**
 * VmRSS (resident now) or VmHWM (the most it has been resident) of a process, from the kernel: what the
 * container's memory limit is measured against.
 */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  if (line?.[1] === undefined) throw new Error(`no ${field} for process ${String(pid)}`);
  return Number(line[1]) * 1024;
}

/** CPU time (user and system) a process has spent, from the kernel. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${String(pid)}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  // utime and stime, the 14th and 15th fields of stat (the 12th and 13th after the command), in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
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
    rss.push(statusBytes(pid, 'VmRSS') / MIB);
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

const bundle = buildBundle();
const environment = await startBenchEnvironment({ keystone: true });
const kube = new KubeClient(environment.kubeConfig());
let operator: Operator | undefined;
try {
  const { keystoneUrl, user } = await serviceUser(environment.info);
  await namespaceWithCrs(kube, 'bench', user, CRS);
  const ready = await whenCount(kube, { type: appCredType, namespace: 'bench' }, CRS, isReady);
  const started = await startOperator(environment, bundle, keystoneUrl);
  operator = started;
  await within(ready.reached, 10 * 60_000, `${String(CRS)} CRs to be Ready`).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; operator output: ${started.output()}`);
  });
  await ready.stop();
  const pid = started.process.pid ?? 0;
  const converging = { peakRssMiB: rounded(statusBytes(pid, 'VmHWM') / MIB, 1), cpuSeconds: rounded(cpuSeconds(pid), 2) };

  await sleep(SETTLE_MS);
  const baseline = await measure(started);
  await unrelatedSecrets(kube, 'unrelated');
  await sleep(SETTLE_MS);
  const withSecrets = await measure(started);

  console.log(JSON.stringify({
    benchmark: 'appcred-memory',
    crs: CRS,
    unrelatedSecrets: { count: UNRELATED_SECRETS, dataBytes: SECRET_BYTES, namespace: 'unrelated' },
    operator: 'keyward run from the bundle scripts/bundle-operator.sh writes, started as the image starts it: every controller, all namespaces, defaults otherwise',
    entrypoint: imageEntrypoint(),
    samples: `median of ${String(SAMPLES)}, ${String(SAMPLE_INTERVAL_MS)} ms apart, ${String(SETTLE_MS / 1000)} s after each change; as found, then ${String(AFTER_GC_MS / 1000)} s after a forced full GC`,
    // From its start until the CRs were Ready: the most it held while converging them, and its CPU time.
    converging,
    baseline,
    withSecrets,
    // What the operator holds with the CRs (the figure compared with the Go controller), and what the Secrets add.
    rssMiB: { afterGc: baseline.afterGc.rssMiB, asFound: baseline.asFound.rssMiB },
    deltaMiB: {
      afterGc: rounded(withSecrets.afterGc.rssMiB - baseline.afterGc.rssMiB, 1),
      asFound: rounded(withSecrets.asFound.rssMiB - baseline.asFound.rssMiB, 1),
    },
    targets: { rssMiB: TARGET_RSS_MIB, goControllerRssMB: GO_CONTROLLER_RSS_MB, deltaMiBAfterGc: 10 },
  }, null, 2));
} finally {
  if (operator !== undefined) await stopOperator(operator);
  kube.close();
  await environment.stop();
  rmSync(join(bundle, '..'), { recursive: true, force: true });
}
