// The shapes C5C3's Keystone API allows are accepted and mean what they mean there.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, findCondition, reconcileOnce, type ObjectRef } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { FakeClock } from '@keyward/kernel/testing';
import { defaultKeystoneServiceConfig, keystoneServiceController, keystoneType } from '../src/index.js';
import { LABEL_CONFIG_OF } from '../src/api.js';
import { b64, baseSpec, keystoneWorld, namespace, putKeystone, type KeystoneWorld } from './fixtures.js';

const ref: ObjectRef = { type: keystoneType, namespace, name: 'keystone' };

async function reconcile(world: KeystoneWorld) {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: new FakeClock('2026-01-01T00:00:00Z').now() });
  if (outcome.decision.kind !== 'planned' && outcome.decision.kind !== 'invalid') throw new Error(outcome.decision.kind);
  return readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions);
}

function world(spec: Record<string, unknown>, policyYaml?: string): KeystoneWorld {
  const w = keystoneWorld();
  w.put(coreTypes.secret, { metadata: { name: 'keystone-db', namespace }, data: { username: b64('keystone'), 'db-password': b64('db-pass-1') } });
  w.put(coreTypes.secret, { metadata: { name: 'keystone-admin', namespace }, data: { password: b64('admin-pass-1') } });
  if (policyYaml !== undefined) w.put(coreTypes.configMap, { metadata: { name: 'policy', namespace }, data: { 'policy.yaml': policyYaml } });
  putKeystone(w, { ...baseSpec, ...spec });
  return w;
}

/** The policy.yaml of the one configuration rendered so far (the status names it only once it is validated). */
const renderedPolicy = (w: KeystoneWorld): string | undefined => {
  const [rendered, ...more] = w.list(coreTypes.configMap, namespace, { [LABEL_CONFIG_OF]: 'keystone' });
  if (more.length > 0) throw new Error('more than one configuration was rendered');
  return (rendered?.['data'] as Record<string, string> | undefined)?.['policy.yaml'];
};

describe("C5C3's Keystone shapes", () => {
  it('reads the database password from database.secretRef.key', async () => {
    const w = world({ database: { ...baseSpec.database, secretRef: { name: 'keystone-db', key: 'db-password' } }, credentialKeys: { rotationSchedule: '0 0 1 * *' } });
    const conditions = await reconcile(w);
    expect(findCondition(conditions, 'SecretsReady')).toMatchObject({ status: 'True' });
    const data = w.get({ type: coreTypes.secret, namespace, name: 'keystone-db-connection' })?.['data'] as Record<string, string> | undefined;
    expect(Buffer.from(data?.['connection'] ?? '', 'base64').toString()).toContain(':db-pass-1@');
  });

  it('takes policy rules and a ConfigMap together, the inline rules winning', async () => {
    const w = world({
      database: { ...baseSpec.database, secretRef: { name: 'keystone-db', key: 'db-password' } },
      policyOverrides: { rules: { 'identity:list_users': 'role:admin' }, configMapRef: { name: 'policy' } },
    }, '"identity:list_users": "role:reader"\n"identity:get_user": "role:member"\n');
    await reconcile(w);
    expect(renderedPolicy(w)).toBe('"identity:get_user": "role:member"\n"identity:list_users": "role:admin"\n');
  });

  it('says so when the ConfigMap cannot take inline rules', async () => {
    const w = world({
      database: { ...baseSpec.database, secretRef: { name: 'keystone-db', key: 'db-password' } },
      policyOverrides: { rules: { a: 'b' }, configMapRef: { name: 'policy' } },
    }, '- just a list\n');
    expect(findCondition(await reconcile(w), 'SecretsReady')).toMatchObject({ status: 'False', reason: 'PolicyInvalid', message: 'the policy.yaml of ConfigMap policy cannot take the inline rules: it is not a map of rule to check string' });
  });
});

describe('middleware', () => {
  it('is refused with a message that names the field and says why', async () => {
    const w = world({ middleware: [{ name: 'audit', filterFactory: 'audit.filter_factory', position: 'after' }] });
    const ready = findCondition(await reconcile(w), 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(ready?.message).toContain('spec.middleware: middleware is not supported: Keystone builds its WSGI pipeline in code and never reads api-paste.ini');
    expect(w.events.filter((e) => e.type === 'Warning').map((e) => e.reason)).toEqual(['InvalidSpec']);
  });
});
