import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { FairRateLimitMetrics } from '../../src/controller/fair-rate-limit-metrics.js';
import { settle } from '../io/fair-rate-limit-clock.js';
import { LimiterHarness, limits, namespaceWords } from '../io/fair-rate-limit-harness.js';

/** A metric's samples keyed by series: `name{label=value,...}` with labels sorted, or just `name`. */
async function valuesOf(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return Object.fromEntries(values.map((sample) => {
    const labels = Object.entries(sample.labels).map(([key, label]) => `${key}=${String(label)}`).sort().join(',');
    const series = 'metricName' in sample && typeof sample.metricName === 'string' ? sample.metricName : name;
    return [labels === '' ? series : `${series}{${labels}}`, sample.value];
  }));
}

describe('FairRateLimitMetrics', () => {
  it('counts acquisitions and time-outs per limit type and observes waits in seconds', async () => {
    const registry = new Registry();
    const metrics = new FairRateLimitMetrics(registry, namespaceWords);
    const harness = new LimiterHarness(
      limits({ tenant: { ratePerSecond: 1, burst: 1 }, token: { ratePerSecond: 1, burst: 1 }, maxWaitMs: 1500 }),
      metrics.observer,
    );
    harness.admin('team-a', 3);
    harness.token(1);
    await harness.clock.runUntilIdle();

    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_acquired_total')).toEqual({
      'keyward_keycloak_rate_limit_acquired_total{limit=namespace}': 2,
      'keyward_keycloak_rate_limit_acquired_total{limit=global}': 2,
      'keyward_keycloak_rate_limit_acquired_total{limit=token}': 1,
    });
    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_timed_out_total')).toEqual({
      'keyward_keycloak_rate_limit_timed_out_total{limit=namespace}': 1,
    });
    // team-a/1 passed at once, team-a/2 waited 1 s for its namespace, team-a/3 gave up after 1.5 s.
    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_wait_seconds')).toMatchObject({
      'keyward_keycloak_rate_limit_wait_seconds_count{limit=namespace}': 3,
      'keyward_keycloak_rate_limit_wait_seconds_sum{limit=namespace}': 2.5,
      'keyward_keycloak_rate_limit_wait_seconds_bucket{le=1,limit=namespace}': 2,
      'keyward_keycloak_rate_limit_wait_seconds_count{limit=global}': 2,
      'keyward_keycloak_rate_limit_wait_seconds_sum{limit=global}': 0,
      'keyward_keycloak_rate_limit_wait_seconds_count{limit=token}': 1,
    });
  });

  it('reports the watched limiter\'s budgets and queues when scraped', async () => {
    const registry = new Registry();
    const metrics = new FairRateLimitMetrics(registry, namespaceWords);
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 1, burst: 4 }, token: { ratePerSecond: 1, burst: 3 } }));
    metrics.watchBudgets(harness.limiter);
    harness.admin('team-a', 6);
    harness.admin('team-b', 1);
    harness.token(1);
    await settle();

    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_budget_tokens')).toEqual({
      'keyward_keycloak_rate_limit_budget_tokens{limit=global}': 0,
      'keyward_keycloak_rate_limit_budget_tokens{limit=token}': 2,
    });
    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_namespaces_waiting')).toEqual({ keyward_keycloak_rate_limit_namespaces_waiting: 2 });
    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_waiting_requests')).toEqual({
      'keyward_keycloak_rate_limit_waiting_requests{queue=admin}': 3,
      'keyward_keycloak_rate_limit_waiting_requests{queue=token}': 0,
    });

    await harness.clock.runUntilIdle();
    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_namespaces_waiting')).toEqual({ keyward_keycloak_rate_limit_namespaces_waiting: 0 });
  });

  it('reports no budgets before a limiter is watched', async () => {
    const registry = new Registry();
    new FairRateLimitMetrics(registry, namespaceWords);
    expect(await valuesOf(registry, 'keyward_keycloak_rate_limit_budget_tokens')).toEqual({});
  });
});
