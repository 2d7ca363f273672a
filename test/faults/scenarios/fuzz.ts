// A fuzz run: several hundred generated KeystoneApplicationCredentials and APIKeys (valid, at the limits, of
// the wrong type, strange, misnamed) sent to the real API server while the real binary runs, then odd status
// contents written to some of them. Targets: the operator never exits or crashes a reconcile, nothing keeps
// changing once all settled, every rejection and every InvalidSpec message names the field, the CRDs and the
// codecs give the same verdicts, and no condition or event the operator writes holds a raw control or bidi
// character.
import { readFile } from 'node:fs/promises';
import { coreTypes, findCondition, type Condition, type KubeObject, type ResourceType } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { resourcePath } from '@keyward/runtime/io';
import { API_KEY_DATA_KEY, CONDITION_FAILED, OUR_FAILURE_REASONS, apiKeyType } from '@keyward/apikey-enforcement';
import { CONDITION_AC_READY, appCredType, readStatus } from '@keyward/keystone-appcred';
import { sendJson, toJson, waitFor } from '@keyward/test-env';
import { PASSWORD_KEY, PASSWORD_SECRET, namespaceWithPassword, progress, scenarioNamespace, startFaultEnvironment, type FaultEnvironment } from '../support/environment.js';
import { fuzzObjects, type FuzzKind, type FuzzObject } from '../support/fuzz-objects.js';
import { codecProblems, hasInvisible, metadataProblems, namesAFieldOf, namesOneOf, statusMessage, unrepresentable, withoutNullFields } from '../support/fuzz-verdicts.js';
import { freePort, queueDepth, reconcileCounts, scrape } from '../support/metrics.js';
import { quietWindow, settle } from '../support/quiet.js';
import { startOperator, stopGently, type OperatorProcess } from '../support/operator.js';
import { scenarioOptions } from '../support/options.js';
import { atMost, exactly, report, result } from '../support/result.js';

const options = scenarioOptions();
const size = options.mode === 'short' ? { objects: 80, quietMs: 10_000, settleMs: 120_000 } : { objects: 400, quietMs: 20_000, settleMs: 300_000 };
const namespace = scenarioNamespace('faults-fuzz');
const enforcementNamespace = `${namespace}-enforcement`;
const consumerSecret = 'consumer-key';
/** How often an object that keeps failing may be retried within the quiet window (see the target). */
const RETRIES_PER_FAILING_OBJECT = 3;
const TYPES: Record<FuzzKind, ResourceType> = { appcred: appCredType, apikey: apiKeyType };
const CONTROLLERS: Record<FuzzKind, string> = { appcred: 'keystone-appcred', apikey: 'apikey-enforcement' };

/** An object the API server accepted, as stored, with the field paths the operator's codec finds wrong. */
interface Accepted {
  readonly object: FuzzObject;
  readonly stored: KubeObject;
  readonly problems: readonly string[];
}

/** Up to this many examples of each kind of miss are printed, escaped, so a failure can be read and repeated. */
const EXAMPLES = 5;
const examples: Record<string, string[]> = {};
function example(what: string, text: string): void {
  const list = (examples[what] ??= []);
  if (list.length < EXAMPLES) list.push(JSON.stringify(text.slice(0, 400)));
}

const counts = {
  generated: 0,
  accepted: { appcred: 0, apikey: 0 },
  rejected: 0,
  otherAnswers: {} as Record<string, number>,
  rejectionsNotNamingField: 0,
  acceptedButCodecRejects: 0,
  rejectedButCodecAccepts: 0,
  /** Rejected for a number as written (365.0 where a CEL rule wants an int) that JavaScript reads as valid. */
  rejectedUnrepresentable: 0,
  invalidExpected: 0,
  invalidNotReported: 0,
  invalidNotNamingField: 0,
  validReportedInvalid: 0,
  statusWrites: 0,
  statusRejected: 0,
  statusRejectionsNotNamingField: 0,
  rawInvisible: 0,
};

