import type * as t from 'io-ts';
import { fields as f, withRule, type Field } from '@keyward/kernel/model';
import { DESCRIPTION_MARKER } from '../../description-marker.js';
import { pruneRuleDescription } from '../../prune.js';

// Authentication flows of a KeycloakRealm, each field declared once for the codec and the CRD schema. The
// schema states "exactly one of authenticator and subFlow" and "no config on a sub-flow" with oneOf and not,
// so its message names the item's path and the rule, where the codec's gives ONE_STEP_MESSAGE and
// CONFIG_NEEDS_AUTHENTICATOR_MESSAGE; only the codec checks that sub-flow aliases are unique in the realm.

/** The top-level flows Keycloak 26 makes in every realm: never declared, changed or deleted. */
export const BUILT_IN_FLOWS: readonly string[] = ['browser', 'direct grant', 'registration', 'reset credentials', 'clients', 'first broker login', 'docker auth'];
export const BUILT_IN_FLOW_MESSAGE = `is a flow Keycloak makes in every realm (${BUILT_IN_FLOWS.join(', ')}); copy it under another alias with copyFrom`;

/** basic-flow: users log in through it; client-flow: clients authenticate through it. */
export const FLOW_PROVIDERS = ['basic-flow', 'client-flow'] as const;
export const REQUIREMENTS = ['REQUIRED', 'ALTERNATIVE', 'DISABLED', 'CONDITIONAL'] as const;

/**
 * Flows carry no attributes, so ours say so at the end of their description; only flows that do are
 * changed without adoption or deleted.
 */
export const FLOW_MARKER = DESCRIPTION_MARKER;
/** Keycloak's description column holds 255 characters, the marker and a space included. */
export const FLOW_DESCRIPTION_MAX_LENGTH = 255 - FLOW_MARKER.length - 1;
export const FLOW_ALIAS_MAX_LENGTH = 255;
/** How deep sub-flows nest below a top-level flow (Keycloak's browser flow uses two levels). */
export const MAX_SUB_FLOW_DEPTH = 3;
export const MAX_EXECUTIONS = 50;
export const MAX_FLOWS = 100;

export const ONE_STEP_MESSAGE = 'an execution names exactly one of authenticator and subFlow';
export const CONFIG_NEEDS_AUTHENTICATOR_MESSAGE = 'config belongs to an authenticator, not to a subFlow';
export const TOO_DEEP_MESSAGE = `sub-flows nest at most ${String(MAX_SUB_FLOW_DEPTH)} levels below a flow`;
export const UNIQUE_ALIASES_MESSAGE = 'flow and sub-flow aliases must be unique in the realm';

const alias = f.text(FLOW_ALIAS_MAX_LENGTH);
const description = f.string(FLOW_DESCRIPTION_MAX_LENGTH);

export interface AuthenticatorConfigSpec {
  readonly alias: string;
  readonly config: Readonly<Record<string, string>>;
}

export interface SubFlowSpec {
  readonly alias: string;
  readonly description?: string;
  readonly executions?: ExecutionSpec[];
}

/** A step of a flow: an authenticator (with its config) or a sub-flow, and how it is required. */
export interface ExecutionSpec {
  readonly authenticator?: string;
  readonly subFlow?: SubFlowSpec;
  readonly requirement?: (typeof REQUIREMENTS)[number];
  readonly config?: AuthenticatorConfigSpec;
}

const AuthenticatorConfig = f.object({
  alias: alias.describe('The configuration\'s alias, unique in the realm.').required(),
  config: f.stringMap().describe('The authenticator\'s settings, compared on the keys given; Keycloak\'s other keys stay.').required(),
}).describe('The authenticator\'s configuration: its alias, unique in the realm, and its settings.');

const stepFields = {
  authenticator: alias.describe('The authenticator\'s provider id, e.g. auth-cookie.'),
  requirement: f.enumOf(REQUIREMENTS).describe('REQUIRED, ALTERNATIVE, DISABLED or CONDITIONAL; left out, as Keycloak has it (a new step starts DISABLED, or at its only choice).'),
  config: AuthenticatorConfig,
};

/**
 * A step at `depth` levels above the deepest sub-flow: one with a subFlow there is refused, naming the limit
 * (the codec reads what the schema would drop).
 */
function checkedStep(step: Field<t.Type<ExecutionSpec, unknown>>, depth: number): Field<t.Type<ExecutionSpec, unknown>> {
  const nested = (s: ExecutionSpec): boolean => s.subFlow !== undefined;
  return step
    // Plain schema rules, not CEL: rules on items of lists nested this deep exceed the API server's cost budget.
    .schemaOnly(depth === 0
      ? { required: ['authenticator'] }
      : { oneOf: [{ required: ['authenticator'] }, { required: ['subFlow'] }], not: { required: ['subFlow', 'config'] } })
    .codecOnly((codec) => {
      const shallow = withRule(codec, (s) => depth > 0 || !nested(s), TOO_DEEP_MESSAGE);
      const oneStep = withRule(shallow, (s) => (s.authenticator === undefined) === nested(s), ONE_STEP_MESSAGE);
      return withRule(oneStep, (s) => s.config === undefined || !nested(s), CONFIG_NEEDS_AUTHENTICATOR_MESSAGE);
    });
}

