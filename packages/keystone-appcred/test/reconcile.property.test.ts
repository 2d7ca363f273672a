import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { isLeft } from 'fp-ts/lib/Either.js';
import { renderPlanText, type Condition, type KubeObject, type Plan, type PlanFailure } from '@keyward/kernel';
import { entropyOf } from '@keyward/kernel/testing';
import { ACCESS_RULE_PATH, CONDITION_AC_READY, CONDITION_KEYSTONE_API_READY, CONDITION_READY, CR_FINALIZER, HTTP_METHODS, LABEL_APPLICATION_CREDENTIALS, LABEL_SERVICE, MAX_EXPIRATION_DAYS, ROLE_NAME, SECRET_PROTECTION_FINALIZER } from '../src/api.js';
import type { AppCredConfig } from '../src/config.js';
import { decodeAppCred } from '../src/decode.js';
import { observe } from '../src/observe.js';
import { computeSecurityHash, type SecurityRelevantSpec } from '../src/security-hash.js';
import { reconcile, reportFailure, reportInvalid } from '../src/reconcile.js';
import { appCredApis, type AppCredAction } from '../src/vocabulary.js';

/**
 * The pure functions are total: for every spec the schema admits and whatever the cluster holds (a foreign
 * KeystoneAPI with any status, Secrets with any data, a CR status another controller or an old version
 * wrote), they return a plan and never throw. A throw would be a reconcile that fails forever.
 */

const NS = 'openstack';

const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?$/);
const kubernetesName = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.'));

/** Every spec the codec admits, from its constraints (checked below: each one decodes). */
const accessRule = fc.record({
  service: fc.stringMatching(/^[a-zA-Z0-9-]{1,64}$/),
  path: fc.string({ maxLength: ACCESS_RULE_PATH.maxLength - 1 }).map((rest) => `/${rest}`),
  method: fc.constantFrom(...HTTP_METHODS),
});
/** A role name Keystone takes: up to 255 characters, not only spaces. */
const roleName = fc.string({ minLength: 1, maxLength: ROLE_NAME.maxLength }).filter((name) => new RegExp(ROLE_NAME.pattern).test(name));
const validSpec = fc
  .record({
    secret: kubernetesName,
    passwordSelector: fc.string({ minLength: 1 }),
    userName: fc.string({ minLength: 1 }),
    roles: fc.uniqueArray(roleName, { minLength: 1, maxLength: 4 }),
    unrestricted: fc.boolean(),
    accessRules: fc.option(fc.uniqueArray(accessRule, { maxLength: 3, selector: (r) => `${r.method} ${r.service} ${r.path}` }), { nil: undefined }),
    expirationDays: fc.oneof(fc.integer({ min: 2, max: MAX_EXPIRATION_DAYS }), fc.constantFrom(2, MAX_EXPIRATION_DAYS)),
  })
  .chain((spec) => fc.integer({ min: 1, max: spec.expirationDays - 1 }).map((gracePeriodDays) => ({ ...spec, gracePeriodDays })));

/** Times as they appear in a status: sane, at the edges of what a Date holds, or not times at all. */
const time = fc.oneof(
  fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2300-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '+010240-08-16T00:00:00Z', '9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z', 'yesterday', ''),
  fc.anything(),
);
const conditionLike = fc.record(
  { type: fc.oneof(fc.constantFrom(CONDITION_READY, CONDITION_KEYSTONE_API_READY, CONDITION_AC_READY, 'DBReady'), fc.anything()), status: fc.oneof(fc.constantFrom('True', 'False', 'Unknown'), fc.anything()), reason: fc.anything(), message: fc.oneof(fc.string({ unit: 'binary' }), fc.anything()), lastTransitionTime: time, severity: fc.string() },
  { requiredKeys: [] },
);
const conditions = fc.oneof(fc.array(fc.oneof(conditionLike, fc.anything()), { maxLength: 5 }), fc.anything());

/** A CR status written by anyone: our fields with any values, or no object at all. */
const garbageStatus = fc.oneof(
  fc.record(
    {
      acID: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,32}$/), fc.anything()),
      secretName: fc.oneof(kubernetesName, fc.anything()),
      previousSecretName: fc.oneof(kubernetesName, fc.anything()),
      createdAt: time,
      expiresAt: time,
      rotationEligibleAt: time,
      lastRotated: time,
      observedGeneration: fc.oneof(fc.integer(), fc.double(), fc.anything()),
      securityHash: fc.oneof(fc.string(), fc.anything()),
      pendingACName: fc.oneof(fc.string(), fc.anything()),
      conditions,
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);

/** A status as a converged CR has it (so the steady state is reached too), with a pending name at times. */
const convergedStatus = (spec: SecurityRelevantSpec) =>
  fc.record(
    {
      acID: fc.stringMatching(/^[0-9a-f]{32}$/),
      secretName: kubernetesName,
      previousSecretName: kubernetesName,
      expiresAt: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2400-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
      securityHash: fc.constant(computeSecurityHash(spec)),
      pendingACName: fc.string({ minLength: 1 }),
      conditions,
    },
    { requiredKeys: ['acID', 'secretName', 'expiresAt'] },
  );