function operatorArgs(fault: FaultEnvironment, metricsPort: number): string[] {
  return [
    '--namespaces', namespace, '--enforcement-namespace', enforcementNamespace, '--keystone-url', fault.keystoneUrl, '--no-leader-elect',
    '--metrics-bind-address', `127.0.0.1:${String(metricsPort)}`, '--no-metrics-secure', '--health-bind-address', '0', '--concurrency', '4',
  ];
}

async function prepare(fault: FaultEnvironment): Promise<void> {
  await namespaceWithPassword(fault, namespace);
  await fault.kube.create({ type: coreTypes.namespace, name: enforcementNamespace }, { metadata: { name: enforcementNamespace } });
  await fault.kube.create({ type: coreTypes.secret, namespace, name: consumerSecret }, { metadata: { name: consumerSecret }, stringData: { [API_KEY_DATA_KEY]: 'fuzz-api-key' } });
}

/** Sends one object; an accepted one is returned with the codec's verdict on it as stored. */
async function send(fault: FaultEnvironment, object: FuzzObject): Promise<Accepted | undefined> {
  const json = toJson(object.body);
  const answer = await sendJson(fault.kube.kubeConfig, 'POST', resourcePath(TYPES[object.kind], namespace), json);
  if (answer.status === 201) {
    const stored = answer.body as KubeObject;
    const problems = codecProblems(object.kind, stored);
    counts.accepted[object.kind]++;
    if (problems.length > 0) {
      counts.acceptedButCodecRejects++;
      example('accepted but the codec rejects', `${object.name} ${problems.join(', ')} ${object.mutations.join(', ')}`);
    }
    return { object, stored, problems };
  }
  const message = statusMessage(answer.body);
  if (answer.status !== 422) {
    counts.otherAnswers[String(answer.status)] = (counts.otherAnswers[String(answer.status)] ?? 0) + 1;
    example(`answer ${String(answer.status)}`, `${object.name}: ${message}`);
    return undefined;
  }
  counts.rejected++;
  const expected = [...codecProblems(object.kind, withoutNullFields(JSON.parse(json)) as KubeObject), ...metadataProblems(object.name)];
  if (expected.length === 0 && unrepresentable(json)) {
    // The codec never sees such a number as written (JSON.parse reads 365.0 as 365): there is no verdict to
    // compare, and the API server's own message about it (a CEL evaluation error) is counted, not judged.
    counts.rejectedUnrepresentable++;
    example('rejected, written as no JavaScript value can be', message);
    return undefined;
  }
  if (expected.length === 0) {
    counts.rejectedButCodecAccepts++;
    example('rejected but the codec accepts', `${object.mutations.join(', ')}: ${message}`);
  }
  const named = expected.length === 0 ? namesAFieldOf(message, 'spec') || namesAFieldOf(message, 'metadata') : namesOneOf(message, expected);
  if (!named) {
    counts.rejectionsNotNamingField++;
    example('rejection not naming the field', `${expected.join(', ')} <- ${message}`);
  }
  return undefined;
}

async function list(fault: FaultEnvironment, kind: FuzzKind): Promise<Map<string, KubeObject>> {
  return new Map((await fault.kube.listAll(TYPES[kind], { namespace })).items.map((o) => [o.metadata.name, o]));
}

async function events(fault: FaultEnvironment): Promise<KubeObject[]> {
  return (await fault.kube.listAll(coreTypes.event, { namespace })).items;
}

function invalidSpecEventOf(all: readonly KubeObject[], name: string): KubeObject | undefined {
  return all.find((e) => e['reason'] === 'InvalidSpec' && (e['regarding'] as { name?: string } | undefined)?.name === name);
}

/**
 * Waits until the operator has looked at every accepted object: an appcred's status records its generation,
 * an APIKey the codec rejects has its InvalidSpec event, and the APIKey controller has run at least once per
 * APIKey with nothing left in any queue (a valid, unapproved APIKey shows nothing else).
 */
