import { describe, expect, it } from '@jest/globals';
import { KeywardError } from '@keyward/kernel/interpreter';
import { FairRateLimitMetrics, RuntimeMetrics } from '@keyward/runtime/controller';
import { defaultKeycloakRateLimits, keycloakRateLimitNames, keycloakRateLimiter } from '../../src/io.js';

describe('Keycloak rate limits', () => {
  it('default to 5/s burst 10 per namespace and 50/s burst 100 globally', () => {
    expect(defaultKeycloakRateLimits).toMatchObject({
      tenant: { ratePerSecond: 5, burst: 10 },
      global: { ratePerSecond: 50, burst: 100 },
    });
    expect(() => keycloakRateLimiter(defaultKeycloakRateLimits)).not.toThrow();
  });

  it('refuse an unusable limit in Keycloak\'s words', () => {
    expect(() => keycloakRateLimiter({ ...defaultKeycloakRateLimits, maxWaitMs: 0 })).toThrow(/^Keycloak rate limit maxWaitMs must be/);
  });

  it('tell a namespace that waited too long in Keycloak\'s words', async () => {
    const limiter = keycloakRateLimiter({ ...defaultKeycloakRateLimits, tenant: { ratePerSecond: 0.001, burst: 1 }, maxWaitMs: 1 });
    await limiter.acquire('team-a');
    const error = await limiter.acquire('team-a').then(() => undefined, (rejected: unknown) => rejected);
    expect(error).toBeInstanceOf(KeywardError);
    expect(error).toMatchObject({ api: 'keycloak', reason: 'RateLimited' });
    expect((error as KeywardError).message).toMatch(/^Keycloak admin request for namespace team-a gave up after waiting \d+ ms: the namespace's limit/);
  });

  it('keep the metric names and labels of the earlier Keycloak limiter', async () => {
    const metrics = new RuntimeMetrics();
    const limiterMetrics = new FairRateLimitMetrics(metrics.registry, keycloakRateLimitNames);
    limiterMetrics.watchBudgets(keycloakRateLimiter(defaultKeycloakRateLimits, { observer: limiterMetrics.observer }));
    limiterMetrics.observer.onAcquired?.('tenant', 0);
    const text = await metrics.registry.metrics();
    for (const line of [
      'keyward_keycloak_rate_limit_acquired_total{limit="namespace"} 1',
      'keyward_keycloak_rate_limit_wait_seconds_count{limit="namespace"} 1',
      'keyward_keycloak_rate_limit_budget_tokens{limit="global"} 100',
      'keyward_keycloak_rate_limit_namespaces_waiting 0',
      'keyward_keycloak_rate_limit_waiting_requests{queue="admin"} 0',
      'keyward_keycloak_rate_limit_waiting_requests{queue="token"} 0',
      '# TYPE keyward_keycloak_rate_limit_timed_out_total counter',
    ]) expect(text).toContain(line);
  });
});
