import { describe, expect, it } from '@jest/globals';
import { Registry, register as globalRegistry } from 'prom-client';
import { RuntimeMetrics } from '../../src/controller/metrics.js';
import { endpointAvailabilityLog, endpointAvailabilityMetrics } from '../../src/controller/instrumentation.js';
import type { RuntimeLogger } from '../../src/controller/controller.js';

describe('RuntimeMetrics', () => {
  it('exposes every series with its labels in the text format', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    metrics.reconciles.inc({ controller: 'appcred', result: 'success' });
    metrics.reconciles.inc({ controller: 'appcred', result: 'error' }, 2);
    metrics.reconcileDuration.observe({ controller: 'appcred' }, 0.2);
    metrics.queueDepth.set({ controller: 'appcred' }, 7);
    metrics.queueAdds.inc({ controller: 'appcred' });
    metrics.queueRetries.inc({ controller: 'appcred' });
    metrics.queueWait.observe({ controller: 'appcred' }, 0.003);
    metrics.actions.inc({ controller: 'appcred', kind: 'k8s.apply', outcome: 'applied' });
    metrics.externalRequests.inc({ api: 'keystone', operation: 'createApplicationCredential', status: '201' });
    metrics.externalRequestDuration.observe({ api: 'kubernetes', operation: 'get secrets' }, 0.04);
    metrics.limiterWait.observe({ api: 'keystone' }, 0.5);
    metrics.leader.set(1);
    metrics.informerRestarts.inc({ resource: 'secrets', kind: 'relist' });
    metrics.burstWatches.set({ controller: 'apikey-enforcement' }, 2);

    const text = await metrics.registry.metrics();
    expect(text).toContain('keyward_reconcile_total{controller="appcred",result="success"} 1');
    expect(text).toContain('keyward_reconcile_total{controller="appcred",result="error"} 2');
    expect(text).toContain('keyward_reconcile_duration_seconds_bucket{le="0.25",controller="appcred"} 1');
    expect(text).toContain('keyward_reconcile_duration_seconds_bucket{le="0.1",controller="appcred"} 0');
    expect(text).toContain('keyward_reconcile_duration_seconds_count{controller="appcred"} 1');
    expect(text).toContain('keyward_workqueue_depth{controller="appcred"} 7');
    expect(text).toContain('keyward_workqueue_adds_total{controller="appcred"} 1');
    expect(text).toContain('keyward_workqueue_retries_total{controller="appcred"} 1');
    expect(text).toContain('keyward_workqueue_queue_duration_seconds_bucket{le="0.01",controller="appcred"} 1');
    expect(text).toContain('keyward_actions_total{controller="appcred",kind="k8s.apply",outcome="applied"} 1');
    expect(text).toContain('keyward_external_requests_total{api="keystone",operation="createApplicationCredential",status="201"} 1');
    expect(text).toContain('keyward_external_request_duration_seconds_sum{api="kubernetes",operation="get secrets"} 0.04');
    expect(text).toContain('keyward_rate_limiter_wait_seconds_count{api="keystone"} 1');
    expect(text).toContain('keyward_leader 1');
    expect(text).toContain('keyward_informer_restarts_total{resource="secrets",kind="relist"} 1');
    expect(text).toContain('keyward_burst_watches{controller="apikey-enforcement"} 2');
    expect(text).toMatch(/^# HELP keyward_reconcile_total \S/m);
    expect(text).toMatch(/^# TYPE keyward_reconcile_duration_seconds histogram$/m);
  });

  it('reports not leading before anyone says otherwise', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    expect(await metrics.registry.metrics()).toContain('keyward_leader 0');
  });

  it('gives each instance its own registry with the process metrics, never the global one', async () => {
    const first = new RuntimeMetrics();
    const second = new RuntimeMetrics();
    expect(first.registry).not.toBe(second.registry);
    expect(first.registry).not.toBe(globalRegistry);
    expect(globalRegistry.getSingleMetric('keyward_reconcile_total')).toBeUndefined();

    first.reconciles.inc({ controller: 'a', result: 'success' });
    second.reconciles.inc({ controller: 'b', result: 'requeue' }, 3);
    const firstText = await first.registry.metrics();
    const secondText = await second.registry.metrics();
    expect(firstText).toContain('keyward_reconcile_total{controller="a",result="success"} 1');
    expect(firstText).not.toContain('controller="b"');
    expect(secondText).toContain('keyward_reconcile_total{controller="b",result="requeue"} 3');
    expect(secondText).not.toContain('controller="a"');
    for (const text of [firstText, secondText]) expect(text).toContain('process_cpu_seconds_total');
  });

  it('adds no process metrics to a registry it is given', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    expect(await metrics.registry.metrics()).not.toContain('process_cpu_seconds_total');
  });

  it('records whether each endpoint answers, and logs when one goes down and when it is back', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    const lines: [string, string, Record<string, unknown> | undefined][] = [];
    const logger: RuntimeLogger = {
      child: () => logger,
      debug: () => undefined,
      info: (message, meta) => lines.push(['info', message, meta]),
      warn: (message, meta) => lines.push(['warn', message, meta]),
      error: () => undefined,
    };
    const since = Date.parse('2026-01-01T00:00:00Z');
    const listeners = [endpointAvailabilityMetrics(metrics), endpointAvailabilityLog(logger, () => since + 61_234)];
    const change = { api: 'keystone', endpoint: 'http://keystone:5000/v3', since, cause: 'ECONNREFUSED' };

    for (const listener of listeners) listener({ ...change, available: false });
    const during = await metrics.registry.metrics();
    for (const listener of listeners) listener({ ...change, available: true });

    expect(during).toContain('keyward_endpoint_available{api="keystone",endpoint="http://keystone:5000/v3"} 0');
    expect(await metrics.registry.metrics()).toContain('keyward_endpoint_available{api="keystone",endpoint="http://keystone:5000/v3"} 1');
    const meta = { api: 'keystone', endpoint: 'http://keystone:5000/v3', cause: 'ECONNREFUSED', since: '2026-01-01T00:00:00.000Z' };
    expect(lines).toEqual([
      ['warn', 'endpoint unavailable: requests to it fail at once until a probe gets an answer', meta],
      ['info', 'endpoint answers again', { ...meta, downForS: 61.2 }],
    ]);
  });
});
