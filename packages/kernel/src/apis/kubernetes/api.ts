import { describeRef } from '../../model/refs.js';
import { defineApi } from '../../plan/api.js';
import { diffLines, display } from '../../plan/diff.js';
import { describeUnknown, isOutputRef, type Value } from '../../plan/values.js';
import type { KubernetesAction, ObjectRefTemplate } from './actions.js';
import type { KubernetesQuery } from './queries.js';

function show(value: Value<string>): string {
  return isOutputRef(value) ? describeUnknown(value) : value;
}

/** A Secret's values are never shown, whether or not the plan marked them sensitive. */
function secretValues(kind: string): { whole: false; hide?: (path: string) => boolean } {
  return kind === 'Secret' ? { whole: false, hide: (path) => /^(data|stringData)\./.test(path) } : { whole: false };
}

/** "Secret ns/name", where the name may be known only after an earlier step. */
function describeTarget(ref: ObjectRefTemplate): string {
  return `${ref.type.kind} ${ref.namespace === undefined ? '' : `${ref.namespace}/`}${show(ref.name)}`;
}

/** The Kubernetes API: objects, finalizers, status and events, and reads of objects. */
export const kubernetesApi = defineApi<KubernetesAction, KubernetesQuery>({
  name: 'kubernetes',
  actions: {
    'k8s.apply': { describe: (a) => `apply ${describeRef(a.ref)}`, details: (a) => diffLines(a.observed, a.object, secretValues(a.ref.type.kind)) },
    'k8s.create': { describe: (a) => `create ${describeTarget(a.ref)}`, details: (a) => diffLines(undefined, a.object, secretValues(a.ref.type.kind)) },
    'k8s.patch': {
      describe: (a) => `patch ${describeRef(a.ref)} (${a.patch.type} patch)`,
      details: (a) => (a.patch.type === 'merge'
        ? diffLines(a.observed, a.patch.body, secretValues(a.ref.type.kind))
        : a.patch.operations.map((op) => `${op.op} ${op.path}${op.value === undefined ? '' : `: ${display(op.value)}`}`)),
    },
    'k8s.delete': { describe: (a) => `delete ${describeRef(a.ref)}` },
    'k8s.addFinalizer': {
      describe: (a) => `add finalizer ${a.finalizer} to ${describeRef(a.ref)}`,
      details: (a) => Object.entries(a.annotations ?? {}).map(([key, value]) => `annotation ${key}: ${value}`),
    },
    'k8s.removeFinalizer': { describe: (a) => `remove finalizer ${a.finalizer} from ${describeRef(a.ref)}` },
    'k8s.status': { describe: (a) => `update status of ${describeRef(a.ref)}`, details: (a) => diffLines(a.observed, a.status, { whole: true, prefix: 'status' }) },
    'k8s.event': { describe: (a) => `record ${a.type} event ${a.reason} on ${describeRef(a.regarding)}`, details: (a) => [`note: ${a.note}`] },
  },
  queries: {
    'k8s.get': { describe: (q) => `get ${describeRef(q.ref)}` },
    'k8s.list': { describe: (q) => `list ${q.type.plural}${q.namespace === undefined ? '' : ` in ${q.namespace}`}` },
  },
});
