import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { managedListSteps, planManagedList, type ManagedList } from '../../src/plan/managed-list.js';

// A backend's list in miniature: items by key with a value, and whether they carry our marker. Keys that
// start with "builtin-" are the backend's own.

interface Wanted {
  readonly key: string;
  readonly value: number;
}
interface Held extends Wanted {
  readonly ours: boolean;
}
type Step =
  | { readonly op: 'create'; readonly key: string; readonly value: number }
  | { readonly op: 'update'; readonly key: string; readonly value: number; readonly changed: readonly string[] }
  | { readonly op: 'delete'; readonly key: string };

const isBuiltIn = (key: string): boolean => key.startsWith('builtin-');

function list(desired: readonly Wanted[], observed: readonly Held[], pruneWhenEmpty: boolean): ManagedList<Wanted, Held, Step> {
  return {
    desired,
    observed,
    desiredKey: (item) => item.key,
    observedKey: (item) => item.key,
    // An update sets the marker too, as the spec's representation carries it.
    changes: (wanted, held) => [...(wanted.value === held.value ? [] : ['value']), ...(held.ours ? [] : ['marker'])],
    ours: (item) => item.ours,
    builtIn: isBuiltIn,
    pruneWhenEmpty,
    describe: {
      create: (wanted) => ({ op: 'create', key: wanted.key, value: wanted.value }),
      update: (wanted, _held, changed) => ({ op: 'update', key: wanted.key, value: wanted.value, changed }),
      delete: (held) => ({ op: 'delete', key: held.key }),
    },
  };
}

/** What the backend holds once the steps ran. */
function apply(observed: readonly Held[], steps: readonly Step[]): Held[] {
  const held = new Map(observed.map((item) => [item.key, item]));
  for (const step of steps) {
    if (step.op === 'delete') {
      if (!held.has(step.key)) throw new Error(`deleted ${step.key}, which is not there`);
      held.delete(step.key);
    } else {
      if ((step.op === 'create') === held.has(step.key)) throw new Error(`${step.op} of ${step.key} does not match what is there`);
      held.set(step.key, { key: step.key, value: step.value, ours: true });
    }
  }
  return [...held.values()];
}

const byKey = (items: readonly Held[]): Held[] => [...items].sort((a, b) => a.key.localeCompare(b.key));

const key: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), fc.constantFrom('builtin-x', 'builtin-y'));
const observedList = fc.uniqueArray(fc.record({ key, value: fc.integer({ min: 0, max: 3 }), ours: fc.boolean() }), { selector: (item) => item.key, maxLength: 8 });
// A spec may not name a built-in (its schema refuses them).
const desiredList = fc.uniqueArray(fc.record({ key: key.filter((name) => !isBuiltIn(name)), value: fc.integer({ min: 0, max: 3 }) }), { selector: (item) => item.key, maxLength: 6 });

describe('planManagedList', () => {
  it('brings any list to the spec: the desired items, plus what is not ours, plus the built-ins as they were', () => {
    fc.assert(fc.property(desiredList, observedList, fc.boolean(), (desired, observed, pruneWhenEmpty) => {
      const result = apply(observed, managedListSteps(planManagedList(list(desired, observed, pruneWhenEmpty))));
      const prunes = desired.length > 0 || pruneWhenEmpty;
      const listed = new Set(desired.map((item) => item.key));
      const kept = observed.filter((item) => !listed.has(item.key) && (isBuiltIn(item.key) || !item.ours || !prunes));
      expect(byKey(result)).toEqual(byKey([...desired.map((item) => ({ ...item, ours: true })), ...kept]));
    }));
  });

  it('never touches a built-in and never deletes what is not ours', () => {
    fc.assert(fc.property(desiredList, observedList, fc.boolean(), (desired, observed, pruneWhenEmpty) => {
      const steps = managedListSteps(planManagedList(list(desired, observed, pruneWhenEmpty)));
      const notOurs = new Set(observed.filter((item) => !item.ours).map((item) => item.key));
      expect(steps.filter((step) => isBuiltIn(step.key))).toEqual([]);
      expect(steps.filter((step) => step.op === 'delete' && notOurs.has(step.key))).toEqual([]);
    }));
  });

  it('plans nothing over the list its own steps made', () => {
    fc.assert(fc.property(desiredList, observedList, fc.boolean(), (desired, observed, pruneWhenEmpty) => {
      const result = apply(observed, managedListSteps(planManagedList(list(desired, observed, pruneWhenEmpty))));
      expect(managedListSteps(planManagedList(list(desired, result, pruneWhenEmpty)))).toEqual([]);
    }));
  });

  it('lists creates and updates in the spec order with what was observed of each, then deletions in the backend order', () => {
    const observed: Held[] = [
      { key: 'd', value: 1, ours: true },
      { key: 'b', value: 1, ours: true },
      { key: 'c', value: 2, ours: false },
      { key: 'a', value: 1, ours: true },
    ];
    const plan = planManagedList(list([{ key: 'c', value: 2 }, { key: 'e', value: 1 }, { key: 'b', value: 1 }], observed, false));
    expect(plan.listed).toEqual([
      { desired: { key: 'c', value: 2 }, observed: observed[2], step: { op: 'update', key: 'c', value: 2, changed: ['marker'] } },
      { desired: { key: 'e', value: 1 }, observed: undefined, step: { op: 'create', key: 'e', value: 1 } },
      { desired: { key: 'b', value: 1 }, observed: observed[1], step: undefined },
    ]);
    expect(plan.deletes).toEqual([{ observed: observed[0], step: { op: 'delete', key: 'd' } }, { observed: observed[3], step: { op: 'delete', key: 'a' } }]);
  });

  it('deletes nothing for an empty list unless asked to', () => {
    const observed: Held[] = [{ key: 'a', value: 1, ours: true }];
    expect(managedListSteps(planManagedList(list([], observed, false)))).toEqual([]);
    expect(managedListSteps(planManagedList(list([], observed, true)))).toEqual([{ op: 'delete', key: 'a' }]);
  });
});