/** Executions below which sub-flows nest at most `depth` levels (the schema cannot recurse, so neither does this). */
function executions(depth: number): Field<t.Type<ExecutionSpec[], unknown>> {
  const step = depth === 0 ? f.object(stepFields) : f.object({
    authenticator: stepFields.authenticator,
    subFlow: f.object({
      alias: alias.describe('The sub-flow\'s alias, unique in the realm.').required(),
      description: description.describe('The sub-flow\'s description, set when it is made.'),
      executions: executions(depth - 1),
    }).describe('A sub-flow, its alias unique in the realm; its executions, when given, exactly those in that order.'),
    requirement: stepFields.requirement,
    config: stepFields.config,
  });
  return f.list(checkedStep(step, depth), { maxItems: MAX_EXECUTIONS }).describe('When given, exactly these steps, in this order; left out, the steps are left as they are.');
}

export interface AuthenticationFlowSpec {
  readonly alias: string;
  readonly description?: string;
  readonly providerId?: (typeof FLOW_PROVIDERS)[number];
  /** A flow (built-in or not) whose copy this flow starts as. */
  readonly copyFrom?: string;
  /** When given, exactly these steps in this order; when left out, the steps are not managed. */
  readonly executions?: ExecutionSpec[];
}

const Flow = f.object({
  alias: alias.where({ rule: `!(self in ${f.celList(BUILT_IN_FLOWS)})`, message: BUILT_IN_FLOW_MESSAGE }, (name) => !BUILT_IN_FLOWS.includes(name))
    .describe('The flow\'s alias, unique in the realm; not one of Keycloak\'s built-in flows.').required(),
  description: description.describe('The flow\'s description; Keyward adds its marker after it.'),
  providerId: f.enumOf(FLOW_PROVIDERS).describe('basic-flow (the default) for users, client-flow for clients.'),
  copyFrom: alias.describe('Made as a copy of this flow (e.g. a built-in one), then brought to the executions given.'),
  executions: executions(MAX_SUB_FLOW_DEPTH),
});

/** Every alias a flow list makes: the flows' and their sub-flows'. */
export function flowAliases(flows: readonly AuthenticationFlowSpec[]): string[] {
  const below = (steps: readonly ExecutionSpec[] | undefined): string[] =>
    (steps ?? []).flatMap((step) => (step.subFlow === undefined ? [] : [step.subFlow.alias, ...below(step.subFlow.executions)]));
  return flows.flatMap((flow) => [flow.alias, ...below(flow.executions)]);
}

const uniqueAliases = (flows: readonly AuthenticationFlowSpec[]): boolean => {
  const aliases = flowAliases(flows);
  return new Set(aliases).size === aliases.length;
};

/** The realm fields that bind a flow, by its alias, to what it does. */
export const FLOW_BINDINGS = ['browserFlow', 'registrationFlow', 'directGrantFlow', 'resetCredentialsFlow', 'clientAuthenticationFlow', 'dockerAuthenticationFlow', 'firstBrokerLoginFlow'] as const;
export type FlowBinding = (typeof FLOW_BINDINGS)[number];
export type FlowBindingsSpec = Partial<Record<FlowBinding, string>>;

const BINDING_DESCRIPTIONS: Readonly<Record<FlowBinding, string>> = {
  browserFlow: 'The flow of logins in a browser.',
  registrationFlow: 'The flow of users registering themselves.',
  directGrantFlow: 'The flow of direct grants (a username and password sent to the token endpoint).',
  resetCredentialsFlow: 'The flow of resetting a forgotten password.',
  clientAuthenticationFlow: 'The flow that authenticates clients.',
  dockerAuthenticationFlow: 'The flow of Docker registry logins.',
  firstBrokerLoginFlow: 'The flow of a user\'s first login through an identity provider.',
};

export const FlowBindings = f.object(f.each(BINDING_DESCRIPTIONS, alias))
  .describe('The flows the realm uses, by alias (Keycloak\'s realm fields of these names); a binding left out is left as it is.');
export const FlowBindingsCodec: t.Type<FlowBindingsSpec, unknown> = FlowBindings.codec;
export const flowBindingsSchema = FlowBindings.schema;

export const AuthenticationFlows = f.listMap('alias', Flow, { maxItems: MAX_FLOWS })
  .codecOnly((codec) => withRule(codec, uniqueAliases, UNIQUE_ALIASES_MESSAGE))
  .says(`a list of at most ${String(MAX_FLOWS)} items without repeats`)
  .describe(`Top-level authentication flows, by alias; Keycloak's built-in flows are never changed. ${pruneRuleDescription('authenticationFlows')}`);
export const AuthenticationFlowsCodec: t.Type<AuthenticationFlowSpec[], unknown> = AuthenticationFlows.codec;
export const authenticationFlowsSchema = AuthenticationFlows.schema;
