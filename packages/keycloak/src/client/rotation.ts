import { formatTime, parseDuration } from '@keyward/kernel/model';
import { regenerateTokenOf, type KeycloakClient } from './spec.js';
import { DEFAULT_TIMEZONE, nextTimeOfDay } from './rotation-time.js';

/** What to do about a confidential client's secret now, and what status then says about it. */
export interface SecretRenewal {
  /** Why the secret is regenerated now; empty when it is not. */
  readonly reasons: readonly string[];
  readonly lastSecretRotation: string | undefined;
  readonly secretRegeneratedFor: string | undefined;
  /** When the next scheduled rotation is due, from now; undefined without rotation. */
  readonly requeueAfterMs: number | undefined;
}

function parseTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * regenerateSecret is edge-triggered: a token different from the one status records regenerates once (the
 * old operator's `true` is the token "true", so it fires once too). Rotation regenerates when
 * lastSecretRotation + rotationPeriod is reached (then at the next rotationTime in its timezone, when given); until then the client is requeued for exactly that time.
 * A client with no recorded rotation (adopted, or migrated from the old operator) starts its period now
 * rather than rotating at once; any regeneration starts a new period.
 */
export function secretRenewal(client: KeycloakClient, now: Date): SecretRenewal {
  const { spec, status } = client;
  const token = regenerateTokenOf(spec);
  const reasons = token !== undefined && token !== status.secretRegeneratedFor ? [`regenerateSecret changed to ${JSON.stringify(token)}`] : [];
  const period = spec.secretRotation?.enabled === true ? parseDuration(spec.secretRotation.rotationPeriod) : undefined;
  const last = parseTime(status.lastSecretRotation);
  if (period !== undefined && last !== undefined && rotationDue(client, last + period) <= now.getTime()) {
    reasons.push(`the rotation period ${spec.secretRotation?.rotationPeriod ?? ''} since ${formatTime(new Date(last))} has passed`);
  }
  const regenerate = reasons.length > 0;
  const periodStart = regenerate || (period !== undefined && last === undefined) ? now.getTime() : last;
  return {
    reasons,
    lastSecretRotation: periodStart === undefined ? undefined : formatTime(new Date(periodStart)),
    secretRegeneratedFor: token ?? status.secretRegeneratedFor,
    requeueAfterMs: period === undefined || periodStart === undefined ? undefined : rotationDue(client, periodStart + period) - now.getTime(),
  };
}

/** When a rotation whose period ends at `periodEnd` is due: then, or at the next `rotationTime` in its zone. */
function rotationDue(client: KeycloakClient, periodEnd: number): number {
  const rotation = client.spec.secretRotation;
  return rotation?.rotationTime === undefined ? periodEnd : nextTimeOfDay(periodEnd, rotation.rotationTime, rotation.timezone ?? DEFAULT_TIMEZONE);
}

/** What status says about the secret of a client just created: its secret is new, so nothing is due. */
export function renewalOnCreation(client: KeycloakClient, now: Date): SecretRenewal {
  const period = client.spec.secretRotation?.enabled === true ? parseDuration(client.spec.secretRotation.rotationPeriod) : undefined;
  return { reasons: [], lastSecretRotation: formatTime(now), secretRegeneratedFor: regenerateTokenOf(client.spec), requeueAfterMs: period === undefined ? undefined : rotationDue(client, now.getTime() + period) - now.getTime() };
}
