import { join } from 'node:path';

/** The environment folder's subfolder with the tier's data (images, containers, kubelet), which the secret scan skips. */
export const WORKLOADS_FOLDER = 'workloads';

/** Where the tier keeps what, in an environment folder; logs stay at the top, where the secret scan reads them. */
export function tierLayout(envDir: string): {
  readonly data: string;
  readonly containerdAddress: string;
  readonly containerdState: string;
  readonly podLogs: string;
} {
  const data = join(envDir, WORKLOADS_FOLDER);
  return { data, containerdAddress: join(data, 'containerd.sock'), containerdState: join(data, 'state'), podLogs: join(envDir, 'pod-logs') };
}
