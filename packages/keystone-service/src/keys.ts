import { coreTypes, sensitive, type KubeObject, type PlanBuilder, type Sensitive } from '@keyward/kernel';
import { formatTime } from '@keyward/kernel/model';
import { type Json } from '@keyward/kernel/plan';
import { ANNOTATION_ROTATED_AT } from './api.js';
import { nextRun, parseCron } from './cron.js';
import { initialRepository, keysFrom, repositoryProblem, rotate, indices, type KeyRepository } from './fernet.js';
import { keySecret } from './objects.js';
import { annotation, entries } from './read.js';
import type { Keystone } from './spec.js';
import type { StepReport } from './status.js';
import type { KeystoneAction } from './vocabulary.js';

export interface KeysOutcome {
  readonly report: StepReport;
  /** When the keys were last rotated (or created), and when they are next due; for rotated repositories only. */
  readonly lastRotation?: Date;
  readonly nextRotation?: Date;
}

const asSecretValues = (repository: KeyRepository): Record<string, Sensitive> =>
  Object.fromEntries(Object.entries(repository).map(([index, key]) => [index, sensitive(key)]));

function parseTime(text: string | undefined): Date | undefined {
  const ms = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

export interface KeyRepositoryStep {
  readonly name: string;
  readonly what: string;
  readonly count: number;
  /** Key material for the initial keys (32 bytes each) and, at the end, one fresh key for a rotation. */
  readonly material: Uint8Array;
  /** The rotation schedule; without one the repository is created once and never rotated. */
  readonly schedule?: string;
}

/**
 * A key repository Secret: created once with keys "0".."count-1"; on its schedule rotated with Keystone's
 * algorithm, its data replaced whole (purged indices written as null) under the resourceVersion it was read
 * at, so a concurrent change makes the write fail instead of being lost.
 */
export function reconcileKeys(plan: PlanBuilder<KeystoneAction>, cr: Keystone, observed: KubeObject | undefined, step: KeyRepositoryStep, now: Date): KeysOutcome {
  const ref = { type: coreTypes.secret, namespace: cr.metadata.namespace, name: step.name };
  const schedule = step.schedule === undefined ? undefined : parseCron(step.schedule);
  const due = (from: Date) => (schedule?.ok === true ? nextRun(schedule.schedule, from) : undefined);
  if (observed === undefined) {
    const repository = initialRepository(keysFrom(step.material, step.count));
    plan.add({ kind: 'k8s.create', ref, object: keySecret(cr, step.name, asSecretValues(repository), formatTime(now)) }, `create the ${step.what} (${String(step.count)} keys)`);
    return { report: { status: 'True', reason: 'Created', message: `${step.what} created` }, ...timesOf(step, now, due(now)) };
  }
  const repository = entries(observed);
  const problem = repositoryProblem(repository);
  if (problem !== undefined) {
    return { report: { status: 'False', reason: 'InvalidKeys', message: `Secret ${step.name} cannot be used: ${problem}; it is left as it is` } };
  }
  const rotatedAt = parseTime(annotation(observed, ANNOTATION_ROTATED_AT)) ?? parseTime(observed.metadata.creationTimestamp) ?? now;
  const next = due(rotatedAt);
  if (next === undefined || next.getTime() > now.getTime()) {
    return { report: available(repository, step), ...timesOf(step, rotatedAt, next) };
  }
  const fresh = keysFrom(step.material, 1, step.count)[0] ?? '';
  const rotated = rotate(repository, fresh, step.count) ?? repository;
  const data: Record<string, Json | Sensitive> = {};
  for (const index of Object.keys(repository)) if (!(index in rotated)) data[index] = null;
  for (const [index, key] of Object.entries(rotated)) data[index] = sensitive(Buffer.from(key, 'utf8').toString('base64'));
  plan.add(
    {
      kind: 'k8s.patch',
      ref,
      patch: { type: 'merge', body: { metadata: { annotations: { [ANNOTATION_ROTATED_AT]: formatTime(now) } }, data } },
      precondition: { resourceVersion: observed.metadata.resourceVersion ?? '' },
    },
    `rotate the ${step.what}: the schedule was due at ${formatTime(next)}`,
  );
  // Said as a steady pass says it, so the reconcile after a rotation has nothing to write.
  return { report: available(rotated, step), ...timesOf(step, now, due(now)) };
}

function available(repository: KeyRepository, step: KeyRepositoryStep): StepReport {
  return { status: 'True', reason: 'Available', message: `${String(indices(repository).length)} ${step.what} available` };
}

function timesOf(step: KeyRepositoryStep, last: Date, next: Date | undefined): Pick<KeysOutcome, 'lastRotation' | 'nextRotation'> {
  if (step.schedule === undefined) return {};
  return { lastRotation: last, ...(next === undefined ? {} : { nextRotation: next }) };
}
