// What a program that runs reconcilers needs: the controller runtime and the clients it runs plans with. The rest
// is at '@keyward/runtime/controller' (informers, metrics, endpoints) and '@keyward/runtime/io' (API runtimes,
// HTTP transport); the pure kernel (plans, the driver, the test kit) is @keyward/kernel.
export { Controller, Manager, RuntimeMetrics, createLogger, controllerMetrics, clusterTarget, SharedInformers, Informer, WorkQueue, serveEndpoints } from './controller/index.js';
export type { RuntimeLogger, Endpoints } from './controller/index.js';
export { KubeClient, ContentType, kubernetesRuntime, keystoneRuntime, KeystoneClient, HttpTransport } from './io/index.js';
