import {
  BUILT_IN_FLOWS,
  BUILT_IN_FLOW_MESSAGE,
  FLOW_ALIAS_MAX_LENGTH,
  FLOW_BINDINGS,
  FLOW_DESCRIPTION_MAX_LENGTH,
  FLOW_PROVIDERS,
  MAX_EXECUTIONS,
  MAX_FLOWS,
  MAX_SUB_FLOW_DEPTH,
  REQUIREMENTS,
} from './spec.js';
import { listMapOf } from '../../list-schema.js';

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
  properties: { alias, config: { type: 'object', additionalProperties: { type: 'string' } } },
};

/** Executions below which sub-flows nest at most `depth` levels (a schema cannot recurse). */
function executions(depth: number): object {
  const subFlow = depth === 0 ? undefined : {
    type: 'object',
    required: ['alias'],
    description: 'A sub-flow, its alias unique in the realm; its executions, when given, exactly those in that order.',
    properties: { alias, description, executions: executions(depth - 1) },
  };
  return {
    type: 'array',
    maxItems: MAX_EXECUTIONS,
    description: 'Exactly these steps, in this order.',
    items: {
      type: 'object',
      // Plain schema rules, not CEL: rules on items of lists nested this deep exceed the API server's cost budget.
      ...(subFlow === undefined
        ? { required: ['authenticator'] }
        : { oneOf: [{ required: ['authenticator'] }, { required: ['subFlow'] }], not: { required: ['subFlow', 'config'] } }),
      properties: {
        authenticator: { ...alias, description: 'The authenticator\'s provider id, e.g. auth-cookie.' },
        ...(subFlow === undefined ? {} : { subFlow }),
        requirement: { type: 'string', enum: [...REQUIREMENTS] },
        config,
      },
    },
  };
}

export const authenticationFlowsSchema = listMapOf('alias', {
  type: 'object',
  required: ['alias'],
  properties: {
    alias: { ...alias, 'x-kubernetes-validations': [{ rule: `!(self in ${celList(BUILT_IN_FLOWS)})`, message: BUILT_IN_FLOW_MESSAGE }] },
    description,
    providerId: { type: 'string', enum: [...FLOW_PROVIDERS], description: 'basic-flow (the default) for users, client-flow for clients.' },
    copyFrom: { ...alias, description: 'Made as a copy of this flow (e.g. a built-in one), then brought to the executions given.' },
    executions: executions(MAX_SUB_FLOW_DEPTH),
  },
}, { maxItems: MAX_FLOWS, description: 'Authentication flows made and kept by this object; Keycloak\'s built-in flows are never changed.' });

export const flowBindingsSchema = {
  type: 'object',
  description: 'The flows the realm uses, by alias (Keycloak\'s realm fields of these names); a binding left out is left as it is.',
  properties: Object.fromEntries(FLOW_BINDINGS.map((field) => [field, alias])),
};
