import { describe, expect, it } from '@jest/globals';
import { podHostPattern } from '../src/workloads/database.js';
import { parseImageList } from '../src/workloads/images.js';
import { ruleArguments } from '../src/workloads/iptables.js';
import { nodeNotReadyBecause } from '../src/workloads/kubelet.js';

describe('the workload tier helpers', () => {
  it('split an iptables rule into arguments, keeping a quoted comment whole', () => {
    expect(ruleArguments('-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES')).toEqual([
      '-A',
      'OUTPUT',
      '-m',
      'comment',
      '--comment',
      'kubernetes service portals',
      '-j',
      'KUBE-SERVICES',
    ]);
  });

  it('read the image list tools/build-images.sh prints, ignoring other lines', () => {
    const output = 'pause keyward.local/pause:abc /cache/images/pause-abc.tar\n\nkeystone keyward.local/keystone:abc /cache/images/keystone-abc.tar\n';
    expect(parseImageList(output)).toEqual({
      pause: { reference: 'keyward.local/pause:abc', archive: '/cache/images/pause-abc.tar' },
      keystone: { reference: 'keyward.local/keystone:abc', archive: '/cache/images/keystone-abc.tar' },
    });
  });

  it('tell a node that can take pods from one that cannot yet', () => {
    const ready = { status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    expect(nodeNotReadyBecause(ready)).toBeUndefined();
    expect(nodeNotReadyBecause({ status: { conditions: [{ type: 'Ready', status: 'False' }] } })).toBe('Ready is False');
    expect(nodeNotReadyBecause({})).toBe('Ready is missing');
    expect(nodeNotReadyBecause({ ...ready, spec: { taints: [{ key: 'node.kubernetes.io/not-ready' }] } })).toBe('tainted node.kubernetes.io/not-ready');
  });

  it('let pods of the pod subnet, and only those, connect to MariaDB', () => {
    expect(podHostPattern()).toBe('10.213.0.%');
  });
});