async function waitUntilLookedAt(fault: FaultEnvironment, accepted: readonly Accepted[], metricsPort: number): Promise<number> {
  let missing = accepted.length;
  try {
    await waitFor(async () => {
      const [appcreds, all, metrics] = await Promise.all([list(fault, 'appcred'), events(fault), scrape(metricsPort)]);
      const apiKeyRuns = [...reconcileCounts(metrics)].filter(([key]) => key.startsWith(`${CONTROLLERS.apikey} `)).reduce((sum, [, n]) => sum + n, 0);
      const idle = queueDepth(metrics) === 0 && apiKeyRuns >= counts.accepted.apikey;
      missing = accepted.filter(({ object, problems }) => {
        if (object.kind === 'appcred') {
          const current = appcreds.get(object.name);
          return current === undefined || readStatus(current['status']).observedGeneration !== current.metadata.generation;
        }
        return problems.length > 0 ? invalidSpecEventOf(all, object.name) === undefined : !idle;
      }).length;
      return missing === 0 ? true : undefined;
    }, { what: 'the operator to look at every object', timeoutMs: size.settleMs, intervalMs: 2_000 });
  } catch {
    // counted: the targets say how many were never looked at
  }
  return missing;
}

/** Every object the codec rejects is reported InvalidSpec with a message naming the field; no valid one is. */
async function checkInvalidSpecs(fault: FaultEnvironment, accepted: readonly Accepted[]): Promise<void> {
  const [appcreds, all] = await Promise.all([list(fault, 'appcred'), events(fault)]);
  for (const { object, problems } of accepted) {
    const message = object.kind === 'appcred'
      ? invalidSpecCondition(readStatus(appcreds.get(object.name)?.['status']).conditions)
      : stringOf(invalidSpecEventOf(all, object.name)?.['note']);
    if (problems.length === 0) {
      if (message !== undefined) counts.validReportedInvalid++;
      continue;
    }
    counts.invalidExpected++;
    if (message === undefined) {
      counts.invalidNotReported++;
      example('InvalidSpec not reported', `${object.name}: ${problems.join(', ')}`);
    } else if (!namesOneOf(message, problems)) {
      counts.invalidNotNamingField++;
      example('InvalidSpec not naming the field', `${problems.join(', ')} <- ${message}`);
    }
  }
}

function invalidSpecCondition(conditions: readonly Condition[] | undefined): string | undefined {
  const condition = findCondition(conditions, CONDITION_AC_READY);
  return condition?.reason === 'InvalidSpec' ? condition.message : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The conditions of an object, read leniently (a status may hold anything). */
function conditionsOf(object: KubeObject): readonly Condition[] {
  const status = object['status'];
  return readConditions(typeof status === 'object' && status !== null ? (status as { conditions?: unknown }).conditions : undefined);
}

/**
 * Conditions and event notes the operator wrote must hold no raw control or bidi character. A condition whose
 * message the scenario itself wrote into the status is someone else's text and is left out.
 */
async function checkInvisible(fault: FaultEnvironment, written: ReadonlyMap<string, readonly string[]>): Promise<void> {
  for (const kind of ['appcred', 'apikey'] as const) {
    for (const [name, object] of await list(fault, kind)) {
      const ours = written.get(`${kind}/${name}`) ?? [];
      for (const condition of conditionsOf(object)) {
        if (ours.includes(condition.message) || (kind === 'apikey' && !OUR_FAILURE_REASONS.includes(condition.reason))) continue;
        if (hasInvisible(condition.message) || hasInvisible(condition.reason)) {
          counts.rawInvisible++;
          example('raw control or bidi character', `${kind}/${name} ${condition.type}: ${condition.message}`);
        }
      }
    }
  }
  for (const event of await events(fault)) {
    const note = stringOf(event['note']) ?? '';
    if (hasInvisible(note)) {
      counts.rawInvisible++;
      example('raw control or bidi character', `event ${stringOf(event['reason']) ?? ''}: ${note}`);
    }
  }
}

/** Every text inside a status as written, to tell the scenario's own condition messages from the operator's. */
function textsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(textsIn);
}

