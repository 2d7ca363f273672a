// Three keyward processes share the APIKeys out by shard Leases against the real API server; one is killed with
// SIGKILL, its objects move to the other two, a change made meanwhile converges once, and the API server's
// audit log shows that no object was written by two replicas in overlapping intervals.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, createTestNamespace, rememberSecret, settledAuditEventsOf, waitFor, WRITE_VERBS, type AuditEvent } from '@keyward/test-env';
import { coreTypes, type KubeObject } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { shardLeaseName } from '@keyward/runtime/controller';
import { apiKeyType, enforcementSecretName } from '@keyward/apikey-enforcement';
import { deployedIdentity, type DeployedIdentity } from './deployed-identity.js';
import { exited, startKeyward, stopKeyward, type OperatorProcess } from './operator-process.js';

const API_KEY = `key-${randomBytes(12).toString('hex')}`;
const NAMES = Array.from({ length: 24 }, (_, i) => `key-${String(i)}`);
/** Short Lease timings, so the kill hands over in seconds; the order of what happens is asserted, never its timing. */
const LEASE_SECONDS = 4;
const TIMING = ['--lease-duration', `${String(LEASE_SECONDS)}s`, '--renew-deadline', '3s', '--retry-period', '1s'];

interface Replica {
  readonly identity: DeployedIdentity;
  readonly process: OperatorProcess;
}

/** An audit event with the times the API server records (RFC 3339 with microseconds). */
interface TimedAuditEvent extends AuditEvent {
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

let kube: KubeClient;
let namespace: string;
let enforcement: string;
const replicas: Replica[] = [];

/** The last "shard members changed" line a replica logged: how many members it sees and whether it reconciles. */
function lastMembership(replica: Replica): { members: number; reconciling: boolean; identity: string | undefined } | undefined {
  const lines = replica.process.output().split('\n').filter((line) => line.includes('"shard members changed"'));
  const last = lines.at(-1);
  if (last === undefined) return undefined;
  const parsed = JSON.parse(last) as { members: number; reconciling: boolean; identities: string[] };
  return { members: parsed.members, reconciling: parsed.reconciling, identity: identityOf(replica) };
}

/** The identity a replica logged at its start. */
function identityOf(replica: Replica): string | undefined {
  const start = replica.process.output().split('\n').find((line) => line.includes('"msg":"starting"'));
  return start === undefined ? undefined : (JSON.parse(start) as { identity?: string }).identity;
}

async function allSee(members: number, among: readonly Replica[]): Promise<void> {
  await waitFor(() => Promise.resolve(among.every((replica) => {
    const membership = lastMembership(replica);
    return membership?.members === members && membership.reconciling;
  }) ? true : undefined), { what: `${String(among.length)} replicas to see ${String(members)} members and reconcile`, timeoutMs: 90_000, intervalMs: 250 });
}

function enforcementRef(name: string): { type: typeof coreTypes.secret; namespace: string; name: string } {
  return { type: coreTypes.secret, namespace: enforcement, name: enforcementSecretName(namespace, name) };
}

async function exists(name: string): Promise<boolean> {
  return (await kube.get(enforcementRef(name))) !== undefined;
}

/** Every write the replicas made, by object (resource, namespace, name), each with its writer. */
async function writesByObject(of: readonly Replica[]): Promise<Map<string, { writer: string; event: TimedAuditEvent }[]>> {
  const byObject = new Map<string, { writer: string; event: TimedAuditEvent }[]>();
  for (const replica of of) {
    const events = (await settledAuditEventsOf(replica.identity, namespace)) as TimedAuditEvent[];
    for (const event of events) {
      const ref = event.objectRef;
      if (!WRITE_VERBS.has(event.verb) || ref?.resource === 'leases' || ref?.resource === 'events' || ref?.resource === 'configmaps') continue;
      const key = `${ref?.resource ?? ''}/${ref?.namespace ?? ''}/${ref?.name ?? ''}`;
      byObject.set(key, [...(byObject.get(key) ?? []), { writer: replica.identity.userName, event }]);
    }
  }
  return byObject;
}

/** Objects two writers wrote in overlapping intervals (each writer's from its first request to its last answer). */
function overlaps(byObject: Map<string, { writer: string; event: TimedAuditEvent }[]>): string[] {
  const found: string[] = [];
  for (const [object, writes] of byObject) {
    const spans = new Map<string, { from: number; to: number }>();
    for (const { writer, event } of writes) {
      const from = Date.parse(event.requestReceivedTimestamp);
      const to = Date.parse(event.stageTimestamp);
      const span = spans.get(writer);
      spans.set(writer, span === undefined ? { from, to } : { from: Math.min(span.from, from), to: Math.max(span.to, to) });
    }
    const sorted = [...spans.values()].sort((a, b) => a.from - b.from);
    for (let i = 1; i < sorted.length; i++) if ((sorted[i]?.from ?? 0) <= (sorted[i - 1]?.to ?? 0)) found.push(object);
  }
  return found;
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('shards');
  enforcement = await createTestNamespace('shards-enforce');
  rememberSecret(API_KEY);
  for (const index of [0, 1, 2]) {
    const identity = await deployedIdentity(kube, { namespace, name: `keyward-${String(index)}`, components: ['runtime', 'apikey-enforcement'], namespaces: { operator: namespace, enforcement } });
    const process = startKeyward(['run',
      '--kubeconfig', identity.kubeconfig,
      '--controllers', 'apikey-enforcement',
      '--namespaces', namespace,
      '--enforcement-namespace', enforcement,
      '--lease-namespace', namespace,
      '--sharding', ...TIMING,
      '--metrics-bind-address', '0',
      '--health-bind-address', '0',
      '--log-format', 'json',
    ], 'sharding-operator');
    replicas.push({ identity, process });
  }
});

