import {
  BUILT_IN_FLOWS,
  BUILT_IN_FLOW_MESSAGE,
  FLOW_ALIAS_MAX_LENGTH,
  FLOW_BINDINGS,
  type FlowBinding,
  FLOW_DESCRIPTION_MAX_LENGTH,
  FLOW_PROVIDERS,
  MAX_EXECUTIONS,
  MAX_FLOWS,
  MAX_SUB_FLOW_DEPTH,
  REQUIREMENTS,
} from './spec.js';
import { listMapOf } from '../../list-schema.js';
import { pruneRuleDescription } from '../../prune.js';

// The schema of `authenticationFlows`: the rules flow-spec.ts's codec applies, but for the uniqueness of
// sub-flow aliases across the realm, which only the codec checks. The schema states "exactly one of
// authenticator and subFlow" and "no config on a sub-flow" with oneOf and not, so its message names the
// item's path and the rule, where the codec's gives ONE_STEP_MESSAGE and CONFIG_NEEDS_AUTHENTICATOR_MESSAGE.

const alias = { type: 'string', minLength: 1, maxLength: FLOW_ALIAS_MAX_LENGTH };
const description = { type: 'string', maxLength: FLOW_DESCRIPTION_MAX_LENGTH };
const celList = (names: readonly string[]): string => `[${names.map((n) => `'${n}'`).join(', ')}]`;

const config = {
  type: 'object',
  required: ['alias', 'config'],
  description: 'The authenticator\'s configuration: its alias, unique in the realm, and its settings.',
  properties: {
    alias: { ...alias, description: 'The configuration\'s alias, unique in the realm.' },
    config: { type: 'object', additionalProperties: { type: 'string' }, description: 'The authenticator\'s settings, compared on the keys given; Keycloak\'s other keys stay.' },
  },
};

/** Executions below which sub-flows nest at most `depth` levels (a schema cannot recurse). */
function executions(depth: number): object {
  const subFlow = depth === 0 ? undefined : {
    type: 'object',
    required: ['alias'],
    description: 'A sub-flow, its alias unique in the realm; its executions, when given, exactly those in that order.',
    properties: {
      alias: { ...alias, description: 'The sub-flow\'s alias, unique in the realm.' },
      description: { ...description, description: 'The sub-flow\'s description, set when it is made.' },
      executions: executions(depth - 1),
    },
  };
  return {
    type: 'array',
    maxItems: MAX_EXECUTIONS,
    description: 'When given, exactly these steps, in this order; left out, the steps are left as they are.',
    items: {
      type: 'object',
      // Plain schema rules, not CEL: rules on items of lists nested this deep exceed the API server's cost budget.
      ...(subFlow === undefined
        ? { required: ['authenticator'] }
        : { oneOf: [{ required: ['authenticator'] }, { required: ['subFlow'] }], not: { required: ['subFlow', 'config'] } }),
      properties: {
        authenticator: { ...alias, description: 'The authenticator\'s provider id, e.g. auth-cookie.' },
        ...(subFlow === undefined ? {} : { subFlow }),
        requirement: { type: 'string', enum: [...REQUIREMENTS], description: 'REQUIRED, ALTERNATIVE, DISABLED or CONDITIONAL; left out, as Keycloak has it (a new step starts DISABLED, or at its only choice).' },
        config,
      },
    },
  };
}

export const authenticationFlowsSchema = listMapOf('alias', {
  type: 'object',
  required: ['alias'],
  properties: {
    alias: {
      ...alias,
      description: 'The flow\'s alias, unique in the realm; not one of Keycloak\'s built-in flows.',
      'x-kubernetes-validations': [{ rule: `!(self in ${celList(BUILT_IN_FLOWS)})`, message: BUILT_IN_FLOW_MESSAGE }],
    },
    description: { ...description, description: 'The flow\'s description; Keyward adds its marker after it.' },
    providerId: { type: 'string', enum: [...FLOW_PROVIDERS], description: 'basic-flow (the default) for users, client-flow for clients.' },
    copyFrom: { ...alias, description: 'Made as a copy of this flow (e.g. a built-in one), then brought to the executions given.' },
    executions: executions(MAX_SUB_FLOW_DEPTH),
  },
}, { maxItems: MAX_FLOWS, description: `Top-level authentication flows, by alias; Keycloak's built-in flows are never changed. ${pruneRuleDescription('authenticationFlows')}` });

const BINDING_DESCRIPTIONS: Readonly<Record<FlowBinding, string>> = {
  browserFlow: 'The flow of logins in a browser.',
  registrationFlow: 'The flow of users registering themselves.',
  directGrantFlow: 'The flow of direct grants (a username and password sent to the token endpoint).',
  resetCredentialsFlow: 'The flow of resetting a forgotten password.',
  clientAuthenticationFlow: 'The flow that authenticates clients.',
  dockerAuthenticationFlow: 'The flow of Docker registry logins.',
  firstBrokerLoginFlow: 'The flow of a user\'s first login through an identity provider.',
};

export const flowBindingsSchema = {
  type: 'object',
  description: 'The flows the realm uses, by alias (Keycloak\'s realm fields of these names); a binding left out is left as it is.',
  properties: Object.fromEntries(FLOW_BINDINGS.map((field) => [field, { ...alias, description: BINDING_DESCRIPTIONS[field] }])),
};
