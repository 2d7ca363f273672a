import type { PlanBuilder } from '@keyward/kernel';
import type { KeycloakCall } from '../apis/keycloak/actions.js';
import type { KeycloakRealmAction } from './vocabulary.js';

/** Where the steps for a realm's contents go, and how they reach Keycloak. */
export interface RealmSteps {
  readonly plan: PlanBuilder<KeycloakRealmAction>;
  readonly call: KeycloakCall;
  /** The realm's name, which is also what the admin API addresses it by. */
  readonly realm: string;
}
