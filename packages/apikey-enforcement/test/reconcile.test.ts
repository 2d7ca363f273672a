import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { inspect } from 'node:util';
import { coreTypes, findCondition, renderPlanJson, renderPlanText, type Condition, InMemoryWorld, reconcileOnce } from '@keyward/kernel';
import { FakeClock, actionKinds, fixedEntropy, isQuiet } from '@keyward/kernel/testing';
import { apiKeyType, enforcementSecretName, type APIKey } from '../src/api.js';
import { apiKeyController } from '../src/controller.js';
import { decodeAPIKey } from '../src/decode.js';
import { observe, waitsForConsumerSecret } from '../src/observe.js';
import { reconcile, reportFailure } from '../src/reconcile.js';
import { apiKeyApis } from '../src/vocabulary.js';

const KEY = 'sk-live-4242-very-secret';
const config = { enforcementNamespace: 'kuadrant' };
const clock = new FakeClock('2026-05-01T00:00:00Z');

type Approval = 'none' | 'Approved' | 'Denied' | 'Failed';
type EnforcementState = 'present' | 'absent';
type ConsumerState = 'fine' | 'missing' | 'without api_key';

function condition(type: string): Condition {
  return { type, status: 'True', reason: type, message: '', lastTransitionTime: '2026-04-01T00:00:00Z' };
}

function world(approval: Approval, enforcement: EnforcementState, consumer: ConsumerState): InMemoryWorld {
  const w = new InMemoryWorld();
  w.put(apiKeyType, {
    metadata: { name: 'my-key', namespace: 'team-a' },
    spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'my-key-secret' }, planTier: 'gold', useCase: 'demo', requestedBy: { userId: 'u-1', email: 'a@example.com' } },
    status: { conditions: approval === 'none' ? [] : [condition(approval)] },
  });
  if (consumer !== 'missing') {
    w.put(coreTypes.secret, { metadata: { name: 'my-key-secret', namespace: 'team-a' }, data: consumer === 'fine' ? { api_key: Buffer.from(KEY).toString('base64') } : { other: 'eA==' } });
  }
  if (enforcement === 'present') {
    w.put(coreTypes.secret, { metadata: { name: enforcementSecretName('team-a', 'my-key'), namespace: 'kuadrant', labels: { 'app.kubernetes.io/managed-by': 'keyward-apikey-enforcement' } }, data: { api_key: 'b2xk' } });
  }
  return w;
}

const apiKeyRef = { type: apiKeyType, namespace: 'team-a', name: 'my-key' };

