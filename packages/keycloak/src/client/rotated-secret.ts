import { formatTime, parseDuration } from '@keyward/kernel/model';

/**
 * Client attributes of Keycloak's client-secret rotation (a client policy with the secret-rotation executor):
 * the secret rotated out, still valid, and when it was rotated out (epoch seconds). Reads strip the first.
 */
export const ROTATED_SECRET_ATTRIBUTE = 'client.secret.rotated';
export const ROTATED_SECRET_CREATED_ATTRIBUTE = 'client.secret.rotated.creation.time';

/** How long a rotated secret stays valid for consumers to pick up the new one, unless the spec says. */
export const DEFAULT_GRACE_PERIOD = '1h';

/** What to do about the rotated secret now: nothing, invalidate it, or look again when its grace period ends. */
export type RotatedSecretStep =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalidate'; readonly reason: string }
  | { readonly kind: 'wait'; readonly afterMs: number };

/**
 * Where Keycloak keeps the secret a regeneration replaced valid beside the new one, the rotated secret is
 * invalidated once `gracePeriod` has passed since it was rotated out: time for consumers to read the new one
 * from the credentials Secret. Without client-secret rotation Keycloak keeps none, and there is nothing to do.
 */
export function rotatedSecretStep(attributes: Readonly<Record<string, string>> | undefined, gracePeriod: string | undefined, now: Date): RotatedSecretStep {
  const created = Number(attributes?.[ROTATED_SECRET_CREATED_ATTRIBUTE]);
  if (!Number.isFinite(created) || created <= 0) return { kind: 'none' };
  const grace = gracePeriod ?? DEFAULT_GRACE_PERIOD;
  const due = created * 1000 + (parseDuration(grace) ?? 0);
  if (due > now.getTime()) return { kind: 'wait', afterMs: due - now.getTime() };
  return { kind: 'invalidate', reason: `the grace period ${grace} of the secret rotated out at ${formatTime(new Date(created * 1000))} has passed` };
}
