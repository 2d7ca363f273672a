// The operator as the image starts it: deploy/Dockerfile's ENTRYPOINT, run on a bundle that
// scripts/bundle-operator.sh wrote. Tests and the memory benchmark start it this way, so they run the same
// file with the same V8 flags as a cluster does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dockerfile = fileURLToPath(new URL('../../../deploy/Dockerfile', import.meta.url));

/** The Dockerfile's ENTRYPOINT in exec form (a JSON array), as written: `node`, its flags, the file. */
export function imageEntrypoint(text = readFileSync(dockerfile, 'utf8')): string[] {
  const line = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(text)?.[1];
  if (line === undefined) throw new Error('deploy/Dockerfile has no ENTRYPOINT in exec form');
  const entrypoint: unknown = JSON.parse(line);
  if (!Array.isArray(entrypoint) || entrypoint[0] !== 'node' || !entrypoint.every((part) => typeof part === 'string')) {
    throw new Error(`deploy/Dockerfile's ENTRYPOINT does not start node: ${line}`);
  }
  return entrypoint;
}

/**
 * The command that starts the bundle in `bundle` as the image starts the one in its working directory: this
 * process's node (the image has its own, of the release the Dockerfile names), the entrypoint's flags, and
 * its file relative to `bundle`.
 */
export function asTheImageStarts(bundle: string, args: readonly string[], entrypoint = imageEntrypoint()): { command: string; args: string[] } {
  const [, ...rest] = entrypoint;
  const nodeArgs = rest.map((part) => (part.startsWith('-') ? part : join(bundle, part)));
  return { command: process.execPath, args: [...nodeArgs, ...args] };
}
