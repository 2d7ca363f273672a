import * as t from 'io-ts';
import { atMost, boundedText, oneOf, uniqueList } from '@keyward/kernel/model';
import { DESCRIPTION_MARKER } from '../../description-marker.js';

// Authentication flows of a KeycloakRealm as a codec; flow-crd.ts states the same rules as a schema.

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


/** `base`, failing with `message` when `ok` says no. */
function refine<A, O>(base: t.Type<A, O>, ok: (value: A) => boolean, message: string): t.Type<A, O> {
  return new t.Type<A, O>(
    base.name,
    (u): u is A => base.is(u) && ok(u),
    (u, c) => {
      const decoded = base.validate(u, c);
      if (decoded._tag === 'Left' || ok(decoded.right)) return decoded;
      return t.failure(u, c, message);
    },
    base.encode,
  );
}


const alias = boundedText(FLOW_ALIAS_MAX_LENGTH);
const description = refine(t.string, (value) => value.length <= FLOW_DESCRIPTION_MAX_LENGTH, `must have at most ${String(FLOW_DESCRIPTION_MAX_LENGTH)} characters`);

const AuthenticatorConfigCodec = t.type({ alias, config: t.record(t.string, t.string) });

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

/** Executions below which sub-flows nest at most `depth` levels (the schema cannot recurse, so neither does this). */
function executionsCodec(depth: number): t.Type<ExecutionSpec[], unknown> {
  const subFlow = depth > 0 ? { subFlow: t.intersection([t.type({ alias }), t.partial({ description, executions: executionsCodec(depth - 1) })]) } : {};
  const execution = t.partial({ authenticator: alias, ...subFlow, requirement: oneOf(REQUIREMENTS), config: AuthenticatorConfigCodec });
  const nested = (step: object): boolean => (step as { readonly subFlow?: unknown }).subFlow !== undefined;
  const shallow = refine(execution, (step) => depth > 0 || !nested(step), TOO_DEEP_MESSAGE);
  const oneStep = refine(shallow, (step) => (step.authenticator === undefined) === nested(step), ONE_STEP_MESSAGE);
  const configured = refine(oneStep, (step) => step.config === undefined || !nested(step), CONFIG_NEEDS_AUTHENTICATOR_MESSAGE);
  return atMost(t.array(configured), MAX_EXECUTIONS) as t.Type<ExecutionSpec[], unknown>;
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

const FlowCodec = t.intersection([
  t.type({ alias: refine(alias, (name) => !BUILT_IN_FLOWS.includes(name), BUILT_IN_FLOW_MESSAGE) }),
  t.partial({ description, providerId: oneOf(FLOW_PROVIDERS), copyFrom: alias, executions: executionsCodec(MAX_SUB_FLOW_DEPTH) }),
]);

/** Every alias a flow list makes: the flows' and their sub-flows'. */
export function flowAliases(flows: readonly AuthenticationFlowSpec[]): string[] {
  const below = (executions: readonly ExecutionSpec[] | undefined): string[] =>
    (executions ?? []).flatMap((step) => (step.subFlow === undefined ? [] : [step.subFlow.alias, ...below(step.subFlow.executions)]));
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

export const FlowBindingsCodec: t.Type<FlowBindingsSpec, unknown> = t.partial(Object.fromEntries(FLOW_BINDINGS.map((field) => [field, alias])) as Record<FlowBinding, typeof alias>);

export const AuthenticationFlowsCodec: t.Type<AuthenticationFlowSpec[], unknown> = refine(
  uniqueList(atMost(t.array(FlowCodec), MAX_FLOWS), (flow) => flow.alias),
  uniqueAliases,
  UNIQUE_ALIASES_MESSAGE,
);
