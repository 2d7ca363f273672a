import { KeywardError } from '@keyward/kernel/interpreter';
import type { Value } from '@keyward/kernel/plan';
import type { ResourceOf } from './resource-types.js';
import type { AuthenticatorConfigRepresentation, FlowExecutionRepresentation, FlowsRead, ObservedFlow, RequiredActionRepresentation } from './flow-representations.js';
import type { KeycloakJson } from './representations.js';

// The authentication flows of the in-memory Keycloak, with the behaviour of Keycloak 26 that Keyward relies
// on: built-in flows refuse changes, a copy renames its sub-flows "<new alias> <sub-flow alias>", new steps
// start DISABLED, deleting a sub-flow step deletes the sub-flow, and deleting a flow a realm binds fails (500);
// and its required actions: a new realm has them registered but for some, a PUT replaces one whole.

type Rep = Record<string, KeycloakJson | undefined>;
type FlowResource = ResourceOf<'authenticationFlow' | 'authenticationFlowCopy' | 'flowExecution' | 'authenticatorConfig' | 'requiredAction'>;
type Resolve = (value: Value<string>) => string;

/** What a create, an update and a delete of one type do to a realm's flows. */
interface FlowType<R extends FlowResource> {
  create(state: RealmFlows, resource: R, body: Rep, resolve: Resolve): string;
  update(state: RealmFlows, resource: R, body: Rep, resolve: Resolve): void;
  /** Whether something was deleted. */
  delete(state: RealmFlows, resource: R, resolve: Resolve, realm: string): boolean;
}

/** Required action providers Keycloak knows; a new realm has all but the last registered. */
const REQUIRED_ACTION_PROVIDERS = ['TERMS_AND_CONDITIONS', 'UPDATE_PROFILE', 'VERIFY_EMAIL', 'CONFIGURE_TOTP', 'UPDATE_PASSWORD', 'delete_account'];

interface Step {
  readonly id: string;
  readonly provider?: string;
  readonly subFlow?: string;
  requirement: string;
  priority: number;
  config?: string;
}

interface Flow {
  readonly id: string;
  readonly alias: string;
  description: string;
  readonly providerId: string;
  readonly topLevel: boolean;
  readonly builtIn: boolean;
  steps: Step[];
}

interface RealmFlows {
  readonly requiredActions: Map<string, RequiredActionRepresentation>;
  readonly flows: Map<string, Flow>;
  readonly configs: Map<string, { id: string; alias: string; config: Record<string, string> }>;
}

function fail(code: number, reason: string, message: string): never {
  throw new KeywardError({ api: 'keycloak', code, reason, message, retryable: code >= 500 });
}

const text = (value: KeycloakJson | undefined): string => (typeof value === 'string' ? value : '');

export class SimulatedFlows {
  readonly #realms = new Map<string, RealmFlows>();
  readonly #id: (prefix: string) => string;
  /** The aliases a realm binds (browserFlow, ...): such flows cannot be deleted. */
  readonly #bound: (realm: string) => readonly string[];

  constructor(id: (prefix: string) => string, bound: (realm: string) => readonly string[]) {
    this.#id = id;
    this.#bound = bound;
  }

