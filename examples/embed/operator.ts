// A small operator of your own that embeds Keyward's KeystoneApplicationCredential reconciler with the core
// runtime: one controller, leader election, metrics on :8080 and health on :8081, graceful shutdown.
//   npm install @keyward/runtime @keyward/keystone-appcred @kubernetes/client-node
//   node operator.js
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, keystoneRuntime, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller, Manager, RuntimeMetrics, createLogger } from '@keyward/runtime/controller';
import { appCredController, defaultAppCredConfig } from '@keyward/keystone-appcred';

const logger = createLogger();
const metrics = new RuntimeMetrics();
const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault();
const kube = new KubeClient(kubeConfig);
// The API modules the controller's plans use; leaving one out is a compile error where the controller is built.
const apis = apiSet(
  kubernetesRuntime(kube, { reportingController: 'example.com/my-operator', reportingInstance: process.env['HOSTNAME'] ?? 'local' }),
  keystoneRuntime({ kube }),
  controlRuntime,
);

const manager = new Manager({
  kube,
  logger,
  registry: metrics.registry,
  metricsAddress: ':8080',
  healthAddress: ':8081',
  leaderElection: { namespace: process.env['POD_NAMESPACE'] ?? 'default', name: 'my-operator', identity: process.env['HOSTNAME'] ?? 'local' },
  onLostLeadership: () => process.exit(1),
  // A fresh controller for each term of leadership.
  runnables: () => [new Controller(appCredController, { kube, apis, logger, config: { ...defaultAppCredConfig, keystoneUrl: process.env['KEYSTONE_URL'] } })],
});

process.once('SIGTERM', () => void manager.stop().then(() => {
  apis.close();
  process.exit(0);
}));
await manager.start();
