import { describeRef } from '../model/refs.js';
import type { Action } from './registry.js';
import { describeUnknown, isOutputRef, type Value } from './values.js';
import type { ObjectRefTemplate } from '../apis/kubernetes/actions.js';

function show<T>(value: Value<T>): string {
  return isOutputRef(value) ? describeUnknown(value) : String(value);
}

/** "Secret ns/name", where the name may be known only after an earlier step. */
function describeTarget(ref: ObjectRefTemplate): string {
  return `${ref.type.kind} ${ref.namespace === undefined ? '' : `${ref.namespace}/`}${show(ref.name)}`;
}

/** One line saying what an action does, naming objects but never values. */
export function describeAction(action: Action): string {
  switch (action.kind) {
    case 'k8s.apply': return `apply ${describeRef(action.ref)}`;
    case 'k8s.create': return `create ${describeTarget(action.ref)}`;
    case 'k8s.patch': return `patch ${describeRef(action.ref)} (${action.patch.type} patch)`;
    case 'k8s.delete': return `delete ${describeRef(action.ref)}`;
    case 'k8s.addFinalizer': return `add finalizer ${action.finalizer} to ${describeRef(action.ref)}`;
    case 'k8s.removeFinalizer': return `remove finalizer ${action.finalizer} from ${describeRef(action.ref)}`;
    case 'k8s.status': return `update status of ${describeRef(action.ref)}`;
    case 'k8s.event': return `record ${action.type} event ${action.reason} on ${describeRef(action.regarding)}`;
    case 'keystone.authenticate':
      return `authenticate to Keystone as ${action.userName} (project ${action.projectName}, domain ${action.userDomain})`;
    case 'keystone.createApplicationCredential': return `create application credential ${action.name}`;
    case 'keystone.listApplicationCredentials':
      return `list application credentials${action.name === undefined ? '' : ` named ${action.name}`}`;
    case 'keystone.revokeApplicationCredential':
      return action.name === undefined ? `revoke application credential ${show(action.id)}` : `revoke application credentials named ${action.name}${(action.keep ?? []).length > 0 ? `, except ${String(action.keep?.length)} stored` : ''}`;
    case 'control.requeueAfter': return `check again in ${String(Math.round(action.afterMs / 1000))}s`;
    // Kinds a domain registered through ActionRegistry.
    default: return (action as { readonly kind: string }).kind;
  }
}
