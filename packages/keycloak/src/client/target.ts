import type { PlanSteps } from '@keyward/kernel/plan';
import type { ClientAddress, KeycloakAction, KeycloakCall } from '../apis/keycloak/actions.js';

/** Where the steps for one client's contents go: the plan, the server and rate limit, and the client. */
export interface ClientTarget {
  readonly plan: PlanSteps<KeycloakAction>;
  readonly call: KeycloakCall;
  /** Its id may be the output of the step that creates it. */
  readonly client: ClientAddress;
}

/** Items of `wanted` not in `have`, in `wanted`'s order. */
export function missing(wanted: readonly string[], have: readonly string[]): string[] {
  const present = new Set(have);
  return wanted.filter((item) => !present.has(item));
}
