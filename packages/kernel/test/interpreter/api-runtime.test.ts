import { describe, expect, it } from '@jest/globals';
import type { Returns } from '../../src/plan/actions.js';
import { defineApi } from '../../src/plan/api.js';
import { PlanBuilder, type Plan } from '../../src/plan/plan.js';
import { apiSet, defineApiRuntime, type ApiRuntime } from '../../src/interpreter/api-runtime.js';
import { AvailabilityListeners, type AvailabilityChange } from '../../src/interpreter/availability.js';
import { interpret } from '../../src/interpreter/interpret.js';
import type { QueryScope } from '../../src/interpreter/types.js';

// Two small API modules of this test's own, each with one action and one query, recording what they are asked.

interface BellAction {
  readonly kind: 'bell.ring';
  readonly times: number;
}
interface BellQuery extends Returns<number> {
  readonly kind: 'bell.rung';
}
interface LampAction {
  readonly kind: 'lamp.switch';
  readonly on: boolean;
}
interface LampQuery extends Returns<boolean> {
  readonly kind: 'lamp.lit';
}

const bellApi = defineApi<BellAction, BellQuery>({
  name: 'bell',
  actions: { 'bell.ring': { describe: (a) => `ring the bell ${String(a.times)} times` } },
  queries: { 'bell.rung': { describe: () => 'count the rings' } },
});
const lampApi = defineApi<LampAction, LampQuery>({
  name: 'lamp',
  actions: { 'lamp.switch': { describe: (a) => `switch the lamp ${a.on ? 'on' : 'off'}` } },
  queries: { 'lamp.lit': { describe: () => 'look at the lamp' } },
});

interface Recorder {
  readonly log: string[];
  readonly scopes: QueryScope[];
  readonly changes: AvailabilityListeners;
  closed: number;
}

function recorder(): Recorder {
  return { log: [], scopes: [], changes: new AvailabilityListeners(), closed: 0 };
}

function bellRuntime(record: Recorder): ApiRuntime<BellAction, BellQuery> {
  let rung = 0;
  return defineApiRuntime({
    api: bellApi,
    handlers: {
      'bell.ring': (action) => {
        rung += action.times;
        record.log.push(`ring ${String(action.times)}`);
        return Promise.resolve({ outcome: 'applied', outputs: {} });
      },
    },
    queries: (scope) => {
      record.scopes.push(scope);
      return { 'bell.rung': () => rung };
    },
    availability: record.changes,
    close: () => { record.closed += 1; },
  });
}

function lampRuntime(record: Recorder): ApiRuntime<LampAction, LampQuery> {
  let lit = false;
  return defineApiRuntime({
    api: lampApi,
    handlers: {
      'lamp.switch': (action) => {
        const outcome = lit === action.on ? 'unchanged' : 'applied';
        lit = action.on;
        record.log.push(`switch ${action.on ? 'on' : 'off'}`);
        return Promise.resolve({ outcome, outputs: {} });
      },
    },
    queries: (scope) => {
      record.scopes.push(scope);
      return { 'lamp.lit': () => Promise.resolve(lit) };
    },
    availability: record.changes,
    close: () => { record.closed += 1; },
  });
}

const scope: QueryScope = { caches: [] };

function change(api: string, available: boolean): AvailabilityChange {
  return { api, endpoint: `http://${api}.test`, available, since: 0, cause: 'test' };
}