afterAll(async () => {
  await Promise.all(replicas.map(async (replica) => {
    if (replica.process.child.exitCode === null && replica.process.child.signalCode === null) await stopKeyward(replica.process);
  }));
  await Promise.all(replicas.map((replica) => replica.identity.remove()));
  kube.close();
  expect(replicas.map((replica) => replica.process.output()).join('')).not.toContain(API_KEY);
});

describe('objects shared out over three keyward processes by shard Leases', () => {
  it('spreads the objects over the three, moves a killed one\'s to the others, converges a change made meanwhile once, and never has two write one object at once', async () => {
    await allSee(3, replicas);
    await kube.create({ type: coreTypes.secret, namespace, name: 'consumer-key' }, { metadata: { name: 'consumer-key' }, stringData: { api_key: API_KEY } });
    for (const name of NAMES) {
      const ref = { type: apiKeyType, namespace, name };
      await kube.create(ref, {
        apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name, namespace },
        spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'consumer-key' }, planTier: 'gold', useCase: 'shards', requestedBy: { userId: 'u', email: 'u@example.com' } },
      });
      await kube.patch(ref, { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Approved', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }, ContentType.mergePatch, 'status');
    }
    await waitFor(async () => ((await Promise.all(NAMES.map(exists))).every(Boolean) ? true : undefined), { what: 'every enforcement Secret', timeoutMs: 90_000, intervalMs: 300 });

    // Spread: each replica created enforcement Secrets, and each Secret was created by one of them.
    const created = await writesByObject(replicas);
    const writerOf = (name: string): string | undefined => created.get(`secrets/${enforcement}/${enforcementRef(name).name}`)?.[0]?.writer;
    const writers = NAMES.map(writerOf);
    for (const replica of replicas) expect(writers).toContain(replica.identity.userName);
    for (const name of NAMES) expect(new Set(created.get(`secrets/${enforcement}/${enforcementRef(name).name}`)?.map((write) => write.writer)).size).toBe(1);

    // kill -9 one replica, and before its Lease has expired, delete the enforcement Secret of one of its
    // objects: the replica that takes the object over creates it again.
    const [victim, ...survivors] = replicas;
    if (victim === undefined) throw new Error('no replica');
    const moved = NAMES.find((name) => writerOf(name) === victim.identity.userName) ?? '';
    victim.process.child.kill('SIGKILL');
    await exited(victim.process.child);
    await kube.delete(enforcementRef(moved));
    await waitFor(async () => ((await exists(moved)) ? true : undefined), { what: 'the moved object\'s enforcement Secret to be made again', timeoutMs: 90_000, intervalMs: 300 });
    await allSee(2, survivors);

    const after = await writesByObject(replicas);
    const movedWrites = (after.get(`secrets/${enforcement}/${enforcementRef(moved).name}`) ?? []).filter((write) => write.writer !== victim.identity.userName);
    // Once: one creation of the Secret by the replica that took the object over, and no other write by either.
    expect(movedWrites.map((write) => write.event.verb)).toEqual(['create']);
    // After the killed replica's Lease expired: no earlier than its last renewal plus its duration.
    const victimLease = (await kube.get({ type: coreTypes.lease, namespace, name: shardLeaseName(identityOf(victim) ?? '') })) as (KubeObject & { spec?: { renewTime?: string; leaseDurationSeconds?: number } }) | undefined;
    const expiry = Date.parse(victimLease?.spec?.renewTime ?? '') + (victimLease?.spec?.leaseDurationSeconds ?? 0) * 1_000;
    expect(victimLease?.spec?.leaseDurationSeconds).toBe(LEASE_SECONDS);
    expect(Date.parse(movedWrites[0]?.event.requestReceivedTimestamp ?? '')).toBeGreaterThanOrEqual(expiry);
    // No object written by two replicas in overlapping intervals, over the whole run.
    expect(overlaps(after)).toEqual([]);
    expect(after.size).toBeGreaterThanOrEqual(NAMES.length);
  });
});
