import type { ObjectRef } from '../../model/refs.js';
import type { Produces } from '../../plan/actions.js';
import type { Template, Value } from '../../plan/values.js';

/** A Kubernetes object as plain JSON. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** Whether the object carries every one of `labels` (equality; none asked: true). */
export function hasLabels(object: KubeObject, labels: Readonly<Record<string, string>> | undefined): boolean {
  return Object.entries(labels ?? {}).every(([key, value]) => object.metadata.labels?.[key] === value);
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly finalizers?: readonly string[];
  readonly ownerReferences?: readonly OwnerReference[];
  readonly deletionTimestamp?: string;
  readonly creationTimestamp?: string;
  readonly [field: string]: unknown;
}

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** Conditions the server checks before it changes or deletes an object; a mismatch fails with Conflict. */
export interface Precondition {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** An object body to send: JSON whose leaves may be sensitive or known only after an earlier step. */
export type ObjectTemplate = Readonly<Record<string, Template | undefined>>;

/** Server-side apply with field manager `keyward`: we own the fields we state, and only those. */
export interface ApplyAction extends Produces<{ readonly object: KubeObject }> {
  readonly kind: 'k8s.apply';
  readonly ref: ObjectRef;
  readonly object: ObjectTemplate;
  /** What the plan was computed from; used to show a diff, never sent. */
  readonly observed?: KubeObject | undefined;
  /** Take over fields other managers own (server-side apply's force). */
  readonly force?: boolean;
}

/** An object reference whose name may be known only after an earlier step (named after a credential id). */
export interface ObjectRefTemplate {
  readonly type: ObjectRef['type'];
  readonly namespace?: string | undefined;
  readonly name: Value<string>;
}

/**
 * Create-only, for immutable objects: an existing object whose stated fields are identical counts as
 * success; one that differs fails with Conflict (an immutable object is never changed in place).
 */
export interface CreateAction extends Produces<{ readonly object: KubeObject }> {
  readonly kind: 'k8s.create';
  readonly ref: ObjectRefTemplate;
  readonly object: ObjectTemplate;
}

export type PatchBody =
  | { readonly type: 'merge'; readonly body: ObjectTemplate }
  | { readonly type: 'json'; readonly operations: readonly JsonPatchOperation[] };

export interface JsonPatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'test';
  readonly path: string;
  readonly value?: Template;
}

export interface PatchAction extends Produces<{ readonly object: KubeObject }> {
  readonly kind: 'k8s.patch';
  readonly ref: ObjectRef;
  readonly patch: PatchBody;
  readonly precondition?: Precondition;
  readonly observed?: KubeObject | undefined;
}

export interface DeleteAction {
  readonly kind: 'k8s.delete';
  readonly ref: ObjectRef;
  readonly precondition?: Precondition;
  readonly propagation?: 'Background' | 'Foreground' | 'Orphan';
}

/**
 * The finalizers of an object as the plan's cache saw them, at that resourceVersion: the change is first
 * written from them without a read, guarded by the resourceVersion, so a stale view is refused (409) and the
 * change is then made from a fresh read.
 */
export interface ObservedFinalizers {
  readonly resourceVersion: string;
  readonly finalizers: readonly string[];
}

/**
 * Adds a finalizer if it is missing, with `annotations` in the same patch; "unchanged" when present (the
 * annotations are then not written either). Safe to retry on conflict with a fresh read.
 */
export interface AddFinalizerAction {
  readonly kind: 'k8s.addFinalizer';
  readonly ref: ObjectRef;
  readonly finalizer: string;
  readonly observed?: ObservedFinalizers;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** Removes a finalizer if present; "unchanged" when absent or when the object is gone. */
export interface RemoveFinalizerAction {
  readonly kind: 'k8s.removeFinalizer';
  readonly ref: ObjectRef;
  readonly finalizer: string;
  readonly observed?: ObservedFinalizers;
}

/**
 * Writes the whole desired status through the status subresource (a merge patch that also clears fields the
 * observed status has and the desired one lacks). Plans include it only when the status differs.
 */
export interface StatusAction {
  readonly kind: 'k8s.status';
  readonly ref: ObjectRef;
  readonly status: ObjectTemplate;
  readonly observed?: Readonly<Record<string, unknown>> | undefined;
  /** Guards a status others write too (a conditions list shared with another controller). */
  readonly precondition?: Precondition;
}

/** A Kubernetes Event (events.k8s.io/v1) about an object, for what an operator should see. */
export interface EventAction {
  readonly kind: 'k8s.event';
  readonly regarding: ObjectRef & { readonly uid?: string | undefined };
  readonly type: 'Normal' | 'Warning';
  /** UpperCamelCase, e.g. ApplicationCredentialRotated. */
  readonly reason: string;
  /** What happened, for people. At most 1 kB; never a secret. */
  readonly note: string;
  /** What the controller did: Create, Rotate, Delete, ... */
  readonly action: string;
  /**
   * Who reports it (events.k8s.io reportingController), when it must not be the process's own name: a drop-in
   * replacement reports as the controller it replaces, so tooling that matches on it keeps working.
   */
  readonly reportingController?: string;
}

export type KubernetesAction =
  | ApplyAction
  | CreateAction
  | PatchAction
  | DeleteAction
  | AddFinalizerAction
  | RemoveFinalizerAction
  | StatusAction
  | EventAction;
