import type { AuthenticatorConfigRepresentation, FlowExecutionRepresentation } from '../../apis/keycloak/flow-representations.js';
import type { Value } from '@keyward/kernel/plan';
import { differingKeys } from '../compare.js';
import type { RealmSteps } from '../context.js';
import type { AuthenticatorConfigSpec, ExecutionSpec } from './spec.js';

// The steps (executions) of one flow, brought to the spec's list: level by level, a step is matched to
// Keycloak's by what it runs (its authenticator, or its sub-flow's alias) and, for an authenticator listed
// twice, by which occurrence it is. Keycloak orders siblings by `priority`.

/** An execution with the executions of its sub-flow (Keycloak lists them flat, by level). */
export interface StepNode {
  readonly execution: FlowExecutionRepresentation;
  readonly children: StepNode[];
}

/** The flat list as a tree: an execution's children are those that follow it one level deeper. */
export function stepTree(executions: readonly FlowExecutionRepresentation[]): StepNode[] {
  const root: StepNode[] = [];
  const levels: StepNode[][] = [root];
  for (const execution of executions) {
    const node: StepNode = { execution, children: [] };
    (levels[execution.level] ?? root).push(node);
    levels.length = execution.level + 1;
    levels.push(node.children);
  }
  return root;
}

/** Where a flow's steps go, and the configs its authenticators have (by config id). */
export interface FlowStepsContext {
  readonly steps: RealmSteps;
  readonly configs: Readonly<Record<string, AuthenticatorConfigRepresentation>>;
}

const specKey = (spec: ExecutionSpec): string => (spec.subFlow === undefined ? `authenticator ${spec.authenticator ?? ''}` : `sub-flow ${spec.subFlow.alias}`);
const isSubFlow = (execution: FlowExecutionRepresentation): boolean => execution.authenticationFlow === true;
const nodeName = (execution: FlowExecutionRepresentation): string => (isSubFlow(execution) ? execution.displayName ?? '' : execution.providerId ?? '');
const nodeKey = (execution: FlowExecutionRepresentation): string => `${isSubFlow(execution) ? 'sub-flow' : 'authenticator'} ${nodeName(execution)}`;
const specName = (spec: ExecutionSpec): string => spec.subFlow?.alias ?? spec.authenticator ?? '';

/** For each spec, Keycloak's step that runs the same thing (the n-th of its kind for the n-th); and the steps left over. */
function matchSteps(specs: readonly ExecutionSpec[], nodes: readonly StepNode[]): { readonly matched: (StepNode | undefined)[]; readonly extra: StepNode[] } {
  const pool = new Map<string, StepNode[]>();
  for (const node of nodes) pool.set(nodeKey(node.execution), [...(pool.get(nodeKey(node.execution)) ?? []), node]);
  const matched = specs.map((spec) => pool.get(specKey(spec))?.shift());
  return { matched, extra: [...pool.values()].flat() };
}

/** Whether every listed step exists and Keycloak runs them in the spec's order. */
function inOrder(matched: readonly (StepNode | undefined)[]): boolean {
  const priorities = matched.map((node) => node?.execution.priority);
  return priorities.every((priority, index) => priority !== undefined && (index === 0 || priority > (priorities[index - 1] ?? priority)));
}

/** Creates or updates an authenticator's config; compared on the alias and the keys the spec states. */
function planConfig(context: FlowStepsContext, spec: AuthenticatorConfigSpec, execution: { readonly name: string; readonly id: Value<string> }, observed: FlowExecutionRepresentation | undefined): void {
  const { steps } = context;
  const configId = observed?.authenticationConfig;
  const resource = { type: 'authenticatorConfig', realm: steps.realm, execution, alias: spec.alias } as const;
  if (configId === undefined) {
    steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body: { alias: spec.alias, config: spec.config } }, `authenticator ${execution.name} is configured in the spec`);
    return;
  }
  const current = context.configs[configId];
  if (current === undefined) return;
  const changed = [...(current.alias === spec.alias ? [] : ['alias']), ...differingKeys(spec.config, current.config).map((key) => `config.${key}`)];
  if (changed.length === 0) return;
  // Keycloak replaces the config map whole: keys the spec does not state are sent back as they are.
  const body = { alias: spec.alias, config: { ...current.config, ...spec.config } };
  steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { ...resource, id: configId }, body, changed }, 'it differs from the spec');
}

/** Adds a step the flow lacks, at `priority`, then sets how it is required (new steps start DISABLED), its config and its own steps. */
function createStep(context: FlowStepsContext, flow: string, spec: ExecutionSpec, priority: number): void {
  const { steps } = context;
  const subFlow = spec.subFlow;
  const resource = { type: 'flowExecution', realm: steps.realm, flow, name: specName(spec), subFlow: subFlow !== undefined } as const;
  const body = subFlow === undefined
    ? { provider: spec.authenticator ?? '', priority }
    : { alias: subFlow.alias, type: 'basic-flow', description: subFlow.description ?? '', priority };
  const created = steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body }, `flow ${flow} lists it`);
  // A new sub-flow's id is its flow's, so its step is found by its alias.
  const id = subFlow === undefined ? created.output('id') : undefined;
  if (spec.requirement !== undefined) {
    steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { ...resource, ...(id === undefined ? {} : { id }) }, body: { requirement: spec.requirement, priority }, changed: ['requirement'] }, `flow ${flow} lists it as ${spec.requirement}`);
  }
  if (spec.config !== undefined && id !== undefined) planConfig(context, spec.config, { name: resource.name, id }, undefined);
  if (subFlow !== undefined) planFlowSteps(context, subFlow.alias, subFlow.executions ?? [], []);
}

/**
 * The steps of flow `flow` as the spec lists them: unlisted ones deleted first (a sub-flow with its steps),
 * missing ones added, requirements set where the spec states one, and, when Keycloak runs them in another
 * order or a step is added, priorities 10, 20, ... in the spec's order. Sub-flows whose steps the spec lists
 * are brought to them too.
 */
export function planFlowSteps(context: FlowStepsContext, flow: string, specs: readonly ExecutionSpec[], nodes: readonly StepNode[]): void {
  const { steps } = context;
  const { matched, extra } = matchSteps(specs, nodes);
  for (const { execution } of extra) {
    const resource = { type: 'flowExecution', realm: steps.realm, flow, name: nodeName(execution), subFlow: isSubFlow(execution), id: execution.id } as const;
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource }, `flow ${flow} in the spec does not list it`);
  }
  const renumber = !inOrder(matched);
  specs.forEach((spec, index) => {
    const priority = (index + 1) * 10;
    const node = matched[index];
    if (node === undefined) {
      createStep(context, flow, spec, priority);
      return;
    }
    const { execution } = node;
    const requirement = spec.requirement ?? execution.requirement;
    const wanted = renumber ? priority : execution.priority;
    const changed = [...(requirement === execution.requirement ? [] : ['requirement']), ...(wanted === execution.priority ? [] : ['priority'])];
    const resource = { type: 'flowExecution', realm: steps.realm, flow, name: specName(spec), subFlow: spec.subFlow !== undefined, id: execution.id } as const;
    if (changed.length > 0) steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource, body: { requirement: requirement ?? null, priority: wanted ?? priority }, changed }, `flow ${flow} differs from the spec`);
    if (spec.config !== undefined) planConfig(context, spec.config, { name: resource.name, id: execution.id }, execution);
    if (spec.subFlow?.executions !== undefined) planFlowSteps(context, spec.subFlow.alias, spec.subFlow.executions, node.children);
  });
}
