// Request counts keyed by a description of the request ("PATCH widgets/status", "create secrets 201").

export type Counts = Readonly<Record<string, number>>;

/** What changed between two readings of the same counters. */
export function difference(after: Counts, before: Counts): Counts {
  const changed: Record<string, number> = {};
  for (const [key, n] of Object.entries(after)) if (n !== (before[key] ?? 0)) changed[key] = n - (before[key] ?? 0);
  return changed;
}

/** The sum of the counts whose key starts with one of `verbs` (the first word of the key). */
export function sumOfVerbs(counts: Counts, verbs: ReadonlySet<string>): number {
  return Object.entries(counts).reduce((sum, [key, n]) => (verbs.has(key.split(' ')[0] ?? '') ? sum + n : sum), 0);
}

export function total(counts: Counts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}
