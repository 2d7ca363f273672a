import type { FlowsRead, ObservedFlow } from '../../apis/keycloak/flow-representations.js';
import type { RealmRepresentation } from '../../apis/keycloak/representations.js';
import { ADOPT_FLAG } from '../../adoption.js';
import type { RealmSteps } from '../context.js';
import { planFlowSteps, stepTree } from './steps.js';
import { planFlowBindings, type Bound } from './bindings.js';
import { FLOW_MARKER, type AuthenticationFlowSpec, type ExecutionSpec, type FlowBindingsSpec } from './spec.js';
import type { RealmPrunableField } from '../spec.js';
import { prunesWhenEmpty, removesUnlisted } from '../../prune.js';
import { carriesDescriptionMarker, markedDescription } from '../../description-marker.js';

// Top-level authentication flows: made (or copied) from the spec, kept at its description and steps, and
// deleted when the spec stops listing them, only when they carry our marker; the realm's bindings to them.
// Keycloak's built-in flows are never touched.

export const isOurFlow = carriesDescriptionMarker;
export { markedDescription };

const configured = (executions: readonly ExecutionSpec[] | undefined): boolean =>
  (executions ?? []).some((step) => step.config !== undefined || configured(step.subFlow?.executions));

/** The flows part of a realm spec. */
export interface AuthenticationSpec {
  readonly authenticationFlows?: readonly AuthenticationFlowSpec[];
  readonly flowBindings?: FlowBindingsSpec;
  readonly pruneUnlisted?: readonly RealmPrunableField[];
}

const prunesFlows = (spec: AuthenticationSpec): boolean => removesUnlisted(spec.authenticationFlows, prunesWhenEmpty(spec.pruneUnlisted, 'authenticationFlows'));

const bindsSome = (bindings: FlowBindingsSpec | undefined): boolean => Object.keys(bindings ?? {}).length > 0;

/**
 * What a realm read needs for the spec's flows: none without flows, bindings or pruning (an empty or absent
 * list manages nothing), else the flows, with the steps of those whose steps the spec lists, and their
 * configs only when it configures some.
 */
export function flowsRead(spec: AuthenticationSpec): FlowsRead | undefined {
  const flows = spec.authenticationFlows ?? [];
  if (!prunesFlows(spec) && !bindsSome(spec.flowBindings)) return undefined;
  return { executionsOf: flows.filter((flow) => flow.executions !== undefined).map((flow) => ({ alias: flow.alias, configs: configured(flow.executions) })) };
}

function createFlow(steps: RealmSteps, spec: AuthenticationFlowSpec, flows: ReadonlyMap<string, ObservedFlow>): string | undefined {
  const base = { type: 'authenticationFlow', realm: steps.realm, alias: spec.alias } as const;
  if (spec.copyFrom === undefined) {
    const body = { alias: spec.alias, description: markedDescription(spec.description ?? ''), providerId: spec.providerId ?? 'basic-flow', topLevel: true, builtIn: false };
    steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource: base, body }, 'the spec lists it');
    planFlowSteps({ steps, configs: {} }, spec.alias, spec.executions ?? [], []);
    return undefined;
  }
  const source = flows.get(spec.copyFrom)?.flow;
  if (source === undefined) return `authentication flow ${spec.alias} is to be a copy of flow ${spec.copyFrom}, which realm ${steps.realm} does not have`;
  const copy = steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource: { type: 'authenticationFlowCopy', realm: steps.realm, alias: spec.alias, from: spec.copyFrom }, body: { newName: spec.alias } }, `the spec lists it as a copy of ${spec.copyFrom}`);
  // A copy takes its source's description; ours carries the marker from here on. Its steps are brought to
  // the spec's once they are read.
  const body = { description: markedDescription(spec.description ?? source.description ?? ''), providerId: source.providerId ?? 'basic-flow', topLevel: true, builtIn: false };
  steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { ...base, id: copy.output('id') }, body, changed: ['description'] }, 'mark the copy as made from the spec');
  return undefined;
}

