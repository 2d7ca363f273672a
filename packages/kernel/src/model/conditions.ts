import { escapeInvisible } from './text.js';

/** A Kubernetes condition as metav1.Condition defines it. (A type, not an interface, so it is plain JSON data.) */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type Condition = {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
  /** RFC 3339, seconds precision. Changes only when `status` changes. */
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
};

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** What a reconciler says about a condition; the transition time is derived. */
export type DesiredCondition = Omit<Condition, 'lastTransitionTime'>;

/** RFC 3339 with seconds precision, the form metav1.Time serialises to. */
export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

const STATUSES: readonly unknown[] = ['True', 'False', 'Unknown'] satisfies ConditionStatus[];

/**
 * The conditions of a status read from the API server, which may come from another controller or an older
 * schema: entries without a string type, a known status and a transition time are dropped (they are no
 * conditions), a missing reason or message reads as empty, other fields (openstack's `severity`) are kept.
 */
export function readConditions(raw: unknown): Condition[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry: unknown): Condition[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const fields = entry as Record<string, unknown>;
    const { type, status, lastTransitionTime, reason, message } = fields;
    if (typeof type !== 'string' || !STATUSES.includes(status) || typeof lastTransitionTime !== 'string') return [];
    return [{ ...fields, type, status: status as ConditionStatus, lastTransitionTime, reason: typeof reason === 'string' ? reason : '', message: typeof message === 'string' ? message : '' }];
  });
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

/**
 * Sets one condition with metav1 semantics: `lastTransitionTime` is kept unless the status flips (a new
 * condition gets `now`); reason, message and observedGeneration are always updated. Order is kept; a new
 * type is appended. Every condition any controller writes passes here, so this is where text that came from
 * users or servers (names, spec values, error messages) has its controls and bidi characters escaped.
 */
export function setCondition(conditions: readonly Condition[] | undefined, desired: DesiredCondition, now: Date): Condition[] {
  const current = conditions ?? [];
  const existing = findCondition(current, desired.type);
  const lastTransitionTime = existing?.status === desired.status ? existing.lastTransitionTime : formatTime(now);
  const next: Condition = { ...desired, reason: escapeInvisible(desired.reason), message: escapeInvisible(desired.message), lastTransitionTime };
  return existing === undefined ? [...current, next] : current.map((c) => (c.type === desired.type ? next : c));
}

/** Applies several desired conditions in order. */
export function setConditions(conditions: readonly Condition[] | undefined, desired: readonly DesiredCondition[], now: Date): Condition[] {
  return desired.reduce<Condition[]>((acc, d) => setCondition(acc, d, now), [...(conditions ?? [])]);
}

const SEVERITY: Record<ConditionStatus, number> = { False: 2, Unknown: 1, True: 0 };

/**
 * A summary condition (typically Ready) that reflects the worst of `parts`: False beats Unknown beats True;
 * among equals the first listed wins, so list parts in the order a reader should look at them. The summary
 * takes the worst part's reason and message; when all are True it takes `whenTrue`.
 */
export function summaryCondition(
  type: string,
  parts: readonly DesiredCondition[],
  whenTrue: { reason: string; message: string },
  observedGeneration?: number,
): DesiredCondition {
  const worst = parts.reduce<DesiredCondition | undefined>(
    (acc, part) => (acc === undefined || SEVERITY[part.status] > SEVERITY[acc.status] ? part : acc),
    undefined,
  );
  const generation = observedGeneration === undefined ? {} : { observedGeneration };
  if (worst === undefined || worst.status === 'True') return { type, status: 'True', ...whenTrue, ...generation };
  return { type, status: worst.status, reason: worst.reason, message: worst.message, ...generation };
}
