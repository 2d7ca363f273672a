// The kernel's front door: what writing and testing a reconciler takes. Plans and the objects they are about;
// controller definitions and modules; the three API modules every controller can speak; the driver that runs a
// reconcile to its outcome; and the test kit. The rest is at '@keyward/kernel/model' (codecs, names,
// conditions), '/plan' (plan-building helpers, queries, watches), '/interpreter' (the engine and error policy)
// and '/testing' (simulators, clocks, matchers).
export { PlanBuilder, renderPlanText, renderPlanJson, defineControllerModule, vocabulary, kubernetesApi, keystoneApi, controlApi } from './plan/index.js';
export type { Plan, PlanFailure, ReconcileInput, Observed, ControllerDefinition, ControllerModule, KubeObject, AnyAction, KubernetesAction, KeystoneAction, ControlAction } from './plan/index.js';
export { Sensitive, sensitive, coreTypes, findCondition } from './model/index.js';
export type { Condition, ObjectRef, ResourceType } from './model/index.js';
export { runReconcile } from './interpreter/index.js';
export { reconcileOnce, converge, InMemoryWorld } from './testing/index.js';
