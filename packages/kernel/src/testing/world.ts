import type { ObjectRef, ResourceType } from '../model/refs.js';
import type { AnyAction, AnyQuery } from '../plan/actions.js';
import { vocabulary, type ActionsOfApi, type Api, type QueriesOfApi, type Vocabulary } from '../plan/api.js';
import type { Plan } from '../plan/plan.js';
import { queryStages, type Observed, type Queries } from '../plan/queries.js';
import { interpret } from '../interpreter/interpret.js';
import type { Executor, HandlerTable, PlanResult, QueryHandler, QueryTable } from '../interpreter/types.js';
import type { ControlAction } from '../apis/control/actions.js';
import { controlApi } from '../apis/control/api.js';
import { controlRuntime } from '../apis/control/runtime.js';
import type { KubeObject, KubernetesAction } from '../apis/kubernetes/actions.js';
import { kubernetesApi } from '../apis/kubernetes/api.js';
import type { KubernetesQuery } from '../apis/kubernetes/queries.js';
import { SimulatedKubernetes, type NewObject, type SimulatedEvent } from '../apis/kubernetes/simulator.js';

export type { NewObject, SimulatedEvent } from '../apis/kubernetes/simulator.js';

/** The test half of an API module: its presentations, handlers that change in-memory state, and answers from it. */
export interface ApiSimulator<A extends AnyAction, Q extends AnyQuery = never> {
  readonly api: Api<A, Q>;
  readonly handlers: HandlerTable<A>;
  readonly answers: QueryTable<Q>;
}

/** Any simulator (its types are read back from `api`). */
export interface AnyApiSimulator {
  readonly api: Api<AnyAction, AnyQuery>;
  readonly handlers: object;
  readonly answers: object;
}

/** Creates a simulator over the world's Kubernetes objects (a Keystone reads passwords from Secrets). */
export type SimulatorFactory<S extends AnyApiSimulator> = (kube: SimulatedKubernetes) => S;

type Simulators = Readonly<Record<string, AnyApiSimulator>>;

/** A world of Kubernetes alone. */
type NoSimulators = Readonly<Record<string, never>>;

/** The actions a world with simulators `S` can run. */
export type WorldAction<S extends Simulators> = KubernetesAction | ControlAction | ActionsOfApi<S[keyof S]['api']>;
/** The queries a world with simulators `S` can answer. */
export type WorldQuery<S extends Simulators> = KubernetesQuery | QueriesOfApi<S[keyof S]['api']>;

function merged(tables: readonly object[]): Readonly<Record<string, unknown>> {
  return Object.assign({}, ...tables) as Readonly<Record<string, unknown>>;
}

/**
 * An in-memory Kubernetes, plus the other APIs' simulators it is given, for fast tests: it answers the queries
 * an observe function asks and executes plans through the real interpreter with handlers that change its
 * state, close enough to the real APIs for convergence tests (reconcile, apply, reconcile again: nothing to
 * do). Integration tests against the real servers remain the proof; this is for speed and properties.
 *
 *     const world = new InMemoryWorld({ keystone: simulateKeystone });
 *     world.apis.keystone.addUser('nova', 'password');
 */
export class InMemoryWorld<S extends Simulators = NoSimulators> {
  readonly kube = new SimulatedKubernetes();
  readonly apis: S;
  readonly #executor: Executor<WorldAction<S>> & { readonly vocabulary: Vocabulary<WorldAction<S>, WorldQuery<S>> };
  readonly #answers: Readonly<Record<string, unknown>>;

  constructor(simulators?: { readonly [K in keyof S]: SimulatorFactory<S[K]> }) {
    const entries = Object.entries(simulators ?? {}) as [string, SimulatorFactory<AnyApiSimulator>][];
    this.apis = Object.fromEntries(entries.map(([name, create]) => [name, create(this.kube)])) as unknown as S;
    const others: AnyApiSimulator[] = Object.values(this.apis);
    this.#executor = {
      handlers: merged([this.kube.handlers(), controlRuntime.handlers, ...others.map((s) => s.handlers)]) as HandlerTable<WorldAction<S>>,
      vocabulary: vocabulary(kubernetesApi, controlApi, ...others.map((s) => s.api)),
    };
    this.#answers = merged([this.kube.answers(), ...others.map((s) => s.answers)]);
  }

  /** How this world's actions are described: for rendering plans in tests. */
  get vocabulary(): Vocabulary<WorldAction<S>, WorldQuery<S>> {
    return this.#executor.vocabulary;
  }

  /** Puts an object in the world as the API server would store it (uid, resourceVersion, generation). */
  put(type: ResourceType, object: NewObject, manager?: string): KubeObject {
    return this.kube.put(type, object, manager);
  }

  /** Changes an object as another writer would (kubectl edit): `manager` takes over the fields it changes. */
  update(ref: ObjectRef, change: (object: KubeObject) => NewObject, manager?: string): KubeObject {
    return this.kube.update(ref, change, manager);
  }

  get(ref: ObjectRef): KubeObject | undefined {
    return this.kube.get(ref);
  }

  list(type: ResourceType, namespace?: string, labels?: Readonly<Record<string, string>>): KubeObject[] {
    return this.kube.list(type, namespace, labels);
  }

  /** Removes an object at once, ignoring finalizers (what a person with kubectl and --force might do). */
  remove(ref: ObjectRef): void {
    this.kube.remove(ref);
  }

  /** The Events recorded so far. */
  get events(): SimulatedEvent[] {
    return this.kube.events;
  }

  /** Answers an observe's queries from the world's state, in the order the runtime reads them. */
  query<Q extends Queries>(queries: Q): Observed<Q> {
    const { independent, guarded } = queryStages(queries);
    const results = new Map<string, unknown>(independent.map(([name, query]) => [name, query === undefined ? undefined : this.#answer(query)]));
    for (const [name, query, guard] of guarded) results.set(name, results.get(guard) === undefined ? this.#answer(query) : undefined);
    return Object.fromEntries(results) as Observed<Q>;
  }

  /** The same answers, as the runtime's readers give them (see ReconcileTarget). */
  read<Q extends Queries>(queries: Q): Promise<Observed<Q>> {
    try {
      return Promise.resolve(this.query(queries));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #answer(query: AnyQuery): unknown {
    const answer = this.#answers[query.kind] as QueryHandler<AnyQuery> | undefined;
    if (answer === undefined) throw new Error(`no simulator in this world answers ${query.kind}`);
    const result = answer(query);
    if (result instanceof Promise) throw new Error(`the simulator of ${query.kind} must answer synchronously`);
    return result;
  }

  /** Runs a plan against this world through the real interpreter. */
  run(plan: Plan<WorldAction<S>>): Promise<PlanResult> {
    return interpret(plan, this.#executor);
  }
}
