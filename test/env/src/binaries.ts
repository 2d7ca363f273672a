import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ComponentError } from './errors.js';
import { cacheDir, repoRoot } from './paths.js';

export interface ControlPlaneBinaries {
  readonly etcd: string;
  readonly kubeApiserver: string;
  readonly kubeControllerManager: string;
}

function pinnedVersion(component: 'kube' | 'etcd' | 'helm' | 'promtool'): string {
  return readFileSync(join(repoRoot, 'tools', component, 'VERSION'), 'utf8').trim();
}

export function controlPlaneBinaries(): ControlPlaneBinaries {
  const kube = join(cacheDir(), 'kube', pinnedVersion('kube'));
  return {
    etcd: join(cacheDir(), 'etcd', pinnedVersion('etcd'), 'etcd'),
    kubeApiserver: join(kube, 'kube-apiserver'),
    kubeControllerManager: join(kube, 'kube-controller-manager'),
  };
}

/**
 * The pinned Helm binary, which renders deploy/helm/keyward in tests. scripts/setup builds it (`tools/build.sh
 * helm`); tests that need it fail with that hint when it is missing rather than building it on the spot.
 */
export function helmBinary(): string {
  return join(cacheDir(), 'helm', pinnedVersion('helm'), 'helm');
}

/**
 * The pinned promtool, which runs the unit tests of the chart's alerts (`promtool test rules`). scripts/setup
 * builds it (`tools/build.sh promtool`).
 */
export function promtoolBinary(): string {
  return join(cacheDir(), 'promtool', pinnedVersion('promtool'), 'promtool');
}

/** The workload tier's node binaries, built from the same module and version as the control plane's. */
export interface NodeBinaries {
  readonly kubelet: string;
  readonly kubeScheduler: string;
  readonly kubeProxy: string;
}

export function nodeBinaries(): NodeBinaries {
  const kube = join(cacheDir(), 'kube', pinnedVersion('kube'));
  return { kubelet: join(kube, 'kubelet'), kubeScheduler: join(kube, 'kube-scheduler'), kubeProxy: join(kube, 'kube-proxy') };
}

/** Runs a script of tools/ to completion, its output line by line to `log`; fails naming `component`. */
export function runTool(component: string, script: string, args: readonly string[], log: (line: string) => void): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = execFile('bash', [join(repoRoot, 'tools', script), ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new ComponentError(component, `tools/${script} ${args.join(' ')} failed`, stderr.split('\n').slice(-30).join('\n')));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').trimEnd().split('\n')) log(line);
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').trimEnd().split('\n')) log(line);
    });
  });
}

/**
 * Returns the pinned control-plane binaries, building them first when the cache lacks them
 * (tools/build.sh checks the versions and skips what is already built; a cold kube build takes 10-30 minutes).
 */
export async function ensureControlPlaneBinaries(log: (line: string) => void): Promise<ControlPlaneBinaries> {
  const binaries = controlPlaneBinaries();
  if ([binaries.etcd, binaries.kubeApiserver, binaries.kubeControllerManager].every((path) => existsSync(path))) return binaries;
  log('building the control-plane binaries from Go modules (cached afterwards)');
  await runTool('go build', 'build.sh', [], log);
  return binaries;
}

/** Returns the node binaries, building them first when the cache lacks them (about a minute once kube is built). */
export async function ensureNodeBinaries(log: (line: string) => void): Promise<NodeBinaries> {
  const binaries = nodeBinaries();
  if ([binaries.kubelet, binaries.kubeScheduler, binaries.kubeProxy].every((path) => existsSync(path))) return binaries;
  log('building kubelet, kube-scheduler and kube-proxy from Go modules (cached afterwards)');
  await runTool('go build', 'build.sh', ['node'], log);
  return binaries;
}
