// The Kopf operator's authentication flows, in Keycloak's realm representation's shape: a flow's steps are its
// `authenticationExecutions` (ordered by `priority`), a step runs a sub-flow by naming it (`authenticatorFlow:
// true`, `flowAlias`), the sub-flows are flows of the same list with `topLevel: false`, and a step's
// `authenticatorConfig` names an entry of a flow's `authenticatorConfig[]`. Read into Keyward's shape: the
// top-level flows, each sub-flow inside the one step that names it, each config inside its step.
import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { isFields, type Fields, contextAt, type UpstreamShape } from '../../upstream-spellings.js';
import { CONFIG_NEEDS_AUTHENTICATOR_MESSAGE, MAX_EXECUTIONS, ONE_STEP_MESSAGE, REQUIREMENTS, type AuthenticatorConfigSpec, type ExecutionSpec } from './spec.js';

export const BUILT_IN_FLOW_REFUSED_MESSAGE = 'builtIn: true is refused: Keycloak makes its built-in flows itself, and a manifest cannot make one (leave builtIn out, or false)';
export const BOTH_STEP_SPELLINGS_MESSAGE = 'authenticationExecutions and executions are the same field (the first is the Kopf operator\'s spelling): state one of them';
export const SUB_FLOW_MESSAGE = 'a step runs a sub-flow with authenticatorFlow: true and its flowAlias';
export const UNNAMED_SUB_FLOW_MESSAGE = 'a flow with topLevel: false is a sub-flow, and no step of a top-level flow runs it (authenticatorFlow: true, flowAlias: its alias)';
export const SUB_FLOW_COPY_MESSAGE = 'a flow with topLevel: false is a sub-flow, made empty in its step: it cannot be a copy (copyFrom)';
export const SUB_FLOW_PROVIDER_MESSAGE = 'a flow with topLevel: false is a sub-flow, which Keycloak makes as basic-flow';
export const UNUSED_CONFIG_MESSAGE = 'no step names this config (its authenticatorConfig)';
export const FLOWS_NOTE = 'authenticationFlows[].authenticationExecutions is read as authenticationFlows[].executions (in priority order; a flow with topLevel false as the sub-flow of the step that names it, a step\'s authenticatorConfig as its config; userSetupAllowed has no effect: Keycloak\'s admin API has no such field for a step)';

export const unknownSubFlowMessage = (alias: string): string => `no flow of authenticationFlows with topLevel: false has the alias ${alias}`;
export const subFlowTwiceMessage = (alias: string): string => `the sub-flow ${alias} is run by one step only (Keycloak makes it in that step)`;
export const unknownConfigMessage = (alias: string): string => `no authenticatorConfig of authenticationFlows has the alias ${alias}`;
export const configTwiceMessage = (alias: string): string => `the authenticatorConfig alias ${alias} is given twice: aliases are unique in the realm`;

const Execution = f.object({
  authenticator: f.nonEmpty().describe('The authenticator\'s provider id, e.g. auth-cookie (read as the step\'s authenticator).'),
  flowAlias: f.nonEmpty().describe('With authenticatorFlow: true, the alias of the flow (topLevel: false) this step runs, read as its subFlow.'),
  authenticatorFlow: f.boolean().describe('Whether the step runs the sub-flow flowAlias names.'),
  requirement: f.enumOf(REQUIREMENTS).describe('REQUIRED, ALTERNATIVE, DISABLED or CONDITIONAL; left out, as Keycloak has it (a new step starts DISABLED).'),
  priority: f.integer().describe('The steps run in the order of their priorities, lowest first (ties in the order listed).'),
  authenticatorConfig: f.nonEmpty().describe('The alias of an entry of authenticatorConfig, read as the step\'s config.'),
  userSetupAllowed: f.boolean().describe('No effect: Keycloak\'s admin API has no such field for a step (only a realm import writes it).'),
});

const Config = f.object({
  alias: f.nonEmpty().describe('The configuration\'s alias, unique in the realm, which steps name.').required(),
  config: f.stringMap().describe('The authenticator\'s settings.'),
});

const UpstreamFlowFields = f.object({
  topLevel: f.boolean().describe('False for a sub-flow, which a step of another flow of this list runs (authenticatorFlow: true, flowAlias); true or left out for a top-level flow.'),
  builtIn: f.boolean().where({ rule: '!self', message: BUILT_IN_FLOW_REFUSED_MESSAGE }, (builtIn) => !builtIn)
    .describe('False or left out: a manifest cannot make a built-in flow.'),
  authenticationExecutions: f.list(Execution, { maxItems: MAX_EXECUTIONS })
    .describe('The Kopf operator\'s spelling of executions: the steps, read in the order of their priorities.'),
  authenticatorConfig: f.list(Config, { maxItems: MAX_EXECUTIONS })
    .describe('Configurations the steps name by alias (authenticationExecutions[].authenticatorConfig), read as those steps\' config.'),
});

