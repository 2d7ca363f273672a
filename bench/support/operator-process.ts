// The operator as the image runs it, in a process of its own: the production bundle started with the
// Dockerfile's ENTRYPOINT and its V8 flags, and what the kernel and its metrics say about its memory and CPU.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ts from 'typescript';
import type { KubeClient } from '@keyward/runtime/io';
import { freeLoopbackPort, httpCall, type Environment } from '@keyward/test-env';
import { asTheImageStarts } from '../../packages/operator/test/image-entrypoint.js';
import { inRepository } from './environment.js';
import { median, rounded, within } from './timing.js';

const SAMPLES = 10;
const SAMPLE_INTERVAL_MS = 1_000;
/**
 * After the forced collection, before sampling: most memory goes back at once, but V8's memory reducer gives
 * back a few more MiB some twenty seconds later.
 */
const AFTER_GC_MS = 30_000;
const MIB = 1024 * 1024;

/** How the measured operator runs, for a benchmark's output. */
export const OPERATOR_AS_RUN = 'keyward run from the bundle scripts/bundle-operator.sh writes, started as the image starts it: every controller, all namespaces, defaults otherwise';

export const SAMPLING = `median of ${String(SAMPLES)}, ${String(SAMPLE_INTERVAL_MS)} ms apart; as found, then ${String(AFTER_GC_MS / 1000)} s after a forced full GC`;

export interface Operator {
  readonly process: ChildProcess;
  readonly metricsUrl: string;
  /** The end of its output, for an error message. */
  output(): string;
}

/** The production bundle, written by the script the image's build runs, into a folder of its own. */
export function buildBundle(): { readonly path: string; remove(): void } {
  const path = join(mkdtempSync(join(tmpdir(), 'keyward-bench-')), 'operator');
  execFileSync(inRepository('scripts/bundle-operator.sh'), [path], { stdio: ['ignore', 'ignore', 'inherit'] });
  return { path, remove: () => { rmSync(join(path, '..'), { recursive: true, force: true }); } };
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

/**
 * `keyward run` from the bundle as the image starts it (deploy/Dockerfile's ENTRYPOINT), against the
 * environment's cluster, with plain-HTTP metrics on a free port, warnings only, and `options` besides.
 */
export async function startOperator(environment: Environment, bundle: string, options: readonly string[]): Promise<Operator> {
  const metricsPort = await freeLoopbackPort();
  const { command, args } = asTheImageStarts(bundle, ['run',
    '--kubeconfig', environment.info.kubeconfig,
    '--lease-namespace', 'default',
    '--metrics-bind-address', `127.0.0.1:${String(metricsPort)}`,
    '--no-metrics-secure',
    '--health-bind-address', '0',
    '--log-format', 'json',
    '--log-level', 'warn',
    ...options,
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

/** What an operator benchmark started, stopped in the reverse order: the operator, the client, the environment, the bundle. */
export async function stopAll(started: { readonly operator: Operator | undefined; readonly kube: KubeClient; readonly environment: Environment; readonly bundle: { remove(): void } }): Promise<void> {
  if (started.operator !== undefined) await stopOperator(started.operator);
  started.kube.close();
  await started.environment.stop();
  started.bundle.remove();
}

export async function stopOperator(operator: Operator): Promise<void> {
  const child = operator.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await within(exited, 15_000, 'the operator to exit').catch(() => child.kill('SIGKILL'));
}

/**
 * `promise`, or an error with the operator's last output, which usually says why it did not get there; an
 * operator that exits meanwhile ends the wait at once rather than at its timeout.
 */
export async function withOperatorOutput<T>(operator: Operator, promise: Promise<T>): Promise<T> {
  let onExit: ((code: number | null, signal: NodeJS.Signals | null) => void) | undefined;
  const exited = new Promise<never>((_, reject) => {
    onExit = (code, signal) => { reject(new Error(`the operator exited (${signal ?? `code ${String(code)}`})`)); };
    operator.process.once('exit', onExit);
  });
  try {
    return await Promise.race([promise, exited]);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; operator output: ${operator.output()}`, { cause: error });
  } finally {
    if (onExit !== undefined) operator.process.off('exit', onExit);
  }
}

/**
 * VmRSS (resident now) or VmHWM (the most it has been resident) of a process, from the kernel: what the
 * container's memory limit is measured against.
 */
export function statusMiB(operator: Operator, field: 'VmRSS' | 'VmHWM'): number {
  const pid = operator.process.pid ?? 0;
  const line = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  if (line?.[1] === undefined) throw new Error(`no ${field} for process ${String(pid)}`);
  return (Number(line[1]) * 1024) / MIB;
}

/** CPU time (user and system) the operator has spent, from the kernel. */
export function cpuSeconds(operator: Operator): number {
  const fields = readFileSync(`/proc/${String(operator.process.pid ?? 0)}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  // utime and stime, the 14th and 15th fields of stat (the 12th and 13th after the command), in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The sum of a metric's samples whose labels include `labels` (`name{a="b"}`), from the operator's own metrics. */
export async function metricSum(operator: Operator, name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  const metrics = (await httpCall(operator.metricsUrl, { timeoutMs: 10_000 })).body;
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  let sum = 0;
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.some((label) => !line.includes(label))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

export interface Window {
  readonly rssMiB: number;
  readonly rssRangeMiB: readonly [number, number];
  readonly heapUsedMiB: number;
}

export interface Measurement {
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
    rss.push(statusMiB(operator, 'VmRSS'));
    // V8's used heap as the operator's own metrics report it (prom-client default metrics).
    heap.push((await metricSum(operator, 'nodejs_heap_size_used_bytes')) / MIB);
    await sleep(SAMPLE_INTERVAL_MS);
  }
  return { rssMiB: rounded(median(rss), 1), rssRangeMiB: [rounded(Math.min(...rss), 1), rounded(Math.max(...rss), 1)], heapUsedMiB: rounded(median(heap), 1) };
}

/** A window as found, then one after a full collection the preloaded handler runs on SIGUSR2. */
export async function measure(operator: Operator): Promise<Measurement> {
  const asFound = await sampleWindow(operator);
  operator.process.kill('SIGUSR2');
  await sleep(AFTER_GC_MS);
  return { asFound, afterGc: await sampleWindow(operator) };
}
