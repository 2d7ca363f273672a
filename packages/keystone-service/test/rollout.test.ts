// A Deployment's readiness from the status shapes the Deployment controller and the kubelet write.
import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@keyward/kernel';
import { deploymentReady } from '../src/rollout.js';

const at = '2026-11-28T10:00:00Z';
const labels = { 'app.kubernetes.io/name': 'keystone', 'app.kubernetes.io/instance': 'identity', 'app.kubernetes.io/managed-by': 'keyward' };

function deployment(status: Record<string, unknown>, revision = '2'): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'identity', namespace: 'ks', uid: 'dep-uid', generation: 2, labels, annotations: { 'deployment.kubernetes.io/revision': revision } }, status: { observedGeneration: 2, ...status } };
}

const available = (status: 'True' | 'False', reason: string) => ({ type: 'Available', status, reason, message: reason === 'MinimumReplicasAvailable' ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.', lastUpdateTime: at, lastTransitionTime: at });
const progressing = (reason: string, message: string) => ({ type: 'Progressing', status: reason === 'ProgressDeadlineExceeded' ? 'False' : 'True', reason, message, lastUpdateTime: at, lastTransitionTime: at });

function replicaSet(hash: string, revision: string): KubeObject {
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: { name: `identity-${hash}`, namespace: 'ks', labels: { ...labels, 'app.kubernetes.io/component': 'api', 'pod-template-hash': hash }, annotations: { 'deployment.kubernetes.io/revision': revision }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'identity', uid: 'dep-uid', controller: true }] },
  };
}

function pod(name: string, hash: string, containerStatus: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'ks', labels: { ...labels, 'app.kubernetes.io/component': 'api', 'pod-template-hash': hash }, creationTimestamp: at },
    status: { phase: 'Running', containerStatuses: [{ name: 'keystone', image: 'keystone:22', ready: false, restartCount: 4, started: false, ...containerStatus }] },
  };
}

const replicaSets = [replicaSet('5f7c9d8b6', '1'), replicaSet('7d4b8c9f5', '2')];
const oldPod = pod('identity-5f7c9d8b6-x2k4q', '5f7c9d8b6', { ready: true, started: true, restartCount: 0, state: { running: { startedAt: at } } });

/** A new pod whose Keystone exits at start (token.provider: no-such-provider), as the kubelet reports it after a few restarts. */
const crashLooping = pod('identity-7d4b8c9f5-9qz7m', '7d4b8c9f5', {
  state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=keystone pod=identity-7d4b8c9f5-9qz7m_ks(6c1e)' } },
  lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: at, finishedAt: at, message: [
    '2026-11-28 10:00:01.100 1 CRITICAL keystone [-] Unhandled error: stevedore.exception.NoMatches: No \'keystone.token.provider\' driver found, looking for \'no-such-provider\'',
    '2026-11-28 10:00:01.100 1 ERROR keystone Traceback (most recent call last):',
    '2026-11-28 10:00:01.100 1 ERROR keystone stevedore.exception.NoMatches: No \'keystone.token.provider\' driver found, looking for \'no-such-provider\'',
    'Exception ignored in: <function _removeHandlerRef at 0x7f3c2a1b2c10>',
  ].join('\n') } },
});

describe('deploymentReady', () => {
  it('is not Ready while the new pod crash-loops and the old one still serves, and says why', () => {
    // replicas 1, maxSurge 1, maxUnavailable 0: the old pod stays, the new one never becomes ready.
    const stuck = deployment({
      replicas: 2, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, unavailableReplicas: 1,
      conditions: [available('True', 'MinimumReplicasAvailable'), progressing('ReplicaSetUpdated', 'ReplicaSet "identity-7d4b8c9f5" is progressing.')],
    });
    const report = deploymentReady(stuck, 1, replicaSets, [oldPod, crashLooping]);
    expect(report).toMatchObject({ status: 'False', reason: 'CrashLoopBackOff' });
    expect(report.message).toContain('pod identity-7d4b8c9f5-9qz7m: CrashLoopBackOff');
    expect(report.message).toContain("driver found, looking for 'no-such-provider'");
    expect(report.message).toContain('1 of 1 pods updated, 1 available, 1 old pods left');
    expect(report.message).not.toContain('Exception ignored');
  });

  it('reports a rollout past its progress deadline', () => {
    const stuck = deployment({
      replicas: 2, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, unavailableReplicas: 1,
      conditions: [available('True', 'MinimumReplicasAvailable'), progressing('ProgressDeadlineExceeded', 'ReplicaSet "identity-7d4b8c9f5" has timed out progressing.')],
    });
    expect(deploymentReady(stuck, 1, replicaSets, [oldPod, pod('identity-7d4b8c9f5-9qz7m', '7d4b8c9f5', { state: { running: { startedAt: at } } })])).toEqual({
      status: 'False', reason: 'ProgressDeadlineExceeded', message: 'the rollout is stuck: ReplicaSet "identity-7d4b8c9f5" has timed out progressing. (1 of 1 pods updated, 1 available, 1 old pods left)',
    });
  });

  it('is not Ready while old pods are still terminating, though every updated pod is available', () => {
    const finishing = deployment({ replicas: 3, updatedReplicas: 2, readyReplicas: 3, availableReplicas: 3, conditions: [available('True', 'MinimumReplicasAvailable'), progressing('ReplicaSetUpdated', 'progressing')] });
    expect(deploymentReady(finishing, 2, replicaSets, [])).toMatchObject({ status: 'False', reason: 'Progressing', message: '2 of 2 pods updated, 3 available, 1 old pods left' });
  });

  it('reports an image that cannot be pulled, or a reference that is not one', () => {
    const first = deployment({ replicas: 1, updatedReplicas: 1, unavailableReplicas: 1, conditions: [available('False', 'MinimumReplicasUnavailable'), progressing('ReplicaSetUpdated', 'progressing')] }, '1');
    const pulling = pod('identity-5f7c9d8b6-a', '5f7c9d8b6', { state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.invalid/keystone:22"' } } });
    expect(deploymentReady(first, 1, replicaSets, [pulling])).toMatchObject({ status: 'False', reason: 'ImagePullBackOff', message: 'the rollout is stuck: pod identity-5f7c9d8b6-a: ImagePullBackOff: Back-off pulling image "registry.invalid/keystone:22" (1 of 1 pods updated, 0 available, 0 old pods left)' });
    const invalid = pod('identity-5f7c9d8b6-a', '5f7c9d8b6', { state: { waiting: { reason: 'InvalidImageName', message: 'Failed to apply default image tag "keystone:2 2": couldn\'t parse image name' } } });
    expect(deploymentReady(first, 1, replicaSets, [invalid])).toMatchObject({ status: 'False', reason: 'InvalidImageName' });
  });

  it('is Ready when every replica is updated and available and no old one is left', () => {
    const done = deployment({ replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, conditions: [available('True', 'MinimumReplicasAvailable'), progressing('NewReplicaSetAvailable', 'ReplicaSet "identity-7d4b8c9f5" has successfully progressed.')] });
    expect(deploymentReady(done, 2, replicaSets, [])).toEqual({ status: 'True', reason: 'Available', message: '2 pods ready' });
  });

  it('waits for the Deployment controller to see the latest generation', () => {
    expect(deploymentReady({ ...deployment({}), metadata: { ...deployment({}).metadata, generation: 3 } }, 1)).toMatchObject({ status: 'False', reason: 'Progressing' });
  });
});
