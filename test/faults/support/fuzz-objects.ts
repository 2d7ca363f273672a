// Generated KeystoneApplicationCredentials and APIKeys for the fuzz scenario: valid specs with zero to three
// mutations each (wrong types, missing and extra fields, boundary and huge numbers, repeats, strange strings),
// odd names, and odd status contents written afterwards. Whether each is valid is not decided here: the API
// server and the codecs give their verdicts, and the scenario compares them.
import fc from 'fast-check';
import { seededRandom } from './options.js';
import { RawNumber } from '@keyward/test-env';

export type FuzzKind = 'appcred' | 'apikey';

export interface FuzzObject {
  readonly kind: FuzzKind;
  readonly name: string;
  /** The object as sent (RawNumbers written as their text); no `spec` key when the spec is left out. */
  readonly body: Readonly<Record<string, unknown>>;
  /** Written to the status subresource once the operator has looked at the object; undefined: none. */
  readonly status: unknown;
  /** The mutations applied to a valid spec, as paths (for the report of a failure). */
  readonly mutations: readonly string[];
}

/** What the valid specs refer to: the environment's password Secret and user, and a consumer Secret. */
export interface FuzzWorld {
  readonly passwordSecret: string;
  readonly passwordKey: string;
  readonly userName: string;
  readonly consumerSecret: string;
}

/** Removes the field a mutation points at. */
const MISSING = Symbol('missing');
type Replacement = unknown;

/** Control and bidi characters, backslashes and separators that names, selectors and terminals react to. */
const oddCharacter = fc.constantFrom('\u0000', '\u0001', '\n', '\t', '\u001b', '\u007f', '\u0085', '\u202a', '\u202e', '\u2066', '\u2069', '\\', '/', ',', '=', ' ', '.', '-', 'a', 'Z', '0', 'é', '😀');

const strangeString = fc.oneof(
  fc.constantFrom('', ' ', '\\', 'a\\b', '..', '.', 'a,b', 'a=b', 'UPPER', '-lead', 'trail-', 'evil\u202Egnp.exe', 'line\nbreak', 'nul\u0000byte', 'a'.repeat(254), 'x'.repeat(70_000)),
  fc.string({ unit: oddCharacter, minLength: 1, maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Boundaries of the appcred day counts, JavaScript's integer limits, and numbers no int64 holds. */
const oddNumber = fc.oneof(
  fc.constantFrom(0, 1, 2, 3, -1, 181, 182, 183, 364, 365, 366, 36_499, 36_500, 36_501, 100_000_000, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 0.5, 2.5, 1e300, -1e300),
  fc.constantFrom(new RawNumber('9007199254740993'), new RawNumber('-9007199254740993'), new RawNumber('100000000000000000000000'), new RawNumber('1e400'), new RawNumber('365.0')),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const wrongType = fc.oneof(fc.constant(null), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(strangeString, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }));

const replacement: fc.Arbitrary<Replacement> = fc.oneof(fc.constant(MISSING), oddNumber, wrongType, strangeString);

/** An RFC 3339 date-time, as the CRDs' `format: date-time` wants it. */
const dateTime = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().replace(/\.\d+Z$/, 'Z'));

/** A deep copy that keeps RawNumbers (fast-check hands out constants by reference, and mutations change them). */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value !== 'object' || value === null || value instanceof RawNumber) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
}

/** Sets (or, with MISSING, removes) the value at `path` ("accessRules[0].method") in `target`, creating what is missing. */
function setPath(target: Record<string, unknown>, path: string, value: Replacement): void {
  const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  let node: Record<string, unknown> = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1] ?? '';
  if (value === MISSING) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else Reflect.deleteProperty(node, last);
  } else {
    node[last] = value;
  }
}

/** A mutation: a field set to an odd value or removed, or a change that makes a valid spec invalid as a whole. */
type Mutation = (spec: Record<string, unknown>) => string;

function fieldMutation(paths: readonly string[]): fc.Arbitrary<Mutation> {
  return fc.tuple(fc.constantFrom(...paths), replacement).map(([path, value]): Mutation => (spec) => {
    setPath(spec, path, copy(value));
    return path;
  });
}

const extraField: fc.Arbitrary<Mutation> = fc.tuple(fc.constantFrom('extra', 'Roles', 'expirationdays', 'status', 'metadata'), fc.jsonValue({ maxDepth: 2 })).map(([key, value]): Mutation => (spec) => {
  spec[key] = copy(value);
  return key;
});

/** A list field holding one item twice. */
function repeatItem(path: string): Mutation {
  return (spec) => {
    const list = spec[path];
    if (Array.isArray(list) && list.length > 0) list.push(copy(list[0]));
    return `${path}[repeat]`;
  };
}

