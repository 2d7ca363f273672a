import { runTool } from '../binaries.js';
import { runCommand } from '../command.js';
import { CRI_NAMESPACE } from './containerd.js';

/** An image built by tools/build-images.sh: its reference (pods name it, with imagePullPolicy Never) and tarball. */
export interface LocalImage {
  readonly reference: string;
  readonly archive: string;
}

/** The tier's images: the pod sandbox, and Debian's Keystone with PyMySQL, uWSGI and python3. */
export interface TierImages {
  readonly pause: LocalImage;
  readonly keystone: LocalImage;
}

/** Reads tools/build-images.sh's output: one "<name> <reference> <tarball>" line per image. */
export function parseImageList(output: string): Partial<Record<string, LocalImage>> {
  const images: Partial<Record<string, LocalImage>> = {};
  for (const line of output.split('\n')) {
    const [name, reference, archive] = line.trim().split(' ');
    if (name !== undefined && reference !== undefined && archive !== undefined) images[name] = { reference, archive };
  }
  return images;
}

/**
 * Builds the images unless the cache holds them (no registry is reachable: they are built from a Go program and
 * Debian's packages; minutes cold, at once when cached).
 */
export async function ensureImages(log: (line: string) => void): Promise<TierImages> {
  const { pause, keystone } = parseImageList(await runTool('images', 'build-images.sh', [], log));
  if (pause === undefined || keystone === undefined) throw new Error('tools/build-images.sh did not list the pause and keystone images');
  return { pause, keystone };
}

/**
 * Imports the images into containerd's CRI namespace, where kubelet finds them. Without `unpackKeystone`,
 * Keystone's layers are unpacked by the first container that needs them (containerd's CRI does that): importing
 * took 6.5 s against 38 s with the unpacking, at load 7.
 */
export async function importImages(address: string, images: TierImages, logFile: string, unpackKeystone: boolean): Promise<void> {
  for (const [image, unpack] of [[images.pause, true], [images.keystone, unpackKeystone]] as const) {
    await runCommand('containerd', 'ctr', ['--address', address, '--namespace', CRI_NAMESPACE, 'images', 'import', ...(unpack ? [] : ['--no-unpack']), image.archive], { logFile, timeoutMs: 300_000 });
  }
}

/**
 * Keystone of the next OpenStack release (Debian trixie's, tagged 2025.1-...), which upgrade tests go to: built
 * unless cached (about as long as the tier's Keystone image cold), imported into the tier's containerd. Returns
 * its reference.
 */
export async function importNextKeystoneImage(containerdAddress: string, logFile: string, log: (line: string) => void = () => undefined): Promise<string> {
  const next = parseImageList(await runTool('images', 'build-images.sh', ['keystone-next'], log))['keystone-next'];
  if (next === undefined) throw new Error('tools/build-images.sh did not list the keystone-next image');
  await runCommand('containerd', 'ctr', ['--address', containerdAddress, '--namespace', CRI_NAMESPACE, 'images', 'import', next.archive], { logFile, timeoutMs: 300_000 });
  return next.reference;
}
