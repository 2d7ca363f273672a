import { describe, expect, it } from '@jest/globals';
import { kubernetesApi } from '../../src/apis/kubernetes/api.js';
import type { PatchAction } from '../../src/apis/kubernetes/actions.js';
import { coreTypes } from '../../src/model/refs.js';
import { sensitive } from '../../src/model/sensitive.js';
import { diffLines } from '../../src/plan/diff.js';

const OLD = Buffer.from('old-password').toString('base64');

describe('diffLines', () => {
  it('hides the old value of a leaf whose new value is sensitive', () => {
    expect(diffLines({ token: 'old-token' }, { token: sensitive('new-token') }, { whole: false })).toEqual(['~ token: (sensitive) => (sensitive)']);
  });

  it('shows no value on paths it is told to hide', () => {
    expect(diffLines({ data: { a: 'x' } }, { data: { a: 'y', b: 'z' } }, { whole: false, hide: (path) => path.startsWith('data.') })).toEqual([
      '~ data.a: (sensitive) => (sensitive)',
      '+ data.b: (sensitive)',
    ]);
  });
});

describe("the Kubernetes API's plan details", () => {
  it("never print a Secret's data, observed or stated, sensitive or not", () => {
    const patch: PatchAction = {
      kind: 'k8s.patch',
      ref: { type: coreTypes.secret, namespace: 'ns', name: 's' },
      patch: { type: 'merge', body: { data: { password: Buffer.from('new').toString('base64') }, metadata: { labels: { app: 'x' } } } },
      observed: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' }, data: { password: OLD } },
    };
    const lines = kubernetesApi.actions['k8s.patch'].details?.(patch) ?? [];
    expect(lines).toEqual(['~ data.password: (sensitive) => (sensitive)', '+ metadata.labels.app: "x"']);
    expect(lines.join('\n')).not.toContain(OLD);
  });
});