function apiKey(w: InMemoryWorld): APIKey {
  const decoded = decodeAPIKey(w.get(apiKeyRef) ?? { apiVersion: '', kind: '', metadata: { name: '' } });
  if (isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
}

/** What a reconcile would do now, without running it. */
function planFor(w: InMemoryWorld) {
  const primary = apiKey(w);
  return reconcile({ primary, observed: w.query(observe(primary, config)), now: clock.now(), config, entropy: fixedEntropy() });
}

/** One reconcile as the runtime does it: the plan it made and how it ran (a failure is then reported). */
async function reconcileIn(w: InMemoryWorld) {
  const { decision, result } = await reconcileOnce(apiKeyController, w, apiKeyRef, { config, now: clock.now() });
  if (decision.kind !== 'planned' || result === undefined) throw new Error(`no plan ran: ${decision.kind}`);
  return { plan: decision.plan, result };
}

const enforcementRef = { type: coreTypes.secret, namespace: 'kuadrant', name: enforcementSecretName('team-a', 'my-key') };
const consumerRef = { type: coreTypes.secret, namespace: 'team-a', name: 'my-key-secret' };

/** [approval, enforcement, consumer] -> [actions, Failed reason or undefined, enforcement Secret afterwards] */
const table: [Approval, EnforcementState, ConsumerState, string[], string | undefined, EnforcementState][] = [];
for (const enforcement of ['present', 'absent'] as const) {
  for (const consumer of ['fine', 'missing', 'without api_key'] as const) {
    table.push(['none', enforcement, consumer, [], undefined, enforcement]);
    table.push(['Failed', enforcement, consumer, [], undefined, enforcement]);
    table.push(['Denied', enforcement, consumer, enforcement === 'present' ? ['k8s.delete'] : [], undefined, 'absent']);
    if (enforcement === 'present') table.push(['Approved', enforcement, consumer, [], undefined, 'present']);
  }
  table.push(['Approved', 'absent', 'fine', ['k8s.create'], undefined, 'present']);
  table.push(['Approved', 'absent', 'missing', ['k8s.status'], 'SecretNotFound', 'absent']);
  table.push(['Approved', 'absent', 'without api_key', ['k8s.status'], 'SecretAPIKeyNotFound', 'absent']);
}

describe('APIKey enforcement decisions', () => {
  it.each(table)('%s, enforcement Secret %s, consumer Secret %s', async (approval, enforcement, consumer, actions, failure, after) => {
    const w = world(approval, enforcement, consumer);
    const consumerBefore = w.get(consumerRef);
    const { plan, result } = await reconcileIn(w);
    expect(actionKinds(plan)).toEqual(actions);
    expect(result.ok).toBe(true);
    expect(w.get(enforcementRef) !== undefined ? 'present' : 'absent').toBe(after);
    expect(findCondition(apiKey(w).status.conditions, 'Failed')?.reason).toBe(failure ?? (approval === 'Failed' ? 'Failed' : undefined));
    expect(w.get(consumerRef)).toEqual(consumerBefore);
    expect(isQuiet(planFor(w))).toBe(true);
  });

  it('creates the enforcement Secret with the exact labels, annotations and data', async () => {
    const w = world('Approved', 'absent', 'fine');
    await reconcileIn(w);
    const secret = w.get(enforcementRef);
    expect(secret?.metadata.labels).toEqual({
      'devportal.kuadrant.io/apiproduct': 'weather',
      'devportal.kuadrant.io/apikey': 'my-key',
      'devportal.kuadrant.io/apikey-namespace': 'team-a',
      'authorino.kuadrant.io/managed-by': 'authorino',
      'app.kubernetes.io/managed-by': 'keyward-apikey-enforcement',
    });
    expect(secret?.metadata.annotations).toMatchObject({ 'secret.kuadrant.io/user-id': 'u-1', 'secret.kuadrant.io/plan-id': 'gold', 'devportal.kuadrant.io/apikey': 'my-key' });
    expect(secret?.['type']).toBe('Opaque');
    expect(Buffer.from((secret?.['data'] as Record<string, string>)['api_key'] ?? '', 'base64').toString()).toBe(KEY);
  });

  it('reads a status whose conditions hold null, numbers or strings as one without them', () => {
    const w = world('Approved', 'absent', 'fine');
    const stored = w.get(apiKeyRef);
    if (stored === undefined) throw new Error('no APIKey');
    w.put(apiKeyType, { ...stored, status: { conditions: [null, 7, 'Approved', condition('Approved')] } });
    expect(apiKey(w).status.conditions).toEqual([condition('Approved')]);
  });

  it('never shows the key in a plan', () => {
    const p = planFor(world('Approved', 'absent', 'fine'));
    const base64 = Buffer.from(KEY).toString('base64');
    for (const text of [renderPlanText(p, apiKeyApis), JSON.stringify(renderPlanJson(p, apiKeyApis)), inspect(p, { depth: 20 })]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(base64);
    }
  });

  it('recovers by itself when the consumer Secret appears, clearing its Failed condition', async () => {
    const w = world('Approved', 'absent', 'missing');
    await reconcileIn(w);
    expect(findCondition(apiKey(w).status.conditions, 'Failed')?.message).toBe('Secret team-a/my-key-secret not found');
    w.put(coreTypes.secret, { metadata: { name: 'my-key-secret', namespace: 'team-a' }, data: { api_key: Buffer.from(KEY).toString('base64') } });
    await reconcileIn(w);
    expect(w.get(enforcementRef)).toBeDefined();
    expect(findCondition(apiKey(w).status.conditions, 'Failed')).toBeUndefined();
    expect(findCondition(apiKey(w).status.conditions, 'Approved')?.status).toBe('True');
  });

  it('does not take over a Secret of its name that lacks our label: the create fails and says so, the Secret stays', async () => {
    const w = world('Approved', 'absent', 'fine');
    w.put(coreTypes.secret, { metadata: { name: enforcementSecretName('team-a', 'my-key'), namespace: 'kuadrant' }, data: { api_key: 'Zm9yZWlnbg==' } });
    const { plan, result } = await reconcileIn(w);
    expect(actionKinds(plan)).toContain('k8s.create');
    expect(result.ok).toBe(false);
    expect(result.error?.reason).toBe('AlreadyExists');
    expect(w.get(enforcementRef)?.['data']).toEqual({ api_key: 'Zm9yZWlnbg==' });
    expect(findCondition(apiKey(w).status.conditions, 'Failed')?.reason).toBe('EnforcementSecretCreationFailed');
    // Denied: only our own Secret would be deleted, never this one.
    const denied = world('Denied', 'absent', 'fine');
    denied.put(coreTypes.secret, { metadata: { name: enforcementSecretName('team-a', 'my-key'), namespace: 'kuadrant' }, data: { api_key: 'Zm9yZWlnbg==' } });
    expect(actionKinds(planFor(denied))).not.toContain('k8s.delete');
  });

  it('reads the consumer Secret only to create the enforcement Secret', () => {
    const queries = (approval: Approval, enforcement: EnforcementState) => {
      const w = world(approval, enforcement, 'fine');
      return { asked: observe(apiKey(w), config).consumerSecret !== undefined, read: w.query(observe(apiKey(w), config)).consumerSecret !== undefined };
    };
    expect(queries('Approved', 'absent')).toEqual({ asked: true, read: true });
    expect(queries('Approved', 'present')).toEqual({ asked: true, read: false });
    expect(queries('none', 'absent')).toEqual({ asked: false, read: false });
    expect(queries('Denied', 'present')).toEqual({ asked: false, read: false });
  });

  it('asks for a watch on the consumer Secret only while the APIKey waits for it', async () => {
    const w = world('Approved', 'absent', 'missing');
    expect(waitsForConsumerSecret(apiKey(w))).toBe(false);
    await reconcileIn(w);
    expect(waitsForConsumerSecret(apiKey(w))).toBe(true);
    w.put(coreTypes.secret, { metadata: { name: 'my-key-secret', namespace: 'team-a' }, data: { api_key: Buffer.from(KEY).toString('base64') } });
    await reconcileIn(w);
    expect(waitsForConsumerSecret(apiKey(w))).toBe(false);
  });

  it('reports a read failure as SecretReadError and a create failure as EnforcementSecretCreationFailed', async () => {
    const w = world('Approved', 'absent', 'fine');
    await w.run(reportFailure(apiKey(w), { step: 'read the current state', action: 'observe', reason: 'Forbidden', message: 'HTTP 403', retryable: true }, clock.now()));
    expect(findCondition(apiKey(w).status.conditions, 'Failed')).toMatchObject({ reason: 'SecretReadError', message: expect.stringContaining('Secret team-a/my-key-secret could not be read') });
    await w.run(reportFailure(apiKey(w), { step: 'create Secret kuadrant/x', action: 'k8s.create', reason: 'Forbidden', message: 'HTTP 403', retryable: true }, clock.now()));
    expect(findCondition(apiKey(w).status.conditions, 'Failed')?.reason).toBe('EnforcementSecretCreationFailed');
  });
});