/** Writes each object's odd status (merge patch of the status subresource); returns the texts written, by object. */
async function writeStatuses(fault: FaultEnvironment, accepted: readonly Accepted[]): Promise<Map<string, string[]>> {
  const written = new Map<string, string[]>();
  for (const { object } of accepted) {
    if (object.status === undefined) continue;
    counts.statusWrites++;
    const path = resourcePath(TYPES[object.kind], namespace, object.name, 'status');
    const answer = await sendJson(fault.kube.kubeConfig, 'PATCH', path, toJson({ status: object.status }), 'application/merge-patch+json');
    if (answer.status === 200) {
      written.set(`${object.kind}/${object.name}`, textsIn(JSON.parse(toJson(object.status))));
      continue;
    }
    const message = statusMessage(answer.body);
    if (answer.status !== 422) {
      counts.otherAnswers[`status ${String(answer.status)}`] = (counts.otherAnswers[`status ${String(answer.status)}`] ?? 0) + 1;
      example(`status answer ${String(answer.status)}`, `${object.name}: ${message}`);
      continue;
    }
    counts.statusRejected++;
    if (!namesAFieldOf(message, 'status')) {
      counts.statusRejectionsNotNamingField++;
      example('status rejection not naming the field', message);
    }
  }
  return written;
}

/**
 * Where the objects ended: appcreds by the reason of their credential condition, APIKeys by whether they
 * failed, and how many enforcement Secrets exist. An appcred whose credential condition reports a failure is
 * retried with backoff; an APIKey that failed waits for its consumer Secret and is not retried.
 */
async function outcomes(fault: FaultEnvironment): Promise<{ appcredReasons: Record<string, number>; apiKeysFailed: number; enforcementSecrets: number; retrying: number }> {
  const appcredReasons: Record<string, number> = {};
  let retrying = 0;
  for (const object of (await list(fault, 'appcred')).values()) {
    const condition = findCondition(readStatus(object['status']).conditions, CONDITION_AC_READY);
    const reason = condition?.reason ?? 'none';
    appcredReasons[reason] = (appcredReasons[reason] ?? 0) + 1;
    if (['Ready', 'InvalidSpec', 'UnsupportedName', 'none'].includes(reason)) continue;
    retrying++;
    example(`still failing: ${reason}`, condition?.message ?? '');
  }
  const apiKeysFailed = [...(await list(fault, 'apikey')).values()].filter((o) => {
    const failed = findCondition(conditionsOf(o), CONDITION_FAILED);
    return failed?.status === 'True' && OUR_FAILURE_REASONS.includes(failed.reason);
  }).length;
  const enforcementSecrets = (await fault.kube.listAll(coreTypes.secret, { namespace: enforcementNamespace })).items.length;
  return { appcredReasons, apiKeysFailed, enforcementSecrets, retrying };
}

/** Reconciles that threw (the work queue logs each as "reconcile crashed"), and lines logged at level error. */
async function logCounts(operator: OperatorProcess): Promise<{ crashed: number; errors: number }> {
  const lines = (await readFile(operator.logPath, 'utf8')).split('\n');
  return { crashed: lines.filter((line) => line.includes('reconcile crashed')).length, errors: lines.filter((line) => line.includes('"level":"error"')).length };
}

