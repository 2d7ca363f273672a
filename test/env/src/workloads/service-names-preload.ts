// Loaded with --import into a program on the host that talks to in-cluster URLs (the demo's operator): with
// KEYWARD_SERVICE_NAMES_KUBECONFIG set, Service names resolve to ClusterIPs in it (see service-names.ts).
import { KubeConfig } from '@kubernetes/client-node';
import { resolveServiceNames } from './service-names.js';

const file = process.env['KEYWARD_SERVICE_NAMES_KUBECONFIG'];
if (file !== undefined && file !== '') {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(file);
  resolveServiceNames(kubeConfig);
}