const metadata = fc.record(
  {
    name: fc.oneof(label.map((l) => `ac-${l}`), label),
    namespace: fc.constant(NS),
    uid: fc.uuid(),
    generation: fc.nat(),
    resourceVersion: fc.nat().map(String),
    finalizers: fc.subarray([CR_FINALIZER, 'example.com/other']),
    deletionTimestamp: fc.constant('2026-03-01T12:00:00Z'),
  },
  { requiredKeys: ['name', 'namespace', 'uid', 'generation', 'resourceVersion', 'finalizers'] },
);

/** A Secret as the API server returns it, with any labels, finalizers and data (base64 or not, or no map). */
const secret = (service: string): fc.Arbitrary<KubeObject> =>
  fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Secret'),
    metadata: fc.record(
      {
        name: kubernetesName,
        namespace: fc.constant(NS),
        uid: fc.uuid(),
        labels: fc.oneof(fc.constant({ [LABEL_APPLICATION_CREDENTIALS]: 'true', [LABEL_SERVICE]: service }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
        finalizers: fc.subarray([SECRET_PROTECTION_FINALIZER, 'openstack.org/nova-ac-consumer', 'openstack.org/-ac-consumer', 'example.com/x']),
      },
      { requiredKeys: ['name', 'namespace', 'labels', 'finalizers'] },
    ),
    data: fc.oneof(fc.record({ AC_ID: fc.oneof(fc.base64String(), fc.string(), fc.anything()), AC_SECRET: fc.base64String() }, { requiredKeys: [] }), fc.anything()),
  });

