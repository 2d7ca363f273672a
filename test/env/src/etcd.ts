import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { ManagedProcess, type Ownership } from './process.js';
import { freeLoopbackPort } from './ports.js';
import { probeStatus } from './http.js';
import { waitFor } from './wait.js';

export interface StartedEtcd {
  readonly url: string;
  readonly process: ManagedProcess;
}

/** Starts etcd on a random loopback port with fsync off (test data only) and waits for /health. */
export async function startEtcd(binary: string, dir: string, ownership: Ownership): Promise<StartedEtcd> {
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${String(port)}`;
  const dataDir = join(dir, 'etcd-data');
  mkdirSync(dataDir, { recursive: true });
  const etcd = ManagedProcess.start(
    {
      component: 'etcd',
      command: binary,
      args: [
        `--data-dir=${dataDir}`,
        `--listen-client-urls=${url}`,
        `--advertise-client-urls=${url}`,
        '--listen-peer-urls=http://127.0.0.1:0',
        '--unsafe-no-fsync',
        '--log-level=warn',
      ],
      logFile: join(dir, 'etcd.log'),
    },
    ownership,
  );
  await waitFor(
    () => probeStatus(`${url}/health`, 200),
    { what: 'etcd /health', timeoutMs: 30_000, abortIf: () => { etcd.assertRunning(); } },
  );
  return { url, process: etcd };
}