describe('apiSet', () => {
  it('runs each action with the handler of its own module, and describes it with that module\'s words', async () => {
    const bell = recorder();
    const lamp = recorder();
    const apis = apiSet(bellRuntime(bell), lampRuntime(lamp));
    const plan = new PlanBuilder<BellAction | LampAction>();
    plan.add({ kind: 'lamp.switch', on: true }, 'light');
    plan.add({ kind: 'bell.ring', times: 2 }, 'call');
    const result = await interpret(plan.build(), apis);

    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => [s.summary, s.outcome])).toEqual([['switch the lamp on', 'applied'], ['ring the bell 2 times', 'applied']]);
    expect({ bell: bell.log, lamp: lamp.log }).toEqual({ bell: ['ring 2'], lamp: ['switch on'] });
    expect(apis.vocabulary.apis).toEqual(['bell', 'lamp']);
  });

  it('answers each query with the answer of its own module, each given the controller\'s scope', async () => {
    const bell = recorder();
    const lamp = recorder();
    const apis = apiSet(bellRuntime(bell), lampRuntime(lamp));
    const ring = new PlanBuilder<BellAction>();
    ring.add({ kind: 'bell.ring', times: 3 }, 'call');
    await interpret(ring.build(), apis);
    const answers = apis.queries(scope);

    expect(await answers['bell.rung']({ kind: 'bell.rung' })).toBe(3);
    expect(await answers['lamp.lit']({ kind: 'lamp.lit' })).toBe(false);
    expect(bell.scopes).toEqual([scope]);
    expect(lamp.scopes).toEqual([scope]);
  });

  it('refuses two modules that define the same action kind', () => {
    const impostor = defineApiRuntime({
      api: defineApi<BellAction>({ name: 'impostor', actions: { 'bell.ring': { describe: () => 'ring' } }, queries: {} }),
      handlers: { 'bell.ring': () => Promise.resolve({ outcome: 'unchanged', outputs: {} }) },
      queries: () => ({}),
    });
    expect(() => apiSet(bellRuntime(recorder()), impostor)).toThrow('APIs bell and impostor both define the kind bell.ring');
  });

  it('refuses two modules that define the same query kind', () => {
    const impostor = defineApiRuntime({
      api: defineApi<never, LampQuery>({ name: 'impostor', actions: {}, queries: { 'lamp.lit': { describe: () => 'peek' } } }),
      handlers: {},
      queries: () => ({ 'lamp.lit': () => true }),
    });
    expect(() => apiSet(lampRuntime(recorder()), impostor)).toThrow('APIs lamp and impostor both define the kind lamp.lit');
  });

  it('refuses one module given twice, whose handlers would otherwise silently replace each other', () => {
    expect(() => apiSet(bellRuntime(recorder()), bellRuntime(recorder()))).toThrow('two API modules both handle bell.ring');
  });

  it('forwards every module\'s availability changes to each subscriber, until it unsubscribes', () => {
    const bell = recorder();
    const lamp = recorder();
    const apis = apiSet(bellRuntime(bell), lampRuntime(lamp));
    const seen: string[] = [];
    const stop = apis.availability.subscribe(({ api, available }) => { seen.push(`${api} ${available ? 'up' : 'down'}`); });

    bell.changes.emit(change('bell', false));
    lamp.changes.emit(change('lamp', false));
    bell.changes.emit(change('bell', true));
    stop();
    lamp.changes.emit(change('lamp', true));

    expect(seen).toEqual(['bell down', 'lamp down', 'bell up']);
  });

  it('closes each module once, and accepts modules with nothing to close or watch', () => {
    const bell = recorder();
    const lamp = recorder();
    const quiet = defineApiRuntime({
      api: defineApi<{ readonly kind: 'quiet.noop' }>({ name: 'quiet', actions: { 'quiet.noop': { describe: () => 'nothing' } }, queries: {} }),
      handlers: { 'quiet.noop': () => Promise.resolve({ outcome: 'unchanged', outputs: {} }) },
      queries: () => ({}),
    });
    apiSet(bellRuntime(bell), quiet, lampRuntime(lamp)).close();
    expect([bell.closed, lamp.closed]).toEqual([1, 1]);
  });
});

describe('interpret with an API set', () => {
  it('fails a step whose kind no module handles (a plan read from elsewhere) as an InvalidPlan, and stops there', async () => {
    const bell = recorder();
    const apis = apiSet(bellRuntime(bell));
    // Cast: the types rule this plan out; one decoded from a file or made by another version is not checked.
    const plan = {
      steps: [
        { id: 's1', action: { kind: 'bell.ring', times: 1 }, reason: 'call', compensation: { action: { kind: 'bell.ring', times: 10 }, reason: 'undo' } },
        { id: 's2', action: { kind: 'siren.wail' }, reason: 'from elsewhere' },
        { id: 's3', action: { kind: 'bell.ring', times: 2 }, reason: 'call again' },
      ],
    } as Plan as Plan<BellAction>;
    const result = await interpret(plan, apis);

    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => [s.summary, s.outcome])).toEqual([['ring the bell 1 times', 'applied'], ['siren.wail', 'failed'], ['ring the bell 2 times', 'skipped']]);
    expect(result.error).toEqual({ api: 'keyward', code: 0, reason: 'InvalidPlan', message: 'no handler for siren.wail', retryable: false });
    // What was applied is undone, as after any failed step.
    expect(bell.log).toEqual(['ring 1', 'ring 10']);
  });
});
