/** Operator-level settings of the APIKey enforcement controller. */
export interface APIKeyConfig {
  /** Namespace of the enforcement Secrets, where Authorino looks (default "kuadrant"). */
  readonly enforcementNamespace: string;
}
