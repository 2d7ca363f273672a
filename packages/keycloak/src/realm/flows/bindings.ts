import type { RealmRepresentation } from '../../apis/keycloak/representations.js';
import type { RealmSteps } from '../context.js';
import { FLOW_BINDINGS, type FlowBinding, type FlowBindingsSpec } from './spec.js';

// The realm's flow bindings (browserFlow, ...): realm fields naming a flow by alias. Keycloak answers 500 to
// a binding of a flow that does not exist, so they are set after the flows are made, and only to flows
// the realm has or the spec makes; a binding the spec leaves out is left as it is.

/** The flows the realm binds once the plan's binding change is made. */
export type Bound = ReadonlySet<string>;

const boundAlias = (realm: RealmRepresentation, field: FlowBinding): string | undefined => {
  const alias = realm[field];
  return typeof alias === 'string' ? alias : undefined;
};

/**
 * One realm update for the bindings that differ from the spec's; returns what keeps a binding from being
 * made (a flow neither the realm has nor the spec makes) and the flows bound afterwards.
 */
export function planFlowBindings(steps: RealmSteps, wanted: FlowBindingsSpec | undefined, realm: RealmRepresentation, available: ReadonlySet<string>): { readonly problems: string[]; readonly bound: Bound } {
  const problems: string[] = [];
  const body: Record<string, string> = {};
  for (const field of FLOW_BINDINGS) {
    const alias = wanted?.[field];
    if (alias === undefined || alias === boundAlias(realm, field)) continue;
    if (available.has(alias)) body[field] = alias;
    else problems.push(`flowBindings.${field} names flow ${alias}, which realm ${steps.realm} does not have and the spec does not make`);
  }
  const changed = Object.keys(body);
  if (changed.length > 0) steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { type: 'realm', realm: steps.realm }, body, changed }, 'the spec binds other flows');
  const bound = new Set(FLOW_BINDINGS.flatMap((field) => {
    const alias = body[field] ?? boundAlias(realm, field);
    return alias === undefined ? [] : [alias];
  }));
  return { problems, bound };
}
