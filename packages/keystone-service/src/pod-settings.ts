import * as t from 'io-ts';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN, integerInRange, minLengthString, oneOf } from '@keyward/kernel/model';
import { matching, refine } from './codec-helpers.js';

// How the API pods are scheduled, sized and stopped (C5C3's resources, topologySpreadConstraints,
// priorityClassName, terminationGracePeriodSeconds and strategy): the codec, the CRD's schema of the same rules,
// and what each adds to the Deployment.

/**
 * How long a stopping API pod goes on serving before uWSGI gets SIGTERM (and, with --die-on-term, exits at
 * once): long enough for the endpoints controller and kube-proxy to stop sending it new connections, so a
 * rollout drops no request.
 */
export const DRAIN_SECONDS = 10;
export const DEFAULT_GRACE_SECONDS = 30;
export const MAX_GRACE_SECONDS = 3_600;

/** A Kubernetes quantity ("500m", "1.5", "2Gi", "1e3"), as the API server's own schema for one states it. */
export const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
/** maxSurge and maxUnavailable: a number of pods or a percentage of replicas. */
export const COUNT_OR_PERCENT_PATTERN = '^[0-9]+%?$';
export const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'] as const;
export const NO_PROGRESS_MESSAGE = 'maxSurge and maxUnavailable cannot both be 0 (maxSurge defaults to 1, maxUnavailable to 0): a rollout could never start a pod or stop one';

const quantity = t.union([t.Int, matching(QUANTITY_PATTERN, 'a quantity such as 500m, 1.5 or 2Gi')]);
const resourceList = t.record(minLengthString(1), quantity);
const countOrPercent = t.union([integerInRange(0, 1_000), matching(COUNT_OR_PERCENT_PATTERN, 'a number of pods or a percentage such as 25%')]);
const isZero = (value: string | number | undefined): boolean => value === 0 || value === '0' || value === '0%';

const RollingUpdateCodec = refine(t.partial({ maxSurge: countOrPercent, maxUnavailable: countOrPercent }), (r) =>
  r.maxSurge !== undefined && isZero(r.maxSurge) && isZero(r.maxUnavailable ?? 0) ? NO_PROGRESS_MESSAGE : undefined);

/** A constraint as the pod spec takes it; its other fields (minDomains, matchLabelKeys, ...) pass as given. */
const TopologySpreadCodec = t.intersection([
  t.type({ maxSkew: integerInRange(1, 1_000), topologyKey: minLengthString(1), whenUnsatisfiable: oneOf(WHEN_UNSATISFIABLE) }),
  t.UnknownRecord,
]);

const UwsgiCodec = t.partial({ processes: integerInRange(1, 64), threads: integerInRange(1, 64), harakiri: integerInRange(1, MAX_GRACE_SECONDS) });

export const podSettingsCodecs = {
  uwsgi: UwsgiCodec,
  resources: t.partial({ requests: resourceList, limits: resourceList }),
  topologySpreadConstraints: t.array(TopologySpreadCodec),
  priorityClassName: matching(DNS1123_SUBDOMAIN_PATTERN, 'a PriorityClass name'),
  terminationGracePeriodSeconds: integerInRange(DRAIN_SECONDS + 1, MAX_GRACE_SECONDS),
  strategy: t.partial({ rollingUpdate: RollingUpdateCodec }),
};

export type PodSettings = { readonly [K in keyof typeof podSettingsCodecs]?: t.TypeOf<(typeof podSettingsCodecs)[K]> };

const intOrString = (pattern: string) => ({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern });
const resourceListSchema = (description: string) => ({ type: 'object', additionalProperties: intOrString(QUANTITY_PATTERN), description });
const zero = (field: string) => `string(self.${field}) in ['0', '0%']`;

export const DEFAULT_UWSGI = { processes: 2, threads: 1 };

