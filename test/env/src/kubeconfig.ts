import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export interface ClusterAccess {
  readonly server: string;
  /** PEM bundle that verifies the API server's certificate. */
  readonly caPem: string;
  readonly token: string;
  readonly user: string;
}

/** A kubeconfig document with one cluster, one token user and one current context. */
export function kubeconfigYaml(access: ClusterAccess): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'keyward', cluster: { server: access.server, 'certificate-authority-data': Buffer.from(access.caPem).toString('base64') } },
    ],
    users: [{ name: access.user, user: { token: access.token } }],
    contexts: [{ name: 'keyward', context: { cluster: 'keyward', user: access.user } }],
    'current-context': 'keyward',
  });
}

export function writeKubeconfig(path: string, access: ClusterAccess): void {
  writeFileSync(path, kubeconfigYaml(access), { mode: 0o600 });
}
