import { describe, expect, it } from '@jest/globals';
import type { KubeCall, KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubeMetricsAccess } from '../../src/controller/metrics-access.js';

/**
 * An API server that knows two tokens (alice may get /metrics, bob may not) and records the reviews it is asked
 * for. The real server's answers are proven in the operator's metrics-auth integration test; this covers the
 * caching and the failures.
 */
function reviewer(options: { fail?: boolean } = {}): { kube: KubeClient; calls: string[] } {
  const calls: string[] = [];
  const users: Readonly<Record<string, string>> = { 'token-alice': 'alice', 'token-bob': 'bob' };
  const raw = (call: KubeCall): Promise<unknown> => {
    calls.push(call.resource);
    if (options.fail === true) return Promise.reject(new Error(`connect ECONNREFUSED (${JSON.stringify(call.body)})`));
    const body = call.body as { spec: { token?: string; user?: string; nonResourceAttributes?: { path: string; verb: string } } };
    if (call.resource === 'tokenreviews') {
      const username = users[body.spec.token ?? ''];
      return Promise.resolve({ status: username === undefined ? { authenticated: false, error: 'invalid bearer token' } : { authenticated: true, user: { username, groups: ['system:authenticated'] } } });
    }
    const { user, nonResourceAttributes } = body.spec;
    return Promise.resolve({ status: { allowed: user === 'alice' && nonResourceAttributes?.path === '/metrics' && nonResourceAttributes.verb === 'get' } });
  };
  return { kube: { raw } as unknown as KubeClient, calls };
}

describe('kubeMetricsAccess', () => {
  it('admits a token whose user may get /metrics, refuses one who may not (403), and one that is no valid token or none (401)', async () => {
    const access = kubeMetricsAccess(reviewer().kube);
    await expect(access('Bearer token-alice')).resolves.toEqual({ allowed: true });
    await expect(access('Bearer token-bob')).resolves.toEqual({ allowed: false, status: 403, reason: 'bob may not get /metrics' });
    await expect(access('Bearer token-mallory')).resolves.toEqual({ allowed: false, status: 401, reason: 'the token is not valid' });
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer']) {
      await expect(access(header)).resolves.toEqual({ allowed: false, status: 401, reason: 'a bearer token is required' });
    }
  });

  it('asks the API server once per token while its answer is fresh: a minute when allowed, ten seconds when refused', async () => {
    let now = 0;
    const { kube, calls } = reviewer();
    const access = kubeMetricsAccess(kube, { now: () => now });
    await access('Bearer token-alice');
    await access('Bearer token-bob');
    expect(calls).toEqual(['tokenreviews', 'subjectaccessreviews', 'tokenreviews', 'subjectaccessreviews']);
    now = 9_999;
    await access('Bearer token-alice');
    await access('Bearer token-bob');
    expect(calls).toHaveLength(4);
    now = 10_000;
    await access('Bearer token-alice');
    await access('Bearer token-bob');
    expect(calls).toHaveLength(6);
    now = 60_000;
    await expect(access('Bearer token-alice')).resolves.toEqual({ allowed: true });
    expect(calls).toHaveLength(8);
  });

  it('answers 500 when the API server cannot be asked, without the error\'s text, and asks again next time', async () => {
    const { kube, calls } = reviewer({ fail: true });
    const access = kubeMetricsAccess(kube);
    const verdict = await access('Bearer token-alice');
    expect(verdict).toEqual({ allowed: false, status: 500, reason: 'the API server could not review the request' });
    expect(JSON.stringify(verdict)).not.toContain('token-alice');
    await access('Bearer token-alice');
    expect(calls).toEqual(['tokenreviews', 'tokenreviews']);
  });
});