const started = performance.now();
const fault = await startFaultEnvironment('fuzz');
let operator: OperatorProcess | undefined;
try {
  await prepare(fault);
  const metricsPort = await freePort();
  operator = startOperator(fault.info, operatorArgs(fault, metricsPort));
  // An exit before the scenario stops the operator is a crash.
  const life = { stopping: false, crashed: false };
  void operator.exited.then(() => { life.crashed = !life.stopping; });
  await waitFor(() => scrape(metricsPort), { what: 'the operator to serve metrics', timeoutMs: 60_000, intervalMs: 500 });

  const objects = fuzzObjects({ passwordSecret: PASSWORD_SECRET, passwordKey: PASSWORD_KEY, userName: fault.user.userName, consumerSecret }, size.objects, options.seed);
  counts.generated = objects.length;
  progress(`sending ${String(objects.length)} generated objects (seed ${String(options.seed)})`);
  const accepted: Accepted[] = [];
  for (const object of objects) {
    const kept = await send(fault, object);
    if (kept !== undefined) accepted.push(kept);
  }
  progress(`${String(accepted.length)} accepted, ${String(counts.rejected)} rejected; waiting for the operator to look at each`);
  const notLookedAt = await waitUntilLookedAt(fault, accepted, metricsPort);
  await checkInvalidSpecs(fault, accepted);
  await checkInvisible(fault, new Map());

  progress('writing odd status contents');
  const written = await writeStatuses(fault, accepted);
  const watched = { types: Object.values(TYPES), namespace, metricsPort };
  const settled = await settle(fault, watched, size.settleMs);
  progress(`settled: ${String(settled)}; watching a quiet window of ${String(size.quietMs / 1000)} s`);
  const quiet = await quietWindow(fault, watched, size.quietMs);
  const ended = await outcomes(fault);
  await checkInvisible(fault, written);

  const reconcilesInWindow = Object.values(quiet.reconciles).reduce((sum, n) => sum + n, 0);
  const retriesInWindow = Object.entries(quiet.reconciles).filter(([key]) => key.endsWith(' error')).reduce((sum, [, n]) => sum + n, 0);
  life.stopping = true;
  const logged = await logCounts(operator);
  const output = result('fuzz', options.mode, started, {
    seed: options.seed,
    ...counts,
    notLookedAt,
    settled,
    quietWindowS: size.quietMs / 1000,
    objectsChangedInQuietWindow: quiet.changed,
    reconcilesInQuietWindow: quiet.reconciles,
    ...ended,
    errorLogLines: logged.errors,
    examples,
  }, [
    exactly('operator exits', life.crashed ? 1 : 0, 0),
    exactly('reconciles that crashed', logged.crashed, 0),
    exactly('objects changed more than once in the quiet window (hot loops)', quiet.hotLoops.length, 0),
    exactly('reconciles in the quiet window other than retries with backoff', reconcilesInWindow - retriesInWindow, 0),
    // Backoff doubles from 5 ms: a key failing for a few seconds already waits seconds, so it is retried at
    // most about log2((t + window) / t) times in the window; a hot loop would be retried every time it ran.
    atMost('retries in the quiet window', retriesInWindow, RETRIES_PER_FAILING_OBJECT * ended.retrying),
    exactly('rejections not naming the field', counts.rejectionsNotNamingField, 0),
    exactly('status rejections not naming the field', counts.statusRejectionsNotNamingField, 0),
    exactly('accepted objects the codec rejects (CRD and codec disagree)', counts.acceptedButCodecRejects, 0),
    exactly('rejected objects the codec accepts (CRD and codec disagree)', counts.rejectedButCodecAccepts, 0),
    exactly('objects the operator never looked at', notLookedAt, 0),
    exactly('invalid objects not reported InvalidSpec', counts.invalidNotReported, 0),
    exactly('InvalidSpec messages not naming the field', counts.invalidNotNamingField, 0),
    exactly('valid objects reported InvalidSpec', counts.validReportedInvalid, 0),
    exactly('conditions and event notes with a raw control or bidi character', counts.rawInvisible, 0),
  ]);
  report(output);
} finally {
  if (operator !== undefined) await stopGently(operator);
  await fault.stop();
}
