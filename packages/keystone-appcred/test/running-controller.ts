import { keystoneRuntime, kubernetesRuntime, type KubeClient } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller } from '@keyward/runtime/controller';
import type { KeystoneApplicationCredential } from '../src/api.js';
import type { AppCredConfig } from '../src/config.js';
import { appCredController } from '../src/controller.js';
import type { AppCredQueries } from '../src/observe.js';
import type { AppCredAction } from '../src/vocabulary.js';

type AppCredControllerOptions = ConstructorParameters<typeof Controller<KeystoneApplicationCredential, AppCredQueries, AppCredConfig, AppCredAction>>[1];

/** The appcred controller of an integration test, running on the test's client with the real API runtimes. */
export interface RunningController {
  queueState(): { depth: number; inFlight: number };
  /** Stops the controller, then closes its API runtimes; the client stays the test's to close. */
  stop(): Promise<void>;
}

/** Starts the appcred controller on `kube` with `options`, as the operator wires it. */
export async function startController(kube: KubeClient, options: Omit<AppCredControllerOptions, 'kube' | 'apis'>): Promise<RunningController> {
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/keystone-appcred', reportingInstance: 'test' }), keystoneRuntime({ kube }), controlRuntime);
  const controller = new Controller(appCredController, { ...options, kube, apis });
  await controller.start();
  return {
    queueState: () => controller.queueState(),
    stop: async () => {
      await controller.stop();
      apis.close();
    },
  };
}
