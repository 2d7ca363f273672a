import { coreTypes, type KubeObject, type PlanBuilder, type Sensitive } from '@keyward/kernel';
import { type ObjectTemplate } from '@keyward/kernel/plan';
import { ANNOTATION_RUN_KEY } from './api.js';
import { annotation, conditionTrue, field } from './read.js';
import { failureLines } from './logs.js';
import { podProblem } from './rollout.js';
import type { Keystone } from './spec.js';
import type { StepReport } from './status.js';
import type { KeystoneAction } from './vocabulary.js';

/** Lines of a failed pod's log kept in a condition message. */
const LOG_LINES = 10;
const LOG_CHARS = 800;

/** The run key a Job was made for (on its pod template, as on the Job). */
export function runKeyOf(job: KubeObject | undefined): string | undefined {
  const template = field(job, 'spec', 'template', 'metadata', 'annotations', ANNOTATION_RUN_KEY);
  return typeof template === 'string' ? template : annotation(job, ANNOTATION_RUN_KEY);
}

/** A Job's pods, oldest first. */
function podsOf(jobName: string, pods: readonly KubeObject[]): KubeObject[] {
  return pods
    .filter((pod) => pod.metadata.labels?.['batch.kubernetes.io/job-name'] === jobName || pod.metadata.labels?.['job-name'] === jobName)
    .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
}

/**
 * What a Job's latest pod said of its failure, from the log the kubelet kept as its termination message
 * (FallbackToLogsOnError): the last of its failureLines, on one line (" | " between them), every known secret
 * masked.
 */
export function logTail(jobName: string, pods: readonly KubeObject[], secrets: readonly Sensitive[]): string | undefined {
  const statuses = field(podsOf(jobName, pods).at(-1), 'status', 'containerStatuses');
  const message = Array.isArray(statuses) ? field(statuses[0], 'state', 'terminated', 'message') : undefined;
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  let tail = failureLines(message).slice(-LOG_LINES).join(' | ');
  for (const secret of secrets) if (secret.reveal() !== '') tail = tail.replaceAll(secret.reveal(), '***');
  return tail.length > LOG_CHARS ? `...${tail.slice(-LOG_CHARS)}` : tail;
}

export interface JobRun {
  readonly name: string;
  /** For messages: "db_sync". */
  readonly what: string;
  readonly runKey: string;
  readonly template: ObjectTemplate;
  /** Why it runs now, for the plan. */
  readonly why: string;
  /** What runs it again after a failure besides deleting the Job: "the image, configuration or database URL changes". */
  readonly rerunsWhen: string;
}

/** Whether a Job has run to completion, and what its step says (only the report goes into the status). */
export interface JobOutcome {
  readonly done: boolean;
  readonly report: StepReport;
}

/**
 * One run of a Job per run key: created when missing; a finished Job is the record that it ran (no TTL),
 * and only a new key replaces it (the old one is deleted here, the new one created by the reconcile its
 * deletion wakes). A failed Job is reported with its log tail and not retried until the key changes.
 */
export function reconcileJob(plan: PlanBuilder<KeystoneAction>, cr: Keystone, job: KubeObject | undefined, run: JobRun, pods: readonly KubeObject[], secrets: readonly Sensitive[]): JobOutcome {
  const ref = { type: coreTypes.job, namespace: cr.metadata.namespace, name: run.name };
  const waiting = (reason: string, message: string): JobOutcome => ({ done: false, report: { status: 'False', reason, message } });
  if (job === undefined) {
    plan.add({ kind: 'k8s.create', ref, object: run.template }, run.why);
    return waiting('Running', `${run.what} Job ${run.name} started`);
  }
  if (runKeyOf(job) !== run.runKey) {
    plan.add({ kind: 'k8s.delete', ref, precondition: { uid: job.metadata.uid ?? '' }, propagation: 'Background' }, `${run.what} must run again: ${run.why}`);
    return waiting('Rerunning', `${run.what} Job ${run.name} is replaced to run again`);
  }
  if (conditionTrue(job, 'Complete')) return { done: true, report: { status: 'True', reason: 'Completed', message: `${run.what} completed` } };
  if (conditionTrue(job, 'Failed')) {
    const tail = logTail(run.name, pods, secrets);
    const retry = `It runs again when ${run.rerunsWhen}; to run it again as it is (after fixing what it needed, such as a missing database), delete Job ${run.name}.`;
    return waiting('JobFailed', `${run.what} Job ${run.name} failed${tail === undefined ? '' : `; its log ends with: ${tail}`}. ${retry}`);
  }
  const latest = podsOf(run.name, pods).at(-1);
  const stuck = latest === undefined ? undefined : podProblem(latest);
  if (stuck !== undefined) return waiting(stuck.reason, `${run.what} Job ${run.name} cannot run: ${stuck.message}`);
  return waiting('Running', `${run.what} Job ${run.name} is running`);
}
