/**
 * The OpenStack release an image tag starts with, as C5C3 reads tags: "2025.1" of "2025.1", "2025.1.2" or
 * "2025.1-trixie". Undefined for a tag that does not start with one ("latest", a digest-like tag).
 */
export function releaseOfTag(tag: string): string | undefined {
  return /^(\d{4}\.\d)(?=$|[._-])/.exec(tag)?.[1];
}

/** Orders two releases ("2024.2" before "2025.1"): negative, zero or positive. */
export function compareReleases(a: string, b: string): number {
  const [yearA = 0, cycleA = 0] = a.split('.').map(Number);
  const [yearB = 0, cycleB = 0] = b.split('.').map(Number);
  return yearA - yearB || cycleA - cycleB;
}
