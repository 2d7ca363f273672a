// What the pod settings and trustFlush of a spec make of the API Deployment and the trust_flush CronJob. The
// pods that run with them are in the pod tests (production.int.test.ts).
import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeKeystone } from '../src/decode.js';
import { deployment, trustFlushCronJob } from '../src/objects.js';
import type { Keystone } from '../src/spec.js';
import { baseSpec, namespace } from './fixtures.js';

function keystone(extra: Record<string, unknown> = {}): Keystone {
  const decoded = decodeKeystone({ apiVersion: 'keystone.openstack.c5c3.io/v1alpha1', kind: 'Keystone', metadata: { name: 'ks', namespace, uid: 'u', generation: 1 }, spec: { ...baseSpec, ...extra } });
  if (isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
}

interface PodTemplate {
  readonly spec: {
    readonly strategy: unknown;
    readonly template: { readonly spec: Record<string, unknown> & { readonly containers: readonly Record<string, unknown>[] } };
  };
}
const render = (cr: Keystone) => deployment(cr, 'ks-config-1', 'hash', cr.spec.replicas) as unknown as PodTemplate;

describe("the API Deployment's pod settings", () => {
  it('by default: one extra pod at a time, none missing, 30 s to stop of which 10 s serving while leaving the Service', () => {
    const { spec } = render(keystone());
    expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    expect(spec.template.spec['terminationGracePeriodSeconds']).toBe(30);
    expect(spec.template.spec['priorityClassName']).toBeUndefined();
    expect(spec.template.spec['topologySpreadConstraints']).toBeUndefined();
    expect(spec.template.spec.containers[0]?.['resources']).toBeUndefined();
    expect(spec.template.spec.containers[0]?.['lifecycle']).toEqual({ preStop: { exec: { command: ['sleep', '10'] } } });
    expect((spec.template.spec.containers[0]?.['command'] as string[]).slice(-4)).toEqual(['--processes', '2', '--threads', '1']);
  });

  it("runs uWSGI with the spec's workers, threads and stuck-request limit", () => {
    const { spec } = render(keystone({ uwsgi: { processes: 4, threads: 2, harakiri: 60 } }));
    expect((spec.template.spec.containers[0]?.['command'] as string[]).slice(-6)).toEqual(['--processes', '4', '--threads', '2', '--harakiri', '60']);
  });

  it("takes the spec's, and a spread without a selector counts this Keystone's API pods", () => {
    const { spec } = render(keystone({
      resources: { requests: { cpu: '500m' }, limits: { memory: '1Gi' } },
      priorityClassName: 'identity',
      terminationGracePeriodSeconds: 45,
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 3 },
        { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { tier: 'identity' } } },
      ],
      strategy: { rollingUpdate: { maxSurge: '50%' } },
    }));
    expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '50%' } });
    expect(spec.template.spec).toMatchObject({ priorityClassName: 'identity', terminationGracePeriodSeconds: 45 });
    expect(spec.template.spec.containers[0]?.['resources']).toEqual({ requests: { cpu: '500m' }, limits: { memory: '1Gi' } });
    expect(spec.template.spec['topologySpreadConstraints']).toEqual([
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 3, labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'keystone', 'app.kubernetes.io/instance': 'ks', 'app.kubernetes.io/managed-by': 'keyward', 'app.kubernetes.io/component': 'api' } } },
      { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { tier: 'identity' } } },
    ]);
  });

  it.each([
    ['a grace period no longer than the drain', { terminationGracePeriodSeconds: 10 }, 'spec.terminationGracePeriodSeconds'],
    ['a rollout that can neither add nor remove a pod', { strategy: { rollingUpdate: { maxSurge: '0%', maxUnavailable: 0 } } }, 'spec.strategy.rollingUpdate'],
    ['no uWSGI worker', { uwsgi: { processes: 0 } }, 'spec.uwsgi.processes'],
    ['a quantity with a space', { resources: { limits: { memory: '1 Gi' } } }, 'spec.resources.limits.memory'],
    ['a spread that never gives up or schedules anyway', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Sometimes' }] }, 'spec.topologySpreadConstraints[0].whenUnsatisfiable'],
  ])('refuses %s, naming the field', (_case, extra, path) => {
    expect(() => keystone(extra)).toThrow(`${path}:`);
  });
});

describe('the trust_flush CronJob', () => {
  it('runs keystone-manage trust_flush hourly by default, one at a time, with the configuration and database URL', () => {
    const cronJob = trustFlushCronJob(keystone(), 'ks-config-1') as unknown as { metadata: { name: string }; spec: Record<string, unknown> & { jobTemplate: { spec: { template: { spec: { containers: { command: string[]; env: { name: string }[] }[] } } } } } };
    expect(cronJob.metadata.name).toBe('ks-trust-flush');
    expect(cronJob.spec).toMatchObject({ schedule: '0 * * * *', timeZone: 'Etc/UTC', suspend: false, concurrencyPolicy: 'Forbid' });
    const [container] = cronJob.spec.jobTemplate.spec.template.spec.containers;
    expect(container?.command).toEqual(['/bin/sh', '-eu', '-c', 'exec keystone-manage --config-dir=/etc/keystone/keystone.conf.d/ trust_flush']);
    expect(container?.env.map((e) => e.name)).toEqual(['OS_DATABASE__CONNECTION', 'USER']);
  });

  it('passes its options quoted, and is suspended when asked', () => {
    const cronJob = trustFlushCronJob(keystone({ trustFlush: { schedule: '@daily', suspend: true, args: ['--date=2026-01-01T00:00:00', '--project-id=abc'] } }), 'c') as unknown as { spec: Record<string, unknown> & { jobTemplate: { spec: { template: { spec: { containers: { command: string[] }[] } } } } } };
    expect(cronJob.spec).toMatchObject({ schedule: '@daily', suspend: true });
    expect(cronJob.spec.jobTemplate.spec.template.spec.containers[0]?.command[3]).toBe("exec keystone-manage --config-dir=/etc/keystone/keystone.conf.d/ trust_flush '--date=2026-01-01T00:00:00' '--project-id=abc'");
  });
});