/** A KeystoneAPI of keystone-operator's, whose status is not ours to trust: ready, or any shape at all. */
const readyKeystoneStatus = fc.record({
  conditions: fc.constant([{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Setup complete', lastTransitionTime: '2026-01-01T00:00:00Z' }]),
  apiEndpoints: fc.record({ internal: fc.webUrl() }),
});
const keystoneApi: fc.Arbitrary<KubeObject> = fc.record({
  apiVersion: fc.constant('keystone.openstack.org/v1beta1'),
  kind: fc.constant('KeystoneAPI'),
  metadata: fc.record({ name: label, namespace: fc.constant(NS) }),
  status: fc.oneof(
    readyKeystoneStatus,
    fc.record({ conditions, apiEndpoints: fc.oneof(fc.dictionary(fc.constantFrom('internal', 'public'), fc.oneof(fc.webUrl(), fc.string(), fc.anything())), fc.anything()) }, { requiredKeys: [] }),
    fc.anything(),
  ),
});

/** A Keystone of keystone-service's, read field by field as well: ready with an endpoint, or any shape at all. */
const keystone: fc.Arbitrary<KubeObject> = fc.record({
  apiVersion: fc.constant('keystone.openstack.c5c3.io/v1alpha1'),
  kind: fc.constant('Keystone'),
  metadata: fc.record({ name: label, namespace: fc.constant(NS) }),
  status: fc.oneof(
    fc.record({ conditions: readyKeystoneStatus.map((status) => status.conditions), endpoint: fc.webUrl() }),
    fc.record({ conditions, endpoint: fc.oneof(fc.webUrl(), fc.string(), fc.anything()) }, { requiredKeys: [] }),
    fc.anything(),
  ),
});

const config: fc.Arbitrary<AppCredConfig> = fc.record({
  keystoneUrl: fc.option(fc.oneof(fc.webUrl(), fc.string()), { nil: undefined }),
  revokeOnDelete: fc.boolean(),
  keystoneRetryMs: fc.nat(),
});

const now = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true });

const failure: fc.Arbitrary<PlanFailure> = fc.record({ step: fc.string({ unit: 'binary' }), action: fc.string(), reason: fc.string(), message: fc.string({ unit: 'binary' }), retryable: fc.boolean() });

/** A stored CR with a schema-valid spec and any status, decoded as the controller decodes it. */
const storedCr = validSpec.chain((spec) => fc.record({ metadata, spec: fc.constant(spec), status: fc.oneof(garbageStatus, convergedStatus(spec)) })).map(({ metadata: meta, spec, status: rawStatus }) => ({
  apiVersion: 'keystone.openstack.org/v1beta1',
  kind: 'KeystoneApplicationCredential',
  metadata: meta,
  spec,
  status: rawStatus,
}));

/** The world around it: what observe asks for, answered with anything the cluster could hold. */
const world = (service: string) =>
  fc.record({
    keystoneAPIs: fc.option(fc.array(keystoneApi, { maxLength: 3 }), { nil: undefined }),
    keystones: fc.option(fc.array(keystone, { maxLength: 3 }), { nil: undefined }),
    keystoneAPIsRequired: fc.option(fc.array(keystoneApi, { maxLength: 3 }), { nil: undefined }),
    serviceSecrets: fc.array(secret(service), { maxLength: 4 }),
    currentSecret: fc.option(secret(service), { nil: undefined }),
    previousSecret: fc.option(secret(service), { nil: undefined }),
  });

const scenario = storedCr.chain((raw) =>
  fc.record({ raw: fc.constant(raw), observed: world(raw.metadata.name.replace(/^ac-/, '')), config, now, entropy: fc.uint8Array({ maxLength: 8 }), failure }),
);

/** Keystone's expires_at as its parser accepts it: a four-digit year, microseconds, no zone. */
const KEYSTONE_EXPIRY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const INVISIBLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
const OURS = new Set([CONDITION_READY, CONDITION_KEYSTONE_API_READY, CONDITION_AC_READY]);

/** What every plan must satisfy beyond not throwing: Keystone can parse its expiry, waits are real durations, our conditions show no hidden text. */
function expectSane(plan: Plan<AppCredAction>): void {
  expect(() => renderPlanText(plan, appCredApis)).not.toThrow();
  for (const { action } of plan.steps) {
    if (action.kind === 'keystone.createApplicationCredential') expect(action.expiresAt).toMatch(KEYSTONE_EXPIRY);
    if (action.kind === 'control.requeueAfter') {
      expect(Number.isFinite(action.afterMs)).toBe(true);
      expect(action.afterMs).toBeGreaterThanOrEqual(0);
    }
    if (action.kind === 'k8s.status') {
      // A condition the status already holds, as it is, is carried over rather than written: the text is not ours.
      const stored = (action.observed as { conditions?: readonly Condition[] } | undefined)?.conditions ?? [];
      const written = ((action.status as { conditions?: readonly Condition[] }).conditions ?? []).filter((c) => !stored.some((s) => isDeepStrictEqual(s, c)));
      for (const condition of written.filter((c) => OURS.has(c.type))) expect(INVISIBLE.test(`${condition.reason}${condition.message}`)).toBe(false);
    }
  }
}

describe('the pure appcred functions are total', () => {
  it('every spec generated from the codec constraints decodes, whatever the status holds', () => {
    fc.assert(
      fc.property(storedCr, (raw) => {
        const decoded = decodeAppCred(raw);
        expect(isLeft(decoded) ? decoded.left.message : '').toBe('');
      }),
    );
  });

  it('observe, reconcile and reportFailure never throw, for every valid spec and any observed state', () => {
    fc.assert(
      fc.property(scenario, ({ raw, observed, config: cfg, now: at, entropy, failure: why }) => {
        const decoded = decodeAppCred(raw);
        if (isLeft(decoded)) throw new Error(decoded.left.message);
        const cr = decoded.right;
        observe(cr, cfg);
        expectSane(reconcile({ primary: cr, observed, now: at, config: cfg, entropy: entropyOf(entropy) }));
        expectSane(reportFailure(cr, why, at));
      }),
      { numRuns: 300 },
    );
  });

  it('at the longest lifetime, Keystone is asked for an expiry it can parse', () => {
    fc.assert(
      fc.property(now, (at) => {
        const raw = { apiVersion: 'v', kind: 'k', metadata: { name: 'ac-x', namespace: NS, uid: 'u', generation: 1, resourceVersion: '1', finalizers: [CR_FINALIZER] }, spec: { secret: 's', passwordSelector: 'p', userName: 'u', roles: ['r'], expirationDays: MAX_EXPIRATION_DAYS } };
        const decoded = decodeAppCred(raw);
        if (isLeft(decoded)) throw new Error(decoded.left.message);
        const plan = reconcile({ primary: decoded.right, observed: { keystoneAPIs: undefined, keystones: undefined, keystoneAPIsRequired: undefined, serviceSecrets: [], currentSecret: undefined, previousSecret: undefined }, now: at, config: { revokeOnDelete: false, keystoneRetryMs: 1, keystoneUrl: 'http://keystone' }, entropy: entropyOf(new Uint8Array(5)) });
        const create = plan.steps.find((s) => s.action.kind === 'keystone.createApplicationCredential')?.action;
        expect(create?.kind === 'keystone.createApplicationCredential' ? create.expiresAt : '').toMatch(KEYSTONE_EXPIRY);
      }),
    );
  });

  it('reportInvalid never throws, whatever the object holds besides its metadata', () => {
    const anyObject = fc.record({ metadata, spec: fc.anything(), status: garbageStatus }).map((o) => ({ apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', ...o }));
    fc.assert(
      fc.property(anyObject, now, (object, at) => {
        const decoded = decodeAppCred(object);
        const why = isLeft(decoded) ? decoded.left : { message: 'spec: required', problems: [] };
        expectSane(reportInvalid(object, why, at));
      }),
      { numRuns: 300 },
    );
  });
});
