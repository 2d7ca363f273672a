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

function pinnedVersion(component: 'kube' | 'etcd' | 'helm'): string {
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
 * Returns the pinned control-plane binaries, building them first when the cache lacks them
 * (tools/build.sh checks the versions and skips what is already built; a cold kube build takes 10-30 minutes).
 */
export async function ensureControlPlaneBinaries(log: (line: string) => void): Promise<ControlPlaneBinaries> {
  const binaries = controlPlaneBinaries();
  if ([binaries.etcd, binaries.kubeApiserver, binaries.kubeControllerManager].every((path) => existsSync(path))) return binaries;
  log('building the control-plane binaries from Go modules (cached afterwards)');
  await new Promise<void>((resolve, reject) => {
    const child = execFile('bash', [join(repoRoot, 'tools', 'build.sh')], { maxBuffer: 64 * 1024 * 1024 }, (error, _out, stderr) => {
      if (error === null) resolve();
      else reject(new ComponentError('go build', 'tools/build.sh failed', stderr.split('\n').slice(-30).join('\n')));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').trimEnd().split('\n')) log(line);
    });
  });
  return binaries;
}
