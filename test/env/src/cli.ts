#!/usr/bin/env node
/**
 * keyward-env: a real local environment for people.
 *   up      starts it in the foreground, shows what runs until Ctrl-C, then stops everything
 *   start   starts etcd, kube-apiserver, kube-controller-manager, MariaDB, Keystone and Keycloak in the background
 *   status  prints how to reach a running one
 *   stop    stops it and removes its data
 * `up` and `start` take --workloads: the opt-in workload tier too (containerd, kubelet, kube-scheduler, kube-proxy),
 * for work with real pods.
 * The folder is $KEYWARD_ENV_DIR (default: <tmpdir>/keyward-dev-env). Tests attach to it with KEYWARD_ENV_DIR set.
 */
import { join } from 'node:path';
import { attachEnvironment, startEnvironment, stopEnvironmentAt, type EnvironmentInfo } from './environment.js';
import { defaultDaemonDir } from './defaults.js';
import { onShutdown } from './shutdown.js';
import { repoRoot } from './paths.js';
import { statusTable } from './status-table.js';
import { TEST_CRD_FOLDERS } from './testing.js';
import { setTimeout as sleep } from 'node:timers/promises';

function describe(info: EnvironmentInfo): string {
  const lines = [
    `folder:          ${info.dir}`,
    `kubeconfig:      ${info.kubeconfig}`,
    `                 export KUBECONFIG=${info.kubeconfig}`,
    `API server:      ${info.kubernetes.server}`,
  ];
  if (info.keystone !== undefined) {
    lines.push(
      `Keystone:        ${info.keystone.url}`,
      // The password stays in env.json: what this prints ends up in terminal scrollback and CI logs.
      `Keystone admin:  user ${info.keystone.username}, project ${info.keystone.projectName}, domain ${info.keystone.domain}, password in ${join(info.dir, 'env.json')} (keystone.password)`,
    );
  }
  if (info.keycloak !== undefined) {
    lines.push(
      `Keycloak:        ${info.keycloak.url} (${info.keycloak.version}; health on ${info.keycloak.managementUrl})`,
      `Keycloak admin:  user ${info.keycloak.username}, service account ${info.keycloak.clientId} (master realm), secrets in ${join(info.dir, 'env.json')} (keycloak.password, keycloak.clientSecret)`,
    );
  }
  if (info.workloads !== undefined) {
    const { nodeName, nodeIp, images, database } = info.workloads;
    lines.push(
      `node:            ${nodeName} on ${nodeIp} (pods reach host services there)`,
      `images:          ${images.keystone}, ${images.pause} (imagePullPolicy: Never)`,
    );
    if (database !== undefined) {
      lines.push(`pods' MariaDB:   ${database.host}:${String(database.port)} user ${database.user}, password in ${join(info.dir, 'env.json')} (workloads.database.password)`);
    }
  }
  lines.push('processes:', ...info.components.map((c) => `  ${c.component.padEnd(24)} pid ${String(c.pid).padEnd(8)} log ${c.logFile}`));
  return lines.join('\n');
}

const crdFolders = TEST_CRD_FOLDERS.map((folder) => join(repoRoot, folder));

/**
 * Foreground mode: a live status table (redrawn on a terminal, a line every 30 s otherwise). The
 * environment's own SIGINT/SIGTERM handling stops everything and ends the process; the table stops first,
 * as on a terminal a redraw would erase what stopping prints.
 */
async function up(workloads: boolean): Promise<never> {
  const startedAt = Date.now();
  const environment = await startEnvironment({ ownership: 'session', crdFolders, keycloak: true, workloads, log: (line) => { console.log(`  ${line}`); } });
  console.log(`\nenvironment running; Ctrl-C stops it\n${describe(environment.info)}\n`);
  const display = { on: true };
  // Registered after the environment's, so it runs first.
  onShutdown({ graceful: () => { display.on = false; return Promise.resolve(); }, immediate: () => undefined });
  const tty = process.stdout.isTTY;
  let drawnLines = 0;
  for (;;) {
    if (display.on) {
      const table = statusTable(environment.info, startedAt);
      if (tty && drawnLines > 0) process.stdout.write(`\x1b[${String(drawnLines)}A\x1b[J`);
      console.log(table);
      drawnLines = table.split('\n').length;
    }
    await sleep(tty ? 2_000 : 30_000);
  }
}

async function main(command: string | undefined, flags: readonly string[]): Promise<void> {
  const dir = defaultDaemonDir();
  const workloads = flags.includes('--workloads');
  switch (command) {
    case 'up':
      await up(workloads);
      return;
    case 'start': {
      await stopEnvironmentAt(dir);
      const environment = await startEnvironment({
        dir,
        ownership: 'daemon',
        crdFolders,
        keycloak: true,
        workloads,
        log: (line) => { console.log(`  ${line}`); },
      });
      console.log(`\nenvironment running (stop it with: pnpm devenv stop)\n${describe(environment.info)}`);
      return;
    }
    case 'status':
      console.log(describe(attachEnvironment(dir)));
      return;
    case 'stop':
      await stopEnvironmentAt(dir);
      console.log('environment stopped');
      return;
    default:
      console.error('usage: keyward-env up|start [--workloads] | status | stop');
      process.exitCode = 2;
  }
}

main(process.argv[2], process.argv.slice(3)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