export const podSettingsSchema = {
  uwsgi: {
    type: 'object',
    description: 'How uWSGI serves Keystone in each API pod.',
    properties: {
      processes: { type: 'integer', minimum: 1, maximum: 64, description: `Worker processes, each with its own database pool; default ${String(DEFAULT_UWSGI.processes)}.` },
      threads: { type: 'integer', minimum: 1, maximum: 64, description: `Threads per worker; default ${String(DEFAULT_UWSGI.threads)}.` },
      harakiri: { type: 'integer', minimum: 1, maximum: MAX_GRACE_SECONDS, description: 'Seconds after which uWSGI kills a worker stuck in one request (and starts a new one); default none.' },
    },
  },
  resources: {
    type: 'object',
    description: 'Requests and limits of the keystone container, as a container\'s resources: resource name (cpu, memory, ...) to a quantity. Default none.',
    properties: { requests: resourceListSchema('What the scheduler reserves for the container.'), limits: resourceListSchema('What the container may use at most.') },
  },
  topologySpreadConstraints: {
    type: 'array',
    description: 'How the API pods spread over zones or nodes, as the pod spec takes it; without a labelSelector a constraint counts this Keystone\'s API pods.',
    items: {
      type: 'object',
      required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        maxSkew: { type: 'integer', minimum: 1, maximum: 1_000, description: 'How many more API pods one topology domain may have than another.' },
        topologyKey: { type: 'string', minLength: 1, description: 'The node label whose values are the domains (topology.kubernetes.io/zone, kubernetes.io/hostname).' },
        whenUnsatisfiable: { type: 'string', enum: [...WHEN_UNSATISFIABLE], description: 'DoNotSchedule keeps a pod pending rather than skew more; ScheduleAnyway only prefers spreading.' },
      },
    },
  },
  priorityClassName: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN, description: 'The PriorityClass of the API pods.' },
  terminationGracePeriodSeconds: {
    type: 'integer',
    minimum: DRAIN_SECONDS + 1,
    maximum: MAX_GRACE_SECONDS,
    description: `Seconds a stopping API pod has: it serves ${String(DRAIN_SECONDS)} more seconds while it leaves the Service, then uWSGI stops. From ${String(DRAIN_SECONDS + 1)} to ${String(MAX_GRACE_SECONDS)}; default ${String(DEFAULT_GRACE_SECONDS)}.`,
  },
  strategy: {
    type: 'object',
    description: 'How the API pods are replaced, always one rollout at a time.',
    properties: {
      rollingUpdate: {
        type: 'object',
        description: 'Pods started above replicas (maxSurge, default 1) and pods missing below them (maxUnavailable, default 0) during a rollout: a number or a percentage of replicas.',
        properties: {
          maxSurge: { ...intOrString(COUNT_OR_PERCENT_PATTERN), description: 'Pods started above replicas during a rollout: a number or a percentage; default 1.' },
          maxUnavailable: { ...intOrString(COUNT_OR_PERCENT_PATTERN), description: 'Pods that may be missing below replicas during a rollout: a number or a percentage; default 0.' },
        },
        'x-kubernetes-validations': [{ rule: `!(has(self.maxSurge) && ${zero('maxSurge')} && (!has(self.maxUnavailable) || ${zero('maxUnavailable')}))`, message: NO_PROGRESS_MESSAGE }],
      },
    },
  },
};

/** uWSGI's options for the settings: worker processes and threads, and the stuck-request limit. */
export function uwsgiOptions(settings: PodSettings): string[] {
  const { processes = DEFAULT_UWSGI.processes, threads = DEFAULT_UWSGI.threads, harakiri } = settings.uwsgi ?? {};
  return ['--processes', String(processes), '--threads', String(threads), ...(harakiri === undefined ? [] : ['--harakiri', String(harakiri)])];
}

/** What the settings add to the API Deployment: its strategy, and the pod spec's and container's fields. */
export function deploymentSettings(settings: PodSettings, podLabels: Readonly<Record<string, string>>) {
  const { resources, topologySpreadConstraints, priorityClassName, terminationGracePeriodSeconds = DEFAULT_GRACE_SECONDS, strategy } = settings;
  return {
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1, ...strategy?.rollingUpdate } },
    pod: {
      terminationGracePeriodSeconds,
      ...(priorityClassName === undefined ? {} : { priorityClassName }),
      ...(topologySpreadConstraints === undefined ? {} : { topologySpreadConstraints: topologySpreadConstraints.map((c) => ({ labelSelector: { matchLabels: podLabels }, ...c })) }),
    },
    container: resources === undefined ? {} : { resources },
  };
}
