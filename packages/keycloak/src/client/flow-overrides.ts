import type { FlowName } from '../apis/keycloak/queries.js';
import type { KeycloakClientSpec } from './spec.js';

/** Keycloak's keys in a client's authenticationFlowBindingOverrides, by the spec's. */
const OVERRIDE_KEYS = { browser: 'browser', directGrant: 'direct_grant' } as const;

/** authenticationFlowBindingOverrides as Keycloak wants it: flow ids, and '' to remove an override. */
export type FlowOverrides = Readonly<Record<string, string>>;

export type ResolvedOverrides =
  | { readonly ok: true; readonly overrides: FlowOverrides | undefined }
  | { readonly ok: false; readonly message: string };

/**
 * The spec's flow overrides (by alias) as Keycloak's flow ids: Keycloak takes ids only, and answers 500 for
 * an id it does not know. A spec that states overrides manages both: one it leaves out is removed.
 * Undefined `flows`: the realm's flows could not be read (no such realm).
 */
export function resolveFlowOverrides(spec: KeycloakClientSpec, flows: readonly FlowName[] | undefined, realm: string): ResolvedOverrides {
  const wanted = spec.authenticationFlowOverrides;
  if (wanted === undefined) return { ok: true, overrides: undefined };
  if (flows === undefined) return { ok: false, message: `the authentication flows of realm ${realm} could not be read` };
  const overrides: Record<string, string> = {};
  for (const [field, key] of Object.entries(OVERRIDE_KEYS)) {
    const alias = wanted[field as keyof typeof OVERRIDE_KEYS];
    const id = alias === undefined ? '' : flows.find((flow) => flow.alias === alias)?.id;
    if (id === undefined) return { ok: false, message: `authentication flow "${alias ?? ''}" (spec.authenticationFlowOverrides.${field}) does not exist in realm ${realm}` };
    overrides[key] = id;
  }
  return { ok: true, overrides };
}

/** Overrides as Keycloak shows them: a removed one is absent, not ''. */
export const effectiveOverrides = (overrides: unknown): Readonly<Record<string, unknown>> =>
  Object.fromEntries(Object.entries(typeof overrides === 'object' && overrides !== null ? overrides : {}).filter(([, id]) => id !== ''));
