import type { AdoptionScope } from './adoption.js';

/** Where the operator finds Keycloak, and which realms are its to manage. */
export interface KeycloakConfig {
  /** Keycloak's root URL; without one, realms and clients say so in status and wait. */
  readonly keycloakUrl: string | undefined;
  /**
   * The Secret with the admin credentials (`username`/`password`, or `client-id`/`client-secret`), in the
   * operator's namespace.
   */
  readonly keycloakAdminSecret: { readonly namespace: string; readonly name: string } | undefined;
  /**
   * The operator's namespace: a realm whose `operatorRef.namespace` names another is left to the operator
   * there. Realms without an operatorRef are everyone's (this operator's).
   */
  readonly keycloakOperatorNamespace: string;
  /**
   * The old operator-wide adoption switch, kept only to refuse it with a message naming its replacement:
   * any namespace could take over any realm or client nobody owns.
   */
  readonly keycloakAdoptUnowned: false;
  /**
   * Who may take over an existing realm or client that no object owns, instead of being refused: objects of
   * a namespace (`namespace`), or of a namespace in one realm (`namespace/realm`). Keycloak's own realm and
   * clients are never taken over.
   */
  readonly keycloakAdoptUnownedNamespaces: readonly AdoptionScope[];
  /**
   * Reconciles of one namespace's realms or clients running at once, at most (per controller): they share
   * that namespace's Keycloak rate limit, so more would hold workers other namespaces could use.
   */
  readonly keycloakNamespaceConcurrency: number;
  /**
   * Dangerous roles a KeycloakClient may still grant its service account: `role` (realm), `client/role`, or
   * `*` for all. Without, realm `admin` and the management clients' admin roles are refused.
   */
  readonly keycloakAllowedServiceAccountRoles: readonly string[];
  /**
   * How often each realm and client is compared with Keycloak while nothing changed, in milliseconds: the
   * operator's one resync loop spreads the checks over this period, so a change made in Keycloak by hand is
   * found and set back. 0: never (objects are reconciled only when they or what they watch change).
   */
  readonly keycloakResyncPeriod: number;
  /**
   * Let a KeycloakClient state JavaScript authorization policies (code that runs inside Keycloak). Without,
   * a client stating one is Stalled and nothing is written.
   */
  readonly keycloakAllowJsPolicies: boolean;
}

export const defaultKeycloakConfig: KeycloakConfig = {
  keycloakUrl: undefined,
  keycloakAdminSecret: undefined,
  keycloakOperatorNamespace: 'keyward-system',
  keycloakAdoptUnowned: false,
  keycloakAdoptUnownedNamespaces: [],
  keycloakNamespaceConcurrency: 2,
  keycloakAllowedServiceAccountRoles: [],
  keycloakResyncPeriod: 10 * 60_000,
  keycloakAllowJsPolicies: false,
};
