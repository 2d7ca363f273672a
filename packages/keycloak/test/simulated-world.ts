// What the tests that run controllers against the in-memory Keycloak share: the operator's settings and the world.
import { expect } from '@jest/globals';
import type { AnyAction, ObjectRef, Plan } from '@keyward/kernel';
import { converge, type InMemoryWorld } from '@keyward/kernel';
import { type FakeClock, type ReconcileOnceResult } from '@keyward/kernel/testing';
import { defaultKeycloakConfig, keycloakClientController, keycloakRealmController, keycloakRealmType, type KeycloakConfig } from '../src/index.js';
import { type KeycloakRealmAction } from '../src/realm/vocabulary.js';
import type { SimulatedKeycloak } from '../src/testing.js';

export const simulatedConfig: KeycloakConfig = {
  ...defaultKeycloakConfig,
  keycloakUrl: 'http://keycloak.test',
  keycloakAdminSecret: { namespace: 'keyward-system', name: 'keycloak-admin' },
  keycloakOperatorNamespace: 'keyward-system',
};

export type KeycloakWorld = InMemoryWorld<{ keycloak: SimulatedKeycloak }>;

/** The options of a converge of the in-memory world: the clock moves 3 s on between reconciles. */
function settings(clock: FakeClock, config: KeycloakConfig, maxRounds: number) {
  return { config, now: () => clock.now(), maxRounds, between: () => { clock.advance(3_000); } };
}

/** The plan of each round, each of them decided and run without a failure. */
function plansOf<A extends AnyAction>(ref: ObjectRef, rounds: readonly ReconcileOnceResult<unknown, A>[]): Plan<A>[] {
  return rounds.map(({ decision, result }) => {
    if (decision.kind !== 'planned') throw new Error(`${ref.name}: ${decision.kind}`);
    expect(result?.ok).toBe(true);
    return decision.plan;
  });
}

/** Reconciles a KeycloakRealm until a plan changes nothing (every plan succeeding); the plans, in order. */
export async function convergeRealm(w: KeycloakWorld, ref: ObjectRef, clock: FakeClock, config: KeycloakConfig = simulatedConfig, maxRounds = 8): Promise<Plan<KeycloakRealmAction>[]> {
  return plansOf(ref, await converge(keycloakRealmController, w, ref, settings(clock, config, maxRounds)));
}

/** Reconciles the KeycloakRealm or KeycloakClient at `ref` until a plan changes nothing (every plan succeeding); the plans. */
export async function convergeAt(w: KeycloakWorld, ref: ObjectRef, clock: FakeClock): Promise<Plan[]> {
  if (ref.type === keycloakRealmType) return convergeRealm(w, ref, clock);
  return plansOf(ref, await converge(keycloakClientController, w, ref, settings(clock, simulatedConfig, 8)));
}
