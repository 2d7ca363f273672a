import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a workload tier could leave on the host, read straight from the host (not through the clean-up's own code):
 * processes naming the folder (components, containerd's shims), mounts below it, the bridge, the kubelet's cgroup
 * root, KUBE- iptables rules, the machine's tier lock, shim sockets, container log links, and the folder itself.
 * Empty when nothing is left.
 */
export function tierLeftovers(dir: string, shimSocketsBefore: ReadonlySet<string>): string[] {
  const left: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (commandLine.includes(dir)) left.push(`process ${pid}: ${commandLine}`);
    } catch {
      // It ended while we looked.
    }
  }
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) if (line.includes(dir)) left.push(`mount: ${line}`);
  if (readdirSync('/sys/class/net').includes('keyward0')) left.push('bridge keyward0');
  for (const hierarchy of readdirSync('/sys/fs/cgroup')) {
    if (existsSync(join('/sys/fs/cgroup', hierarchy, 'keyward-workloads'))) left.push(`cgroup ${hierarchy}/keyward-workloads`);
  }
  for (const save of ['iptables-save', 'ip6tables-save']) {
    for (const rule of execFileSync(save, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')) if (rule.includes('KUBE-')) left.push(`${save}: ${rule}`);
  }
  if (existsSync('/run/keyward-workloads.json')) left.push('lock /run/keyward-workloads.json');
  for (const socket of shimSockets()) if (!shimSocketsBefore.has(socket)) left.push(`shim socket ${socket}`);
  if (existsSync('/var/log/containers')) {
    for (const link of readdirSync('/var/log/containers')) if (readlinkSync(join('/var/log/containers', link)).includes(dir)) left.push(`container log link ${link}`);
  }
  if (existsSync(dir)) left.push(`folder ${dir}`);
  return left;
}

/** containerd's shim sockets on this machine (another containerd may have some). */
export function shimSockets(): Set<string> {
  const folder = '/run/containerd/s';
  return new Set(existsSync(folder) ? readdirSync(folder) : []);
}
