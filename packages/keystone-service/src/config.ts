/** Operator-level settings of the Keystone controller. */
export interface KeystoneServiceConfig {
  /** The cluster's DNS domain, for in-cluster URLs (status.endpoint, bootstrap's URLs, database and cache hosts). */
  readonly clusterDomain: string;
}

export const defaultKeystoneServiceConfig: KeystoneServiceConfig = { clusterDomain: 'cluster.local' };