/** The description a flow that exists should have; undefined while the spec leaves our flow's as it is. */
function wantedDescription(spec: AuthenticationFlowSpec, current: string | undefined, ours: boolean): string {
  if (spec.description !== undefined) return markedDescription(spec.description);
  return ours ? current ?? '' : markedDescription(current ?? '');
}

/**
 * Creates or brings to the spec the listed flows; returns what keeps some from being made or changed, and
 * the flows that exist once the plan ran.
 */
function planListedFlows(steps: RealmSteps, specs: readonly AuthenticationFlowSpec[], flows: ReadonlyMap<string, ObservedFlow>, adoptUnowned: boolean): { readonly problems: string[]; readonly available: Set<string> } {
  const problems: string[] = [];
  const available = new Set(flows.keys());
  for (const spec of specs) {
    const current = flows.get(spec.alias);
    if (current === undefined) {
      const problem = createFlow(steps, spec, flows);
      if (problem === undefined) available.add(spec.alias);
      else problems.push(problem);
      continue;
    }
    const { flow } = current;
    const ours = isOurFlow(flow.description);
    if (flow.builtIn === true || (!ours && !adoptUnowned)) {
      problems.push(`authentication flow ${spec.alias} exists in realm ${steps.realm} and was not made from a spec (its description does not end in ${FLOW_MARKER}); it is adopted only for a namespace (or namespace/${steps.realm}) named in ${ADOPT_FLAG}`);
      continue;
    }
    const resource = { type: 'authenticationFlow', realm: steps.realm, alias: spec.alias, id: flow.id } as const;
    const description = wantedDescription(spec, flow.description, ours);
    if (description !== (flow.description ?? '')) {
      const body = { description, providerId: flow.providerId ?? 'basic-flow', topLevel: true, builtIn: false };
      steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource, body, changed: ['description'] }, ours ? 'it differs from the spec' : 'adopt the flow no object made, as the operator is told to');
    }
    if (spec.executions !== undefined && current.executions !== undefined) planFlowSteps({ steps, configs: current.configs }, spec.alias, spec.executions, stepTree(current.executions));
  }
  return { problems, available };
}

/** Deletes our flows the spec no longer lists (under the prune rule), unless the realm still binds them. */
function planFlowDeletions(steps: RealmSteps, specs: readonly AuthenticationFlowSpec[], observed: readonly ObservedFlow[], bound: Bound): string[] {
  const problems: string[] = [];
  const listed = new Set(specs.map((spec) => spec.alias));
  for (const { flow } of observed) {
    if (listed.has(flow.alias) || flow.builtIn === true || !isOurFlow(flow.description)) continue;
    if (bound.has(flow.alias)) {
      problems.push(`authentication flow ${flow.alias} is no longer listed but realm ${steps.realm} still binds it; bind another flow before it can be deleted`);
      continue;
    }
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: { type: 'authenticationFlow', realm: steps.realm, alias: flow.alias, id: flow.id } }, 'we made it and the spec no longer lists it');
  }
  return problems;
}

/**
 * Plans the realm's authentication flows and bindings, in the order Keycloak needs: flows made and changed,
 * then the realm bound to them, then flows no longer listed deleted (a bound flow cannot be). Returns what
 * keeps the realm from being Ready (a flow of a listed alias that we did not make, a copy of a flow that does
 * not exist, a binding to a flow there is none of), with nothing planned for those.
 */
export function planAuthentication(steps: RealmSteps, spec: AuthenticationSpec, observed: readonly ObservedFlow[] | undefined, realm: RealmRepresentation, adoptUnowned: boolean): string[] {
  if (observed === undefined) return [];
  const specs = spec.authenticationFlows ?? [];
  const flows = new Map(observed.map((entry) => [entry.flow.alias, entry]));
  const listed = planListedFlows(steps, specs, flows, adoptUnowned);
  // A flow the plan cannot make is not bound: Keycloak answers 500 to a binding of a missing flow.
  const bindings = planFlowBindings(steps, spec.flowBindings, realm, listed.available);
  return [...listed.problems, ...bindings.problems, ...(prunesFlows(spec) ? planFlowDeletions(steps, specs, observed, bindings.bound) : [])];
}
