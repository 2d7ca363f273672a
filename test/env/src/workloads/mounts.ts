import { readFileSync } from 'node:fs';
import { host } from './host.js';

/** Mount points at or below `dir`, in the order they were mounted ("\040" and the like decoded). */
export function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point): point is string => point !== undefined)
    .map((point) => point.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8))))
    .filter((point) => point === dir || point.startsWith(`${dir}/`));
}

/**
 * Unmounts everything at or below `dir`, newest first: kubelet's bind mount of its own root, pods' volumes
 * (tmpfs), containers' overlay root filesystems and shared memory, and the pods' network namespaces. Lazily, so a
 * mount still busy goes once nothing uses it; removing the folder with any of them mounted would delete through
 * them. Throws if any remains.
 */
export function unmountUnder(dir: string): void {
  for (const point of mountsUnder(dir).reverse()) {
    try {
      host('umount', ['--lazy', point]);
    } catch {
      // Gone with its parent already.
    }
  }
  const left = mountsUnder(dir);
  if (left.length > 0) throw new Error(`still mounted: ${left.join(', ')}`);
}
