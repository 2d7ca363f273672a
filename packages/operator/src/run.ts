import { Manager, ResyncLoops, WatchTroubleLog, createLogger, type ManagerOptions } from '@keyward/runtime/controller';
import type { OperatorConfig } from './config.js';
import { MODULES, moduleNamed } from './controllers.js';
import { metricsSecurity } from './metrics-security.js';
import { missingCrdMessage } from './missing-crds.js';
import { publishSettings } from './operator-settings-io.js';
import { DEFAULT_CONCURRENCY } from './options.js';
import { listenAddress, startDetails } from './start-line.js';
import { operatorVersion } from './version.js';
import { apiServer, buildController, wire } from './wiring.js';

/** The Leases the manager holds: one shard Lease per replica with --sharding, else the leader Lease unless it is off. */
function leases(config: OperatorConfig, identity: string): Pick<ManagerOptions, 'leaderElection' | 'sharding'> {
  const { enabled, leaseName, leaseNamespace, leaseDurationMs, renewDeadlineMs, retryPeriodMs } = config.leaderElection;
  const timing = { namespace: leaseNamespace, identity, leaseDurationMs, renewDeadlineMs, retryPeriodMs };
  if (config.sharding) return { sharding: timing };
  return enabled ? { leaderElection: { ...timing, name: leaseName } } : {};
}

/**
 * Runs the selected controllers until SIGTERM or SIGINT: then stops taking work, lets the steps in flight
 * finish (within --shutdown-timeout, else exits with status 1), releases the lease and exits. Losing leadership without being told to stop exits with status 1, so Kubernetes restarts
 * the pod as a follower.
 */
export async function runOperator(config: OperatorConfig): Promise<void> {
  const logger = createLogger({ level: config.log.level, format: config.log.format });
  const wiring = await wire(config, logger);
  const namespaces = config.namespaces === 'all' ? [undefined] : config.namespaces;
  // One for every controller and namespace: an API server restart fails all their watches, and is told once.
  const watchTrouble = new WatchTroubleLog(logger);
  const security = metricsSecurity(config, wiring.kube);
  const manager = new Manager({
    kube: wiring.kube,
    logger,
    registry: wiring.metrics.registry,
    metricsAddress: listenAddress(config.metricsBindAddress),
    ...(security === undefined ? {} : { metricsSecurity: security }),
    healthAddress: listenAddress(config.healthBindAddress),
    ...leases(config, wiring.identity),
    onLeadership: (leading) => { wiring.metrics.leader.set(leading ? 1 : 0); },
    onLostLeadership: () => { process.exit(1); },
    ...(wiring.reachability === undefined ? {} : { reachability: wiring.reachability }),
    // A controller whose CRD is missing is said once and left out; the others run, and it starts once the CRD is there.
    missingTypes: { message: (controller, type) => missingCrdMessage(controller, type, MODULES) },
    runnables: ({ informers, shard }) => {
      // One resync loop per term for all the controllers (and namespaces) that spread their resync: each
      // loop's timer stops when its last controller stops with the term.
      const resyncLoops = new ResyncLoops();
      return config.controllers.map(moduleNamed).flatMap((module) =>
        namespaces.map((namespace) =>
          buildController(module, wiring, {
            namespace,
            concurrency: config.concurrency[module.definition.name] ?? DEFAULT_CONCURRENCY,
            maxRetryDelayMs: config.maxRetryDelay,
            settings: config,
            informers,
            ...(shard === undefined ? {} : { shard }),
            resyncLoops,
            watchTrouble,
            logger,
          }),
        ),
      );
    },
  });

  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      logger.info('stopping', { signal, timeoutMs: config.shutdownTimeout });
      // No step starts after this; a step that hangs (a slow Keystone) must not outlive the grace period.
      const deadline = setTimeout(() => {
        logger.error('steps still in flight at the shutdown timeout; exiting without them (the next reconcile picks up what they leave)', { timeoutMs: config.shutdownTimeout });
        process.exit(1);
      }, config.shutdownTimeout);
      void manager.stop().then(() => {
        watchTrouble.stop();
        wiring.apis.close();
        clearTimeout(deadline);
        resolve();
      });
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  logger.info('starting', startDetails(config, { version: operatorVersion(), server: apiServer(wiring.kube.kubeConfig), identity: wiring.identity, metricsOverHttps: security !== undefined }));
  await publishSettings(wiring.kube, config, logger);
  await manager.start();
  await stopped;
}
