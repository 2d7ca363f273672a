import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CRI_NAMESPACE } from './containerd.js';

/** Where containerd's shims put their sockets, whatever containerd's own state folder is. */
const SHIM_SOCKETS = '/run/containerd/s';
/** Where kubelet links each container's log, whatever its podLogsDir. */
const CONTAINER_LOG_LINKS = '/var/log/containers';

/**
 * The socket files of this containerd's shims, as containerd names them: /run/containerd/s/ followed by the
 * SHA-256 of "<containerd address>/<namespace>/<container id>". A shim removes its own when it stops, but a
 * killed one leaves it.
 */
export function shimSockets(stateDir: string, address: string): string[] {
  const tasks = join(stateDir, 'io.containerd.runtime.v2.task', CRI_NAMESPACE);
  if (!existsSync(tasks)) return [];
  return readdirSync(tasks)
    .map((id) => join(SHIM_SOCKETS, createHash('sha256').update(join(address, CRI_NAMESPACE, id)).digest('hex')))
    .filter((socket) => existsSync(socket));
}

/** kubelet's links to container logs that point into `dir`. */
export function containerLogLinks(dir: string): string[] {
  if (!existsSync(CONTAINER_LOG_LINKS)) return [];
  return readdirSync(CONTAINER_LOG_LINKS)
    .map((name) => join(CONTAINER_LOG_LINKS, name))
    .filter((link) => {
      try {
        return readlinkSync(link).startsWith(`${dir}/`);
      } catch {
        return false;
      }
    });
}

/** Removes the files the tier leaves outside its folder: shim sockets and container log links. */
export function removeRuntimeFiles(dir: string, stateDir: string, address: string): void {
  for (const file of [...shimSockets(stateDir, address), ...containerLogLinks(dir)]) rmSync(file, { force: true });
}
