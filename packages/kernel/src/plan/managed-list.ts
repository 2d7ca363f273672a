// One planner for every list a reconciler keeps in step with a spec where others may add to the same list:
// listed items are created or brought to the spec, unlisted ones are deleted only when they are ours, and
// what the backend makes by itself (built-ins) is never touched.

/** A list as a spec states it and a backend holds it, and the rules for bringing one to the other. */
export interface ManagedList<D, O, S> {
  /** The spec's items, in its order; keys are unique. */
  readonly desired: readonly D[];
  /** What the backend holds; keys are unique. */
  readonly observed: readonly O[];
  /** How a desired and an observed item are matched. */
  readonly desiredKey: (item: D) => string;
  readonly observedKey: (item: O) => string;
  /** The fields in which `observed` differs from `desired`; none when it is as the spec wants it. */
  readonly changes: (desired: D, observed: O) => readonly string[];
  /** Whether an observed item was made from a spec (carries the marker, or is recorded): only those are deleted. */
  readonly ours: (item: O) => boolean;
  /** Keys of what the backend makes by itself: never created, updated or deleted. */
  readonly builtIn?: (key: string) => boolean;
  /** Whether unlisted items of ours are deleted when the list is empty (a list that names some always deletes them). */
  readonly pruneWhenEmpty: boolean;
  /** How each step is described: the caller's step type. */
  readonly describe: {
    readonly create: (desired: D) => S;
    readonly update: (desired: D, observed: O, changed: readonly string[]) => S;
    readonly delete: (observed: O) => S;
  };
}

/** One desired item: what is observed of it, and its create or update step (none when there is nothing to do). */
export interface ListedItem<D, O, S> {
  readonly desired: D;
  readonly observed: O | undefined;
  readonly step: S | undefined;
}

/** An unlisted item of ours, and the step that deletes it. */
export interface DeletedItem<O, S> {
  readonly observed: O;
  readonly step: S;
}

export interface ManagedListPlan<D, O, S> {
  /** Every desired item, in the spec's order. */
  readonly listed: readonly ListedItem<D, O, S>[];
  /** The unlisted items of ours, in the backend's order. */
  readonly deletes: readonly DeletedItem<O, S>[];
}

/** Whether a list removes the unlisted items of ours: it names some, or pruning is asked for when empty. */
const prunesList = (desired: readonly unknown[], pruneWhenEmpty: boolean): boolean => desired.length > 0 || pruneWhenEmpty;

/** The create, update and delete steps that bring `list.observed` to `list.desired`. */
export function planManagedList<D, O, S>(list: ManagedList<D, O, S>): ManagedListPlan<D, O, S> {
  const builtIn = list.builtIn ?? (() => false);
  const byKey = new Map(list.observed.map((item) => [list.observedKey(item), item]));
  const listed = list.desired.map((desired): ListedItem<D, O, S> => {
    const key = list.desiredKey(desired);
    const observed = byKey.get(key);
    if (builtIn(key)) return { desired, observed, step: undefined };
    if (observed === undefined) return { desired, observed, step: list.describe.create(desired) };
    const changed = list.changes(desired, observed);
    return { desired, observed, step: changed.length === 0 ? undefined : list.describe.update(desired, observed, changed) };
  });
  if (!prunesList(list.desired, list.pruneWhenEmpty)) return { listed, deletes: [] };
  const keys = new Set(list.desired.map(list.desiredKey));
  const doomed = list.observed.filter((item) => !keys.has(list.observedKey(item)) && !builtIn(list.observedKey(item)) && list.ours(item));
  return { listed, deletes: doomed.map((observed) => ({ observed, step: list.describe.delete(observed) })) };
}

/** The steps of a plan in the usual order: creates and updates in the spec's order, then deletions. */
export function managedListSteps<S>(plan: ManagedListPlan<unknown, unknown, S>): S[] {
  return [...plan.listed.flatMap((item) => (item.step === undefined ? [] : [item.step])), ...plan.deletes.map((item) => item.step)];
}