/** Two access rules whose fields differ but read alike when joined with spaces ("a b"+"c" and "a"+"b c"). */
const spacedRules: Mutation = (spec) => {
  spec['accessRules'] = [{ service: 'image b', path: '/v2', method: 'GET' }, { service: 'image', path: 'b /v2', method: 'GET' }];
  return 'accessRules[spaced]';
};

const graceNotBelowExpiration: fc.Arbitrary<Mutation> = fc.integer({ min: 2, max: 36_500 }).map((days): Mutation => (spec) => {
  spec['expirationDays'] = days;
  spec['gracePeriodDays'] = Math.min(days, 36_499);
  return 'gracePeriodDays>=expirationDays';
});

const appCredFields = ['secret', 'passwordSelector', 'userName', 'expirationDays', 'gracePeriodDays', 'roles', 'roles[0]', 'roles[1]', 'unrestricted', 'accessRules', 'accessRules[0]', 'accessRules[0].service', 'accessRules[0].path', 'accessRules[0].method'];
const apiKeyFields = ['apiProductRef', 'apiProductRef.name', 'apiProductRef.namespace', 'secretRef', 'secretRef.name', 'planTier', 'useCase', 'requestedBy', 'requestedBy.userId', 'requestedBy.email', 'expiresAt'];

const appCredMutation = fc.oneof(
  { weight: 6, arbitrary: fieldMutation(appCredFields) },
  { weight: 1, arbitrary: extraField },
  { weight: 1, arbitrary: fc.constant(repeatItem('roles')) },
  { weight: 1, arbitrary: fc.constant(repeatItem('accessRules')) },
  { weight: 1, arbitrary: fc.constant(spacedRules) },
  { weight: 1, arbitrary: graceNotBelowExpiration },
);

const apiKeyMutation = fc.oneof({ weight: 6, arbitrary: fieldMutation(apiKeyFields) }, { weight: 1, arbitrary: extraField });

const accessRule = fc.record({ service: fc.constantFrom('identity', 'image', 'compute'), path: fc.constantFrom('/v3/users', '/v2/images/*', '/**'), method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE') });

function validAppCredSpec(world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  const days = fc.option(fc.integer({ min: 2, max: 36_500 }), { nil: undefined }).chain((expiration) => fc.record({
    expirationDays: fc.constant(expiration),
    gracePeriodDays: fc.option(fc.integer({ min: 1, max: (expiration ?? 365) - 1 }), { nil: undefined }),
  }));
  return fc.record({
    // Mostly what works (the user has the service role), so that many credentials are really created.
    secret: fc.constantFrom(world.passwordSecret, world.passwordSecret, world.passwordSecret, 'no-such-secret'),
    passwordSelector: fc.constantFrom(world.passwordKey, world.passwordKey, world.passwordKey, 'NoSuchKey'),
    userName: fc.constantFrom(world.userName, world.userName, world.userName, 'nobody'),
    roles: fc.oneof({ weight: 3, arbitrary: fc.constant(['service']) }, { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom('service', 'reader', 'member', 'admin'), { minLength: 1, maxLength: 3 }) }),
    days,
    unrestricted: fc.option(fc.boolean(), { nil: undefined }),
    accessRules: fc.option(fc.uniqueArray(accessRule, { maxLength: 3, selector: (r) => JSON.stringify([r.service, r.path, r.method]) }), { nil: undefined }),
  }).map(({ days: { expirationDays, gracePeriodDays }, ...spec }) => withoutUndefined({ ...spec, expirationDays, gracePeriodDays }));
}

function validAPIKeySpec(world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    apiProductRef: fc.record({ name: fc.constantFrom('product-a', 'ünïcödé', 'p'), namespace: fc.option(fc.constantFrom('other', ''), { nil: undefined }) }).map(withoutUndefined),
    secretRef: fc.record({ name: fc.constantFrom(world.consumerSecret, world.consumerSecret, 'no-such-consumer') }),
    planTier: fc.constantFrom('gold', 'silver', ''),
    useCase: fc.string({ maxLength: 30 }),
    requestedBy: fc.record({ userId: fc.constantFrom('u-1', 'someone'), email: fc.constantFrom('a@example.com', '') }),
    expiresAt: fc.option(dateTime, { nil: undefined }),
  }).map(withoutUndefined);
}

function withoutUndefined(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** The spec: valid, then mutated up to three times; or left out, or not an object at all. */
function spec(valid: fc.Arbitrary<Record<string, unknown>>, mutation: fc.Arbitrary<Mutation>): fc.Arbitrary<{ readonly spec: unknown; readonly mutations: string[] }> {
  // About two in five specs stay valid, so the operator has plenty to reconcile as well as to refuse.
  const mutations = fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) });
  const mutated = fc.tuple(valid, mutations).map(([base, drawn]) => {
    const mutable = copy(base) as Record<string, unknown>;
    return { spec: mutable, mutations: drawn.map((mutate) => mutate(mutable)) };
  });
  const whole = fc.oneof(fc.constant(MISSING), oddNumber, wrongType, strangeString).map((value) => ({ spec: value, mutations: ['spec'] }));
  return fc.oneof({ weight: 12, arbitrary: mutated }, { weight: 1, arbitrary: whole });
}

