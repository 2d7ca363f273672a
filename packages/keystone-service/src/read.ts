import { findCondition, type KubeObject } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';

// Reading other objects field by field: they come from the API server and other writers, never trusted to
// have the shape we wrote.

export function field(object: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), object);
}

export function numberAt(object: unknown, ...path: string[]): number {
  const value = field(object, ...path);
  return typeof value === 'number' ? value : 0;
}

/** A Secret's or ConfigMap's entries as text (Secret data decoded from base64). */
export function entries(object: KubeObject | undefined): Record<string, string> {
  if (object === undefined) return {};
  const isSecret = object.kind === 'Secret';
  const data = field(object, 'data');
  if (typeof data !== 'object' || data === null) return {};
  return Object.fromEntries(
    Object.entries(data as Record<string, unknown>)
      .filter((e): e is [string, string] => typeof e[1] === 'string')
      .map(([key, value]) => [key, isSecret ? Buffer.from(value, 'base64').toString('utf8') : value]),
  );
}

/** Whether an object's status has condition `type` True. */
export function conditionTrue(object: KubeObject | undefined, type: string): boolean {
  return findCondition(readConditions(field(object, 'status', 'conditions')), type)?.status === 'True';
}

export function annotation(object: KubeObject | undefined, key: string): string | undefined {
  return object?.metadata.annotations?.[key];
}
