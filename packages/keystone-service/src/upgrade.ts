import { compareReleases, releaseOfTag } from './release.js';
import type { KeystoneStatus } from './spec.js';
import type { JobOutcome } from './jobs.js';
import type { StepReport } from './status.js';

// An upgrade from one OpenStack release to a newer one, without downtime: expand the schema (which the running
// release still works with), migrate the data, roll the pods onto the new image, then contract the schema once
// no pod of the old release is left. Each step is a Job of the new image.

export const UPGRADE_PHASES = ['Expanding', 'Migrating', 'RollingUpdate', 'Contracting'] as const;
export type UpgradePhase = (typeof UPGRADE_PHASES)[number];

/** The Jobs of the upgrade, each `keystone-manage db_sync --<step>`. */
export const UPGRADE_STEPS = ['expand', 'migrate', 'contract'] as const;
export type UpgradeStep = (typeof UPGRADE_STEPS)[number];

export const isUpgradePhase = (value: unknown): value is UpgradePhase => (UPGRADE_PHASES as readonly unknown[]).includes(value);

/**
 * Where a Keystone stands against its image's release:
 * - steady: no release is recorded yet, or the image is of the installed release (db_sync as usual);
 * - upgrading: from the installed release to the image's, in a phase;
 * - held: the image cannot be run against the installed schema (older, of no release, or a third release
 *   while an upgrade is under way): nothing is migrated or rolled until the tag changes.
 */
export type UpgradeState =
  | { readonly kind: 'steady' }
  | { readonly kind: 'upgrading'; readonly from: string; readonly to: string; readonly phase: UpgradePhase }
  | { readonly kind: 'held'; readonly report: StepReport };

const held = (reason: string, message: string): UpgradeState => ({ kind: 'held', report: { status: 'False', reason, message } });

/** Reads the state from the image tag and what the status records of the installed release and an upgrade. */
export function upgradeState(tag: string, status: Pick<KeystoneStatus, 'installedRelease' | 'targetRelease' | 'upgradePhase'>): UpgradeState {
  const installed = status.installedRelease;
  if (installed === undefined) return { kind: 'steady' };
  const wanted = releaseOfTag(tag);
  const target = status.targetRelease;
  if (target !== undefined) {
    const phase = status.upgradePhase ?? 'Expanding';
    if (wanted === target) return { kind: 'upgrading', from: installed, to: target, phase };
    if (wanted === installed && phase !== 'Contracting') return { kind: 'steady' };
    if (wanted === installed) {
      return held('UpgradeCannotBeUndone', `the upgrade from ${installed} to ${target} is contracting the schema, which ${installed}'s pods cannot run on: set the image tag back to a ${target} image`);
    }
    return held('UpgradeTargetChanged', `the upgrade from ${installed} to ${target} is in phase ${phase}, and the image tag "${tag}" names ${wanted ?? 'no release'}: set it back to a ${target} image to finish the upgrade${phase === 'RollingUpdate' || phase === 'Contracting' ? '' : `, or to a ${installed} image to call it off`}`);
  }
  if (wanted === undefined) {
    return held('ReleaseUnknown', `the image tag "${tag}" does not start with an OpenStack release (such as 2025.1), and the database is at ${installed}: give a tag that starts with its release`);
  }
  const order = compareReleases(wanted, installed);
  if (order < 0) return held('DowngradeRefused', `the image is of release ${wanted}, older than the installed ${installed}: Keystone's schema does not migrate back`);
  return order === 0 ? { kind: 'steady' } : { kind: 'upgrading', from: installed, to: wanted, phase: 'Expanding' };
}

type UpgradeRecord = Pick<KeystoneStatus, 'targetRelease' | 'upgradePhase'>;

/** The status fields that record an upgrade for the next status write: a held upgrade keeps its record. */
export function upgradeFields(state: UpgradeState, status: UpgradeRecord, phase?: UpgradePhase): UpgradeRecord {
  if (state.kind === 'upgrading') return { targetRelease: state.to, upgradePhase: phase ?? state.phase };
  const { targetRelease, upgradePhase } = status;
  return state.kind === 'held' && targetRelease !== undefined ? { targetRelease, ...(upgradePhase === undefined ? {} : { upgradePhase }) } : {};
}

type Upgrading = Extract<UpgradeState, { kind: 'upgrading' }>;

/** A step's report, said of the upgrade. */
export function upgradeReport(upgrade: Upgrading, report: StepReport): StepReport {
  return { ...report, message: `upgrading from ${upgrade.from} to ${upgrade.to}: ${report.message}` };
}

/**
 * The upgrade up to the rollout: expand, then migrate, each a Job run to completion (`run` reconciles one),
 * going on to the next in the same reconcile. Returns the phase reached and what the database step says.
 */
export function upgradeBeforeRollout(upgrade: Upgrading, run: (step: Exclude<UpgradeStep, 'contract'>) => JobOutcome): { phase: UpgradePhase; report: StepReport } {
  const rolling = { phase: upgrade.phase === 'Contracting' ? upgrade.phase : ('RollingUpdate' as const), report: upgradeReport(upgrade, { status: 'False', reason: 'Upgrading', message: `the schema is expanded and migrated; the pods move to ${upgrade.to}, then the schema is contracted` }) };
  if (upgrade.phase === 'RollingUpdate' || upgrade.phase === 'Contracting') return rolling;
  if (upgrade.phase === 'Expanding') {
    const expand = run('expand');
    if (!expand.done) return { phase: 'Expanding', report: upgradeReport(upgrade, expand.report) };
  }
  const migrate = run('migrate');
  return migrate.done ? rolling : { phase: 'Migrating', report: upgradeReport(upgrade, migrate.report) };
}
