import type { KubeObject } from '@keyward/kernel';
import { failureLines } from './logs.js';
import { LABEL_COMPONENT } from './api.js';
import { conditionTrue, field, numberAt } from './read.js';
import type { StepReport } from './status.js';

// Whether a Deployment has rolled out, read as `kubectl rollout status` reads it, and, when it is stuck, why:
// what its new pods' containers are waiting on.

const REVISION = 'deployment.kubernetes.io/revision';
const TEMPLATE_HASH = 'pod-template-hash';
/** Lines of a crashed container's last log kept in a message. */
const LOG_LINES = 4;

interface ContainerState {
  readonly reason: string;
  readonly message: string;
}

/** The API pods of the Deployment's current ReplicaSet (its revision), or all of them when that is not known yet. */
function currentPods(deployment: KubeObject, replicaSets: readonly KubeObject[], pods: readonly KubeObject[]): KubeObject[] {
  const revision = deployment.metadata.annotations?.[REVISION];
  const current = replicaSets.find((rs) => rs.metadata.ownerReferences?.some((o) => o.uid === deployment.metadata.uid) === true && revision !== undefined && rs.metadata.annotations?.[REVISION] === revision);
  const api = pods.filter((pod) => pod.metadata.deletionTimestamp === undefined && pod.metadata.labels?.[LABEL_COMPONENT] === 'api');
  const hash = current?.metadata.labels?.[TEMPLATE_HASH];
  return hash === undefined ? api : api.filter((pod) => pod.metadata.labels?.[TEMPLATE_HASH] === hash);
}

/**
 * Why a pod is not running as it should, from its first container that is waiting with a reason
 * (CrashLoopBackOff, ImagePullBackOff, InvalidImageName, CreateContainerConfigError, ...), with the end of what
 * the container last logged when it crashed; undefined when none is.
 */
export function podProblem(pod: KubeObject): ContainerState | undefined {
  const statuses = [field(pod, 'status', 'initContainerStatuses'), field(pod, 'status', 'containerStatuses')].flatMap((list) => (Array.isArray(list) ? (list as unknown[]) : []));
  for (const status of statuses) {
    const reason = field(status, 'state', 'waiting', 'reason');
    if (typeof reason !== 'string' || reason === 'ContainerCreating' || reason === 'PodInitializing') continue;
    const waiting = field(status, 'state', 'waiting', 'message');
    const last = field(status, 'lastState', 'terminated');
    const exitCode = field(last, 'exitCode');
    const logged = field(last, 'message');
    const lines = typeof logged === 'string' ? failureLines(logged).slice(-LOG_LINES) : [];
    const parts = [
      typeof waiting === 'string' && waiting !== '' ? waiting : undefined,
      typeof exitCode === 'number' ? `last exit code ${String(exitCode)}` : undefined,
      lines.length > 0 ? `its log ends with: ${lines.join(' | ')}` : undefined,
    ].filter((part): part is string => part !== undefined);
    return { reason, message: `pod ${pod.metadata.name}: ${reason}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}` };
  }
  return undefined;
}

/**
 * Ready when the Deployment controller has seen the latest generation and every replica runs the current
 * template, none of an earlier one is left, and all of them are available: what `kubectl rollout status`
 * waits for. A rollout past its progress deadline, or whose new pods are stuck (crash-looping, an image that
 * cannot be pulled), is reported with the pod's reason.
 */
export function deploymentReady(deployment: KubeObject | undefined, replicas: number, replicaSets: readonly KubeObject[] = [], pods: readonly KubeObject[] = []): StepReport {
  if (deployment === undefined) return { status: 'False', reason: 'Creating', message: 'the Deployment is being created' };
  const generation = deployment.metadata.generation ?? 0;
  if (numberAt(deployment, 'status', 'observedGeneration') < generation) return { status: 'False', reason: 'Progressing', message: 'the Deployment controller has not seen the latest change yet' };
  const updated = numberAt(deployment, 'status', 'updatedReplicas');
  const total = numberAt(deployment, 'status', 'replicas');
  const available = numberAt(deployment, 'status', 'availableReplicas');
  if (updated >= replicas && total <= updated && available >= updated && conditionTrue(deployment, 'Available')) {
    return { status: 'True', reason: 'Available', message: `${String(available)} pods ready` };
  }
  const progress = `${String(updated)} of ${String(replicas)} pods updated, ${String(available)} available, ${String(Math.max(total - updated, 0))} old pods left`;
  const stuck = currentPods(deployment, replicaSets, pods).map(podProblem).find((problem) => problem !== undefined);
  if (stuck !== undefined) return { status: 'False', reason: stuck.reason, message: `the rollout is stuck: ${stuck.message} (${progress})` };
  const conditions = field(deployment, 'status', 'conditions');
  const progressing: unknown = Array.isArray(conditions) ? (conditions as unknown[]).find((c) => field(c, 'type') === 'Progressing') : undefined;
  if (field(progressing, 'reason') === 'ProgressDeadlineExceeded') {
    const said = field(progressing, 'message');
    return { status: 'False', reason: 'ProgressDeadlineExceeded', message: `the rollout is stuck: ${typeof said === 'string' ? said : 'its progress deadline has passed'} (${progress})` };
  }
  return { status: 'False', reason: 'Progressing', message: progress };
}