type UpstreamFlow = t.TypeOf<typeof UpstreamFlowFields.codec>;
type UpstreamExecution = t.TypeOf<typeof Execution.codec>;
const UPSTREAM_FIELDS = ['topLevel', 'builtIn', 'authenticationExecutions', 'authenticatorConfig'] as const;


/** A flow of the list, its upstream fields read, with where it is. */
interface Listed {
  readonly item: Fields;
  readonly upstream: UpstreamFlow;
  readonly c: t.Context;
}

/** What converting the list needs: the sub-flows and configs by alias, and which have been placed. */
interface Reading {
  readonly subFlows: ReadonlyMap<string, Listed>;
  readonly configs: ReadonlyMap<string, { readonly config: AuthenticatorConfigSpec; readonly c: t.Context }>;
  readonly placed: Set<string>;
}

type Steps = t.Validation<ExecutionSpec[]>;

const ownFields = (item: Fields): Fields => Object.fromEntries(Object.entries(item).filter(([key]) => !(UPSTREAM_FIELDS as readonly string[]).includes(key)));

/** `flow`'s steps in Keyward's shape: its authenticationExecutions read, or its executions as they are. */
function stepsOf(flow: Listed, reading: Reading): Steps | undefined {
  const executions = flow.upstream.authenticationExecutions;
  if (executions === undefined) return undefined;
  if ('executions' in flow.item) return t.failure(executions, contextAt(flow.c, ['authenticationExecutions']), BOTH_STEP_SPELLINGS_MESSAGE);
  const ordered = executions.map((execution, index) => ({ execution, index })).sort((a, b) => (a.execution.priority ?? 0) - (b.execution.priority ?? 0));
  const steps: ExecutionSpec[] = [];
  for (const { execution, index } of ordered) {
    const step = stepOf(execution, contextAt(flow.c, ['authenticationExecutions', index]), reading);
    if (step._tag === 'Left') return step;
    steps.push(step.right);
  }
  return t.success(steps);
}

const requirementOf = (execution: UpstreamExecution): Pick<ExecutionSpec, 'requirement'> => (execution.requirement === undefined ? {} : { requirement: execution.requirement });

function stepOf(execution: UpstreamExecution, c: t.Context, reading: Reading): t.Validation<ExecutionSpec> {
  if (execution.authenticatorFlow === true) return subFlowStep(execution, c, reading);
  if (execution.flowAlias !== undefined) return t.failure(execution.flowAlias, contextAt(c, ['flowAlias']), SUB_FLOW_MESSAGE);
  if (execution.authenticator === undefined) return t.failure(execution, c, ONE_STEP_MESSAGE);
  if (execution.authenticatorConfig === undefined) return t.success({ authenticator: execution.authenticator, ...requirementOf(execution) });
  const config = reading.configs.get(execution.authenticatorConfig);
  if (config === undefined) return t.failure(execution.authenticatorConfig, contextAt(c, ['authenticatorConfig']), unknownConfigMessage(execution.authenticatorConfig));
  reading.placed.add(`config ${execution.authenticatorConfig}`);
  return t.success({ authenticator: execution.authenticator, ...requirementOf(execution), config: config.config });
}

function subFlowStep(execution: UpstreamExecution, c: t.Context, reading: Reading): t.Validation<ExecutionSpec> {
  if (execution.authenticator !== undefined) return t.failure(execution, c, ONE_STEP_MESSAGE);
  if (execution.authenticatorConfig !== undefined) return t.failure(execution.authenticatorConfig, contextAt(c, ['authenticatorConfig']), CONFIG_NEEDS_AUTHENTICATOR_MESSAGE);
  const alias = execution.flowAlias;
  if (alias === undefined) return t.failure(execution, contextAt(c, ['flowAlias']), SUB_FLOW_MESSAGE);
  const flow = reading.subFlows.get(alias);
  if (flow === undefined) return t.failure(alias, contextAt(c, ['flowAlias']), unknownSubFlowMessage(alias));
  if (reading.placed.has(`flow ${alias}`)) return t.failure(alias, contextAt(c, ['flowAlias']), subFlowTwiceMessage(alias));
  reading.placed.add(`flow ${alias}`);
  const steps = stepsOf(flow, reading) ?? t.success(flow.item['executions'] as ExecutionSpec[] | undefined);
  if (steps._tag === 'Left') return steps;
  const description = flow.item['description'];
  return t.success({
    subFlow: { alias, ...(typeof description === 'string' ? { description } : {}), ...(steps.right === undefined ? {} : { executions: steps.right }) },
    ...requirementOf(execution),
  });
}

