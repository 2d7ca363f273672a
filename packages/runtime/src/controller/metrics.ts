import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Reconcile durations: most reconciles take milliseconds; slow external APIs stretch them to a minute. */
const RECONCILE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Single HTTP requests, up to the clients' timeouts. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Waits (in a queue, behind a rate limiter) range from nothing to minutes when a backlog builds up. */
const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/**
 * The operator's Prometheus metrics, named after controller-runtime's where there is an equivalent. Each
 * instance owns its registry, so several runtimes (or tests) in one process never share or collide on series.
 */
export class RuntimeMetrics {
  readonly registry: Registry;
  readonly reconciles: Counter<'controller' | 'result'>;
  readonly reconcileDuration: Histogram<'controller'>;
  readonly queueDepth: Gauge<'controller'>;
  readonly queueAdds: Counter<'controller'>;
  readonly queueRetries: Counter<'controller'>;
  readonly queueWait: Histogram<'controller'>;
  readonly actions: Counter<'controller' | 'kind' | 'outcome'>;
  readonly externalRequests: Counter<'api' | 'operation' | 'status'>;
  readonly externalRequestDuration: Histogram<'api' | 'operation'>;
  readonly limiterWait: Histogram<'api'>;
  readonly leader: Gauge;
  readonly informerRestarts: Counter<'resource' | 'kind'>;
  readonly burstWatches: Gauge<'controller'>;
  readonly endpointAvailable: Gauge<'api' | 'endpoint'>;
  readonly driftRepairs: Counter<'kind' | 'namespace'>;

  /** Without a registry, creates one with the process metrics (CPU, memory, event loop) on it. */
  constructor(registry?: Registry) {
    if (registry === undefined) {
      this.registry = new Registry();
      collectDefaultMetrics({ register: this.registry });
    } else {
      this.registry = registry;
    }
    const registers = [this.registry];

    this.reconciles = new Counter({
      name: 'keyward_reconcile_total',
      help: 'Reconciles per controller and result (success, error, invalid, requeue).',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.reconcileDuration = new Histogram({
      name: 'keyward_reconcile_duration_seconds',
      help: 'Time a reconcile took, planning and interpreting its plan.',
      labelNames: ['controller'],
      buckets: RECONCILE_BUCKETS,
      registers,
    });
    this.queueDepth = new Gauge({
      name: 'keyward_workqueue_depth',
      help: 'Keys waiting in the work queue.',
      labelNames: ['controller'],
      registers,
    });
    this.queueAdds = new Counter({
      name: 'keyward_workqueue_adds_total',
      help: 'Keys added to the work queue.',
      labelNames: ['controller'],
      registers,
    });
    this.queueRetries = new Counter({
      name: 'keyward_workqueue_retries_total',
      help: 'Delayed re-adds (backoff and requeue-after) to the work queue.',
      labelNames: ['controller'],
      registers,
    });
    this.queueWait = new Histogram({
      name: 'keyward_workqueue_queue_duration_seconds',
      help: 'Time a key waited in the work queue before a worker took it.',
      labelNames: ['controller'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.actions = new Counter({
      name: 'keyward_actions_total',
      help: 'Plan actions interpreted, by kind and outcome (applied, unchanged, failed, skipped).',
      labelNames: ['controller', 'kind', 'outcome'],
      registers,
    });
    this.externalRequests = new Counter({
      name: 'keyward_external_requests_total',
      help: 'Requests to external APIs (kubernetes, keystone) by operation and HTTP status (0: no response).',
      labelNames: ['api', 'operation', 'status'],
      registers,
    });
    this.externalRequestDuration = new Histogram({
      name: 'keyward_external_request_duration_seconds',
      help: 'Duration of requests to external APIs.',
      labelNames: ['api', 'operation'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.limiterWait = new Histogram({
      name: 'keyward_rate_limiter_wait_seconds',
      help: 'Time requests waited for the client-side rate limiter of an API.',
      labelNames: ['api'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.leader = new Gauge({
      name: 'keyward_leader',
      help: '1 while this replica reconciles: it holds the leader election lease, or runs without leader election; else 0.',
      registers,
    });
    this.informerRestarts = new Counter({
      name: 'keyward_informer_restarts_total',
      help: 'Informer restarts by resource and kind (relist: the watch expired and the cache was rebuilt; watch: the watch was re-opened).',
      labelNames: ['resource', 'kind'],
      registers,
    });
    this.burstWatches = new Gauge({
      name: 'keyward_burst_watches',
      help: 'Namespaces a controller watches while many of their objects are read at once (0 outside such bursts).',
      labelNames: ['controller'],
      registers,
    });
    this.endpointAvailable = new Gauge({
      name: 'keyward_endpoint_available',
      help: 'Whether an endpoint of an external API answers (1) or is down and only probed (0); from its first outage on.',
      labelNames: ['api', 'endpoint'],
      registers,
    });
    this.driftRepairs = new Counter({
      name: 'keyward_drift_repairs_total',
      help: 'Repairs of drift: reconciles of an object converged on its spec that found what it manages changed out of band and set it back (each also records a DriftRepaired Warning event).',
      labelNames: ['kind', 'namespace'],
      registers,
    });
  }
}
