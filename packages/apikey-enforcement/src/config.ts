/** Operator-level settings of the APIKey enforcement controller. */
export interface APIKeyConfig {
  /** Namespace of the enforcement Secrets, where Authorino looks (default "kuadrant"). */
  readonly enforcementNamespace: string;
}

/** Authorino's default namespace in a Kuadrant install. */
export const defaultAPIKeyConfig: APIKeyConfig = { enforcementNamespace: 'kuadrant' };
