// Counts what a fault did to KeystoneApplicationCredentials: credentials nothing names, CRs with more than
// they should hold, Secrets beyond the current and previous one, CRs not Ready.
import { coreTypes, findCondition, type KubeObject } from '@keyward/kernel';
import { CONDITION_READY, appCredType, readStatus, serviceOf, type AppCredStatus } from '@keyward/keystone-appcred';
import { waitFor } from '@keyward/test-env';
import type { FaultEnvironment } from './environment.js';

export interface AppCredAudit {
  readonly crs: number;
  readonly notReady: number;
  /** Live credentials in Keystone that no Secret holds: nothing would ever revoke them. */
  readonly orphanedCredentials: number;
  /** Live credentials beyond those the CR's current and previous Secrets hold. */
  readonly extraCredentials: number;
  /** CRs whose current Secret (status.secretName) is missing. */
  readonly missingCurrentSecret: number;
  /** Secrets of a service beyond its current and previous one. */
  readonly extraSecrets: number;
  /** CRs whose status still names a credential being created. */
  readonly pending: number;
}

export interface AppCredSnapshot {
  readonly statuses: ReadonlyMap<string, AppCredStatus>;
  readonly audit: AppCredAudit;
}

function credentialId(secret: KubeObject): string {
  return Buffer.from((secret['data'] as Record<string, string> | undefined)?.['AC_ID'] ?? '', 'base64').toString();
}

export async function auditAppCreds(fault: FaultEnvironment, namespace: string, names: readonly string[]): Promise<AppCredSnapshot> {
  const secrets = (await fault.kube.listAll(coreTypes.secret, { namespace, labels: { 'application-credentials': 'true' } })).items;
  const live = await fault.liveCredentials();
  const held = new Set(secrets.map(credentialId));
  const statuses = new Map<string, AppCredStatus>();
  let notReady = 0;
  let extraCredentials = 0;
  let missingCurrentSecret = 0;
  let extraSecrets = 0;
  let pending = 0;
  for (const name of names) {
    const object = await fault.kube.get({ type: appCredType, namespace, name });
    const status = readStatus(object?.['status']);
    statuses.set(name, status);
    if (findCondition(status.conditions, CONDITION_READY)?.status !== 'True') notReady++;
    if (status.pendingACName !== undefined) pending++;
    const own = secrets.filter((s) => s.metadata.labels?.['application-credential-service'] === serviceOf(name));
    const kept = own.filter((s) => s.metadata.name === status.secretName || s.metadata.name === status.previousSecretName);
    if (!own.some((s) => s.metadata.name === status.secretName)) missingCurrentSecret++;
    extraSecrets += own.length - kept.length;
    const keptIds = new Set(kept.map(credentialId));
    extraCredentials += live.filter((c) => c.name.startsWith(`${name}-`) && !keptIds.has(c.id)).length;
  }
  return {
    statuses,
    audit: {
      crs: names.length,
      notReady,
      orphanedCredentials: live.filter((c) => !held.has(c.id)).length,
      extraCredentials,
      missingCurrentSecret,
      extraSecrets,
      pending,
    },
  };
}

/** Every CR Ready and pointing at its Secret, with nothing pending and no Secret to clean up. */
export function settled({ audit }: AppCredSnapshot): boolean {
  return audit.notReady === 0 && audit.pending === 0 && audit.extraSecrets === 0 && audit.missingCurrentSecret === 0;
}

/** How many of `names` hold another credential than they did in `before`. */
export function rotatedSince(before: ReadonlyMap<string, AppCredStatus>, snapshot: AppCredSnapshot, names: readonly string[]): number {
  return names.filter((name) => snapshot.statuses.get(name)?.acID !== before.get(name)?.acID).length;
}

export interface SettleOptions {
  readonly namespace: string;
  readonly names: readonly string[];
  /** When the CRs count as settled; `settled` by default. */
  readonly done?: (snapshot: AppCredSnapshot) => boolean;
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
}

/** Audits until `done` holds, or until the timeout: then it returns the last audit, and the targets say what is wrong. */
export async function settle(fault: FaultEnvironment, { namespace, names, done = settled, timeoutMs = 180_000, intervalMs = 1_000 }: SettleOptions): Promise<AppCredSnapshot> {
  let last: AppCredSnapshot | undefined;
  try {
    return await waitFor(async () => {
      last = await auditAppCreds(fault, namespace, names);
      return done(last) ? last : undefined;
    }, { what: 'every CR to settle', timeoutMs, intervalMs });
  } catch {
    return last ?? (await auditAppCreds(fault, namespace, names));
  }
}
