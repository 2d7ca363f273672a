import type { KubeObject } from '../apis/kubernetes/actions.js';
import type {
  ApplyAction, AddFinalizerAction, CreateAction, DeleteAction, EventAction, PatchAction, RemoveFinalizerAction, StatusAction,
} from '../apis/kubernetes/actions.js';
import type {
  ApplicationCredentialSummary,
  CreatedApplicationCredential,
  KeystoneAuthenticateAction,
  KeystoneCreateApplicationCredentialAction,
  KeystoneListApplicationCredentialsAction,
  KeystoneRevokeApplicationCredentialAction,
  KeystoneSession,
} from '../apis/keystone/actions.js';

/** Asks the runtime to reconcile this object again after a delay (a rotation date, a retry of a wait). */
export interface RequeueAfterAction {
  readonly kind: 'control.requeueAfter';
  readonly afterMs: number;
}

/** Outputs of actions that produce nothing later steps use. */
export type NoOutputs = Readonly<Record<string, never>>;

/**
 * The closed vocabulary of actions: each kind with its action type and the outputs later steps may use.
 * Domains extend it by declaration merging (declare module '@keyward/core/plan' { interface ActionRegistry
 * { ... } }) and must then register a handler for each new kind: the interpreter's handler table is checked
 * against this registry by the compiler.
 */
export interface ActionRegistry {
  'k8s.apply': { action: ApplyAction; outputs: { object: KubeObject } };
  'k8s.create': { action: CreateAction; outputs: { object: KubeObject } };
  'k8s.patch': { action: PatchAction; outputs: { object: KubeObject } };
  'k8s.delete': { action: DeleteAction; outputs: NoOutputs };
  'k8s.addFinalizer': { action: AddFinalizerAction; outputs: NoOutputs };
  'k8s.removeFinalizer': { action: RemoveFinalizerAction; outputs: NoOutputs };
  'k8s.status': { action: StatusAction; outputs: NoOutputs };
  'k8s.event': { action: EventAction; outputs: NoOutputs };
  'keystone.authenticate': { action: KeystoneAuthenticateAction; outputs: { session: KeystoneSession } };
  'keystone.createApplicationCredential': { action: KeystoneCreateApplicationCredentialAction; outputs: CreatedApplicationCredential };
  'keystone.listApplicationCredentials': {
    action: KeystoneListApplicationCredentialsAction;
    outputs: { credentials: readonly ApplicationCredentialSummary[] };
  };
  'keystone.revokeApplicationCredential': { action: KeystoneRevokeApplicationCredentialAction; outputs: NoOutputs };
  'control.requeueAfter': { action: RequeueAfterAction; outputs: NoOutputs };
}

export type ActionKind = keyof ActionRegistry;
export type ActionOf<K extends ActionKind> = ActionRegistry[K]['action'];
export type OutputsOf<K extends ActionKind> = ActionRegistry[K]['outputs'];
export type Action = ActionOf<ActionKind>;