  /** A new realm's built-in flows (a representative part of Keycloak's). */
  seed(realm: string): void {
    const registered = REQUIRED_ACTION_PROVIDERS.slice(0, -1).map((alias, index): [string, RequiredActionRepresentation] => [alias, { alias, name: alias, providerId: alias, enabled: true, defaultAction: false, priority: (index + 1) * 10, config: {} }]);
    const state: RealmFlows = { requiredActions: new Map(registered), flows: new Map(), configs: new Map() };
    this.#realms.set(realm, state);
    const forms = this.#add(state, { alias: 'forms', description: 'Username, password, otp and other auth forms.', topLevel: false, builtIn: true }, [{ provider: 'auth-username-password-form', requirement: 'REQUIRED' }]);
    this.#add(state, { alias: 'browser', description: 'Browser based authentication', topLevel: true, builtIn: true }, [
      { provider: 'auth-cookie', requirement: 'ALTERNATIVE' },
      { provider: 'auth-spnego', requirement: 'DISABLED' },
      { provider: 'identity-provider-redirector', requirement: 'ALTERNATIVE' },
      { subFlow: forms.id, requirement: 'ALTERNATIVE' },
    ]);
    for (const alias of ['direct grant', 'registration', 'reset credentials', 'first broker login', 'docker auth']) this.#add(state, { alias, description: alias, topLevel: true, builtIn: true }, []);
    this.#add(state, { alias: 'clients', description: 'Base authentication for clients', providerId: 'client-flow', topLevel: true, builtIn: true }, [{ provider: 'client-secret', requirement: 'ALTERNATIVE' }]);
  }

  drop(realm: string): void {
    this.#realms.delete(realm);
  }

  #add(state: RealmFlows, flow: { alias: string; description: string; providerId?: string; topLevel: boolean; builtIn: boolean }, steps: readonly { provider?: string; subFlow?: string; requirement: string }[]): Flow {
    if (this.#byAlias(state, flow.alias) !== undefined) fail(409, 'Conflict', `Flow ${flow.alias} already exists`);
    const made: Flow = { providerId: 'basic-flow', ...flow, id: this.#id('flow'), steps: steps.map((step, index) => ({ ...step, id: this.#id('execution'), priority: (index + 1) * 10 })) };
    state.flows.set(made.id, made);
    return made;
  }

  #state(realm: string): RealmFlows {
    return this.#realms.get(realm) ?? fail(404, 'NotFound', `realm ${realm} not found`);
  }

  #byAlias(state: RealmFlows, alias: string): Flow | undefined {
    return [...state.flows.values()].find((flow) => flow.alias === alias);
  }

  #flow(state: RealmFlows, alias: string): Flow {
    return this.#byAlias(state, alias) ?? fail(404, 'NotFound', `Flow ${alias} not found`);
  }

  #step(state: RealmFlows, id: string): { flow: Flow; step: Step } {
    for (const flow of state.flows.values()) {
      const step = flow.steps.find((candidate) => candidate.id === id);
      if (step !== undefined) return { flow, step };
    }
    return fail(404, 'NotFound', `execution ${id} not found`);
  }

  #copy(state: RealmFlows, source: Flow, alias: string, description: string, topLevel: boolean, prefix: string): Flow {
    const steps = source.steps.map((step) => {
      const sub = step.subFlow === undefined ? undefined : state.flows.get(step.subFlow);
      const copied = sub === undefined ? undefined : this.#copy(state, sub, `${prefix} ${sub.alias}`, sub.description, false, prefix);
      return { ...(step.provider === undefined ? {} : { provider: step.provider }), ...(copied === undefined ? {} : { subFlow: copied.id }), requirement: step.requirement };
    });
    const flow = this.#add(state, { alias, description, providerId: source.providerId, topLevel, builtIn: false }, steps);
    flow.steps.forEach((step, index) => { step.priority = source.steps[index]?.priority ?? step.priority; });
    return flow;
  }

  #deepDelete(state: RealmFlows, flow: Flow): void {
    for (const step of flow.steps) this.#deleteStep(state, step);
    state.flows.delete(flow.id);
  }

  #deleteStep(state: RealmFlows, step: Step): void {
    if (step.config !== undefined) state.configs.delete(step.config);
    const sub = step.subFlow === undefined ? undefined : state.flows.get(step.subFlow);
    if (sub !== undefined) this.#deepDelete(state, sub);
  }

  /** What a create, an update and a delete do, one record per type. */
  readonly #types: { readonly [T in FlowResource['type']]: FlowType<ResourceOf<T>> } = {
    authenticationFlow: {
      create: (state, resource, body) => this.#add(state, { alias: resource.alias, description: text(body['description']), providerId: text(body['providerId']) || 'basic-flow', topLevel: true, builtIn: false }, []).id,
      update: (state, resource, body) => { this.#describe(state, resource.alias, body); },
      delete: (state, resource, _resolve, realm) => this.#deleteFlow(state, resource.alias, realm),
    },
    authenticationFlowCopy: {
      create: (state, resource, body) => {
        const source = this.#flow(state, resource.from);
        return this.#copy(state, source, text(body['newName']), source.description, true, text(body['newName'])).id;
      },
      update: (state, resource, body) => { this.#describe(state, resource.alias, body); },
      delete: (state, resource, _resolve, realm) => this.#deleteFlow(state, resource.alias, realm),
    },
    flowExecution: {
      create: (state, resource, body) => {
        const parent = this.#flow(state, resource.flow);
        const priority = typeof body['priority'] === 'number' ? body['priority'] : Math.max(0, ...parent.steps.map((step) => step.priority)) + 1;
        if (!resource.subFlow) {
          const step: Step = { id: this.#id('execution'), provider: text(body['provider']), requirement: 'DISABLED', priority };
          parent.steps.push(step);
          return step.id;
        }
        const sub = this.#add(state, { alias: text(body['alias']), description: text(body['description']), topLevel: false, builtIn: false }, []);
        parent.steps.push({ id: this.#id('execution'), subFlow: sub.id, requirement: 'DISABLED', priority });
        return sub.id;
      },
      update: (state, resource, body, resolve) => {
        const { step } = this.#step(state, resource.id === undefined ? this.#subFlowStep(state, resource.flow, resource.name) : resolve(resource.id));
        step.requirement = text(body['requirement']) || fail(500, 'InternalError', 'an execution update needs a requirement');
        if (typeof body['priority'] === 'number') step.priority = body['priority'];
      },
      delete: (state, resource, resolve) => {
        if (resource.id === undefined) return false;
        const id = resolve(resource.id);
        for (const flow of state.flows.values()) {
          const step = flow.steps.find((candidate) => candidate.id === id);
          if (step === undefined) continue;
          this.#deleteStep(state, step);
          flow.steps = flow.steps.filter((candidate) => candidate !== step);
          return true;
        }
        return false;
      },
    },
    authenticatorConfig: {
      create: (state, resource, body, resolve) => {
        const { step } = this.#step(state, resolve(resource.execution.id));
        const id = this.#id('config');
        state.configs.set(id, { id, alias: text(body['alias']), config: { ...(body['config'] as Record<string, string> | undefined) } });
        step.config = id;
        return id;
      },
      update: (state, resource, body) => {
        const config = state.configs.get(resource.id ?? '') ?? fail(404, 'NotFound', `config ${resource.alias} not found`);
        config.alias = text(body['alias']);
        config.config = { ...(body['config'] as Record<string, string> | undefined) };
      },
      delete: (state, resource) => state.configs.delete(resource.id ?? ''),
    },
    requiredAction: {
      create: (state, _resource, body) => {
        const provider = text(body['providerId']);
        if (!REQUIRED_ACTION_PROVIDERS.includes(provider)) fail(400, 'BadRequest', 'Required Action Provider with given providerId not found');
        if (state.requiredActions.has(provider)) fail(409, 'Conflict', 'A Required Action Provider with given alias already exists.');
        const priority = Math.max(0, ...[...state.requiredActions.values()].map((action) => action.priority ?? 0)) + 1;
        state.requiredActions.set(provider, { alias: provider, name: text(body['name']), providerId: provider, enabled: true, defaultAction: false, priority, config: {} });
        return provider;
      },
      update: (state, resource, body) => {
        if (!state.requiredActions.has(resource.alias)) fail(404, 'NotFound', 'Failed to find required action');
        // Replaced whole, as Keycloak does: what the PUT leaves out is lost.
        state.requiredActions.delete(resource.alias);
        const alias = text(body['alias']);
        if (alias !== '') state.requiredActions.set(alias, { alias, name: text(body['name']), providerId: text(body['providerId']), enabled: body['enabled'] === true, defaultAction: body['defaultAction'] === true, priority: typeof body['priority'] === 'number' ? body['priority'] : 0, config: { ...(body['config'] as Record<string, string> | undefined) } });
      },
      delete: (state, resource) => state.requiredActions.delete(resource.alias),
    },
  };

  /** The record of `resource`'s type. */
  // The table is keyed by type, so the record found is the one for this resource: TypeScript cannot follow that
  // correlation through an index, hence the cast.
  #typeOf<R extends FlowResource>(resource: R): FlowType<R> {
    return this.#types[resource.type] as unknown as FlowType<R>;
  }

  /** A top-level flow's description, which is all a PUT of it changes; a built-in one refuses. */
  #describe(state: RealmFlows, alias: string, body: Rep): void {
    const flow = this.#flow(state, alias);
    if (flow.builtIn) fail(400, 'BadRequest', 'Cannot update a built-in flow');
    flow.description = text(body['description']);
  }

  #deleteFlow(state: RealmFlows, alias: string, realm: string): boolean {
    const flow = this.#byAlias(state, alias);
    if (flow === undefined) return false;
    if (flow.builtIn) fail(400, 'BadRequest', 'Can\'t delete built in flow');
    if (this.#bound(realm).includes(flow.alias)) fail(500, 'InternalError', 'unknown_error');
    this.#deepDelete(state, flow);
    return true;
  }

  create(realm: string, resource: FlowResource, body: Rep, resolve: Resolve): string {
    return this.#typeOf(resource).create(this.#state(realm), resource, body, resolve);
  }

  update(realm: string, resource: FlowResource, body: Rep, resolve: Resolve): void {
    this.#typeOf(resource).update(this.#state(realm), resource, body, resolve);
  }

  #subFlowStep(state: RealmFlows, parent: string, alias: string): string {
    const sub = this.#flow(state, alias);
    const step = this.#flow(state, parent).steps.find((candidate) => candidate.subFlow === sub.id);
    return step?.id ?? fail(404, 'NotFound', `sub-flow ${alias} not found in ${parent}`);
  }

  /** Whether something was deleted. */
  delete(realm: string, resource: FlowResource, resolve: Resolve): boolean {
    const state = this.#realms.get(realm);
    return state === undefined ? false : this.#typeOf(resource).delete(state, resource, resolve, realm);
  }

  requiredActions(realm: string): RequiredActionRepresentation[] {
    return [...this.#state(realm).requiredActions.values()].map((action) => ({ ...action, config: { ...action.config } }));
  }

  /** Changes a flow step out of band, as a person in the admin console would. */
  editStep(realm: string, flow: string, provider: string, change: (step: { requirement: string; priority: number }) => void): void {
    const state = this.#state(realm);
    const step = this.#flow(state, flow).steps.find((candidate) => candidate.provider === provider) ?? fail(404, 'NotFound', `${provider} not in ${flow}`);
    change(step);
  }

  #flat(state: RealmFlows, flow: Flow, level: number): FlowExecutionRepresentation[] {
    const ordered = [...flow.steps].sort((a, b) => a.priority - b.priority);
    return ordered.flatMap((step, index) => {
      const sub = step.subFlow === undefined ? undefined : state.flows.get(step.subFlow);
      const config = step.config === undefined ? undefined : state.configs.get(step.config);
      const execution: FlowExecutionRepresentation = {
        id: step.id,
        level,
        index,
        priority: step.priority,
        requirement: step.requirement,
        ...(sub === undefined ? { providerId: step.provider ?? '', displayName: step.provider ?? '' } : { authenticationFlow: true, flowId: sub.id, displayName: sub.alias, description: sub.description }),
        ...(config === undefined ? {} : { authenticationConfig: config.id, alias: config.alias }),
      };
      return [execution, ...(sub === undefined ? [] : this.#flat(state, sub, level + 1))];
    });
  }

  observe(realm: string, read: FlowsRead): ObservedFlow[] {
    const state = this.#state(realm);
    const wanted = new Map(read.executionsOf.map((entry) => [entry.alias, entry.configs]));
    return [...state.flows.values()].filter((flow) => flow.topLevel).map((flow): ObservedFlow => {
      const rep = { id: flow.id, alias: flow.alias, description: flow.description, providerId: flow.providerId, topLevel: true, builtIn: flow.builtIn };
      const configs = wanted.get(flow.alias);
      if (configs === undefined) return { flow: rep, configs: {} };
      const executions = this.#flat(state, flow, 0);
      const used = configs ? executions.flatMap((execution) => (execution.authenticationConfig === undefined ? [] : [execution.authenticationConfig])) : [];
      const found = used.flatMap((id): [string, AuthenticatorConfigRepresentation][] => {
        const config = state.configs.get(id);
        return config === undefined ? [] : [[id, { id, alias: config.alias, config: { ...config.config } }]];
      });
      return { flow: rep, executions, configs: Object.fromEntries(found) };
    });
  }
}