/** Each flow of the list with its upstream fields decoded, or the first that is wrong. */
function listed(flows: readonly unknown[], c: t.Context): t.Validation<Listed[]> {
  const all: Listed[] = [];
  for (const [index, item] of flows.entries()) {
    if (!isFields(item)) continue;
    const at = contextAt(c, [index]);
    const upstream = UpstreamFlowFields.codec.validate(item, at);
    if (upstream._tag === 'Left') return upstream;
    all.push({ item, upstream: upstream.right, c: at });
  }
  return t.success(all);
}

/** The sub-flows and configs of the list by alias, or the first that cannot be one. */
function readingOf(all: readonly Listed[]): t.Validation<Reading> {
  const subFlows = new Map<string, Listed>();
  const configs = new Map<string, { readonly config: AuthenticatorConfigSpec; readonly c: t.Context }>();
  for (const flow of all) {
    for (const [index, config] of (flow.upstream.authenticatorConfig ?? []).entries()) {
      const at = contextAt(flow.c, ['authenticatorConfig', index]);
      if (configs.has(config.alias)) return t.failure(config.alias, contextAt(at, ['alias']), configTwiceMessage(config.alias));
      configs.set(config.alias, { config: { alias: config.alias, config: config.config ?? {} }, c: at });
    }
    if (flow.upstream.topLevel !== false) continue;
    if ('copyFrom' in flow.item) return t.failure(flow.item['copyFrom'], contextAt(flow.c, ['copyFrom']), SUB_FLOW_COPY_MESSAGE);
    if (flow.item['providerId'] !== undefined && flow.item['providerId'] !== 'basic-flow') return t.failure(flow.item['providerId'], contextAt(flow.c, ['providerId']), SUB_FLOW_PROVIDER_MESSAGE);
    subFlows.set(String(flow.item['alias']), flow);
  }
  return t.success({ subFlows, configs, placed: new Set() });
}

function read(spec: Readonly<Fields>, c: t.Context): t.Validation<Fields> | undefined {
  const flows = spec['authenticationFlows'];
  if (!Array.isArray(flows) || !flows.some((item) => isFields(item) && UPSTREAM_FIELDS.some((key) => key in item))) return undefined;
  const at = contextAt(c, ['authenticationFlows']);
  const all = listed(flows, at);
  if (all._tag === 'Left') return all;
  const reading = readingOf(all.right);
  if (reading._tag === 'Left') return reading;
  const topLevel: Fields[] = [];
  for (const flow of all.right.filter((each) => each.upstream.topLevel !== false)) {
    const steps = stepsOf(flow, reading.right);
    if (steps?._tag === 'Left') return steps;
    topLevel.push({ ...ownFields(flow.item), ...(steps === undefined ? {} : { executions: steps.right }) });
  }
  for (const [alias, flow] of reading.right.subFlows) {
    if (!reading.right.placed.has(`flow ${alias}`)) return t.failure(false, contextAt(flow.c, ['topLevel']), UNNAMED_SUB_FLOW_MESSAGE);
  }
  for (const [alias, config] of reading.right.configs) {
    if (!reading.right.placed.has(`config ${alias}`)) return t.failure(alias, contextAt(config.c, ['alias']), UNUSED_CONFIG_MESSAGE);
  }
  return t.success({ ...spec, authenticationFlows: topLevel });
}

/** The flows' item schema with the Kopf operator's fields, refusing both spellings of the steps. */
function withUpstreamFields(items: { readonly properties?: Readonly<Record<string, unknown>>; readonly 'x-kubernetes-validations'?: readonly unknown[] }): object {
  return {
    ...items,
    properties: { ...items.properties, ...UpstreamFlowFields.schema.properties },
    'x-kubernetes-validations': [
      ...(items['x-kubernetes-validations'] ?? []),
      { rule: '!(has(self.executions) && has(self.authenticationExecutions))', message: BOTH_STEP_SPELLINGS_MESSAGE, fieldPath: '.authenticationExecutions' },
    ],
  };
}

/** The Kopf operator's flows, sub-flows and configs, read into Keyward's `authenticationFlows`. */
export const AUTHENTICATION_FLOWS_SHAPE: UpstreamShape = {
  note: FLOWS_NOTE,
  read,
  schema: (spec) => {
    const schema = spec as { readonly properties: Readonly<Record<string, { readonly items: object }>> };
    const flows = schema.properties['authenticationFlows'];
    if (flows === undefined) throw new Error('the realm spec has no authenticationFlows for the Kopf operator\'s flow fields');
    return { ...spec, properties: { ...schema.properties, authenticationFlows: { ...flows, items: withUpstreamFields(flows.items) } } };
  },
};
