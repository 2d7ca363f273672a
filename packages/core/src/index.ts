// What a program that runs reconcilers needs: the controller runtime and the clients it runs plans with. The rest
// is at '@keyward/core/runtime' (informers, metrics, endpoints) and '@keyward/core/interpreter' (API runtimes,
// HTTP transport); the pure kernel (plans, the driver, the test kit) is @keyward/vocabulary.
export { Controller, Manager, RuntimeMetrics, createLogger, controllerMetrics, clusterTarget, SharedInformers, Informer, WorkQueue, serveEndpoints } from './runtime/index.js';
export type { RuntimeLogger, Endpoints } from './runtime/index.js';
export { KubeClient, ContentType, kubernetesRuntime, keystoneRuntime, KeystoneClient, HttpTransport } from './interpreter/index.js';
