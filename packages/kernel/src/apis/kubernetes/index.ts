// The pure half of the Kubernetes API module; its client and handlers are in io/.
export type * from './actions.js';
export { hasLabels } from './actions.js';
export type * from './queries.js';
export { kubernetesApi } from './api.js';
export { addApplyIfChanged, hasStatedContent, holdsStated } from './stated.js';
export { FIELD_CONFLICT, FIELD_MANAGER } from './server-side-apply.js';
export { DRIFT_REPAIRED, convergedOnSpec, driftRepairedEvent, isDriftRepairedEvent } from './drift.js';
export type { ConvergedView } from './drift.js';
export { cleanUp, finalizersAdding, withFinalizer } from './finalizer.js';
export type { Cleanup, Finalizer } from './finalizer.js';
