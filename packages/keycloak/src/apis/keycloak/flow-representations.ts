import type { KeycloakObject } from './representations.js';

// Authentication flows as Keycloak 26's admin API gives them (GET /authentication/flows lists top-level flows
// only; GET /authentication/flows/{alias}/executions lists a flow's steps flat, sub-flows' steps included).

export interface AuthenticationFlowRepresentation extends KeycloakObject {
  readonly id: string;
  readonly alias: string;
  readonly description?: string;
  readonly providerId?: string;
  readonly topLevel?: boolean;
  /** Keycloak's own flows: never changed or deleted. */
  readonly builtIn?: boolean;
}

/** One step of a flow in the flat list: `level` is its depth, `index` its place among its siblings. */
export interface FlowExecutionRepresentation extends KeycloakObject {
  readonly id: string;
  readonly level: number;
  readonly index: number;
  readonly priority?: number;
  readonly requirement?: string;
  /** A sub-flow's alias, or the authenticator's display name. */
  readonly displayName?: string;
  /** The authenticator; absent for a sub-flow. */
  readonly providerId?: string;
  readonly authenticationFlow?: boolean;
  /** A sub-flow's flow id. */
  readonly flowId?: string;
  /** The id of the authenticator's config, when it has one. */
  readonly authenticationConfig?: string;
}

export interface AuthenticatorConfigRepresentation extends KeycloakObject {
  readonly id: string;
  readonly alias: string;
  readonly config?: Readonly<Record<string, string>>;
}

/** A top-level flow with, when they were read, its steps and the configs of its authenticators (by config id). */
export interface ObservedFlow {
  readonly flow: AuthenticationFlowRepresentation;
  readonly executions?: readonly FlowExecutionRepresentation[];
  readonly configs: Readonly<Record<string, AuthenticatorConfigRepresentation>>;
}

/** Which flows' steps a realm read includes (only flows a spec lists), and whether with their configs. */
export interface FlowsRead {
  readonly executionsOf: readonly { readonly alias: string; readonly configs: boolean }[];
}

/** A registered required action (GET /authentication/required-actions); Keycloak's PUT of one replaces it whole. */
export interface RequiredActionRepresentation extends KeycloakObject {
  readonly alias: string;
  readonly name?: string;
  readonly providerId?: string;
  readonly enabled?: boolean;
  readonly defaultAction?: boolean;
  readonly priority?: number;
  readonly config?: Readonly<Record<string, string>>;
}