/**
 * A name shape, made unique with the object's index: the controllers' own convention (`ac-<service>`), other
 * valid names, names at and beyond the length limits, and names the API server refuses.
 */
const nameShape = fc.oneof(
  { weight: 8, arbitrary: fc.constant((i: string) => `ac-f${i}`) },
  { weight: 3, arbitrary: fc.constant((i: string) => `fuzz-${i}`) },
  { weight: 1, arbitrary: fc.constant((i: string) => `ac-f${i}.dotted`) },
  { weight: 2, arbitrary: fc.constantFrom(66, 67, 200, 253, 254).map((length) => (i: string) => `ac-f${i}-`.padEnd(length, 'x')) },
  { weight: 2, arbitrary: fc.constantFrom((i: string) => `AC-F${i}`, (i: string) => `ac-f${i}_x`, () => 'ac-', (i: string) => `ac-f${i}-`, (i: string) => `ac-f${i}\u202e`, (i: string) => `ac-f${i}\\x`) },
);

/** A condition someone else wrote: any mix of missing fields, odd values and invisible characters. */
const oddCondition = fc.record(
  {
    type: fc.oneof(fc.constantFrom('Ready', 'KeystoneApplicationCredentialReady', 'Approved', 'Denied', 'Failed'), strangeString),
    status: fc.oneof(fc.constantFrom('True', 'False', 'Unknown'), fc.constantFrom('Maybe', 1, null)),
    reason: fc.oneof(fc.constantFrom('Approved', 'SecretNotFound', 'InvalidSpec'), strangeString),
    message: strangeString,
    lastTransitionTime: fc.oneof(dateTime, fc.constantFrom('yesterday', 5)),
    observedGeneration: oddNumber,
  },
  { requiredKeys: [] },
);

/** The devportal's verdict on an APIKey, as it writes it: what makes the controller act. */
const verdict = fc.oneof({ weight: 3, arbitrary: fc.constant(['Approved']) }, { weight: 1, arbitrary: fc.constant(['Denied']) }, { weight: 1, arbitrary: fc.constant(['Approved', 'Denied']) });
const approval = verdict.chain((types) => dateTime.map((time) => ({
  conditions: types.map((type) => ({ type, status: 'True', reason: type, message: `${type} by fuzz`, lastTransitionTime: time })),
})));

const oddStatus = fc.oneof(
  fc.record({ conditions: fc.oneof(fc.array(oddCondition, { maxLength: 4 }), strangeString, oddNumber, fc.constant({})) }, { requiredKeys: [] }),
  fc.record({ secretName: strangeString, previousSecretName: strangeString, pendingACName: strangeString, acID: strangeString }, { requiredKeys: [] }),
  fc.record({ observedGeneration: oddNumber, expiresAt: fc.oneof(fc.constant('2001-01-01T00:00:00Z'), strangeString), conditions: fc.array(oddCondition, { maxLength: 2 }) }, { requiredKeys: [] }),
  fc.oneof(strangeString, oddNumber, fc.constant([])),
);

function status(kind: FuzzKind): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    { weight: kind === 'apikey' ? 4 : 0, arbitrary: approval },
    { weight: 3, arbitrary: oddStatus },
  );
}

const TYPES = {
  appcred: { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential' },
  apikey: { apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey' },
} as const;

function fuzzObject(world: FuzzWorld, kind: FuzzKind, index: number): fc.Arbitrary<FuzzObject> {
  const specs = kind === 'appcred' ? spec(validAppCredSpec(world), appCredMutation) : spec(validAPIKeySpec(world), apiKeyMutation);
  return fc.record({ shape: nameShape, spec: specs, status: status(kind), extra: fc.option(fc.constantFrom('extraTopLevel', 'data'), { nil: undefined }) }).map((drawn) => {
    const name = drawn.shape(String(index));
    const body: Record<string, unknown> = { ...TYPES[kind], metadata: { name } };
    if (drawn.spec.spec !== MISSING) body['spec'] = copy(drawn.spec.spec);
    if (drawn.extra !== undefined) body[drawn.extra] = { odd: true };
    return { kind, name, body, status: copy(drawn.status), mutations: drawn.spec.mutations };
  });
}

/** `count` objects, half of each kind, the same for the same seed (and unrelated for neighbouring seeds). */
export function fuzzObjects(world: FuzzWorld, count: number, seed: number): FuzzObject[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const kind: FuzzKind = index % 2 === 0 ? 'appcred' : 'apikey';
    const [object] = fc.sample(fuzzObject(world, kind, index), { seed: Math.floor(random() * 2 ** 31), numRuns: 1 });
    if (object === undefined) throw new Error('fast-check drew no object');
    return object;
  });
}
