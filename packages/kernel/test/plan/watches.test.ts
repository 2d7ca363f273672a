import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/apis/kubernetes/actions.js';
import { coreTypes, type ResourceType } from '../../src/model/refs.js';
import { owns } from '../../src/plan/watches.js';

const keystoneType: ResourceType = { group: 'keystone.openstack.c5c3.io', version: 'v1alpha1', kind: 'Keystone', plural: 'keystones', namespaced: true };

function configMap(ownerReferences: KubeObject['metadata']['ownerReferences'], namespace: string | null = 'ns'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', ...(namespace === null ? {} : { namespace }), ...(ownerReferences === undefined ? {} : { ownerReferences }) } };
}

describe('owns', () => {
  const watch = owns(coreTypes.configMap, keystoneType, { labels: { 'app.kubernetes.io/managed-by': 'keyward' } });

  it('watches the owned type with its labels', () => {
    expect([watch.type, watch.labels]).toEqual([coreTypes.configMap, { 'app.kubernetes.io/managed-by': 'keyward' }]);
  });

  it('maps an object to the owner its controller reference names, in any version of the owner group', () => {
    expect(watch.mapToPrimary(configMap([{ apiVersion: 'keystone.openstack.c5c3.io/v1beta1', kind: 'Keystone', name: 'main', uid: 'u', controller: true }]))).toEqual(['ns/main']);
  });

  it('ignores references that are not the controller, of another kind or group, and cluster-scoped objects', () => {
    expect(watch.mapToPrimary(configMap([{ apiVersion: 'keystone.openstack.c5c3.io/v1alpha1', kind: 'Keystone', name: 'a', uid: 'u' }]))).toEqual([]);
    expect(watch.mapToPrimary(configMap([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'b', uid: 'u', controller: true }]))).toEqual([]);
    expect(watch.mapToPrimary(configMap([{ apiVersion: 'other.example/v1alpha1', kind: 'Keystone', name: 'c', uid: 'u', controller: true }]))).toEqual([]);
    expect(watch.mapToPrimary(configMap([{ apiVersion: 'keystone.openstack.c5c3.io/v1alpha1', kind: 'Keystone', name: 'd', uid: 'u', controller: true }], null))).toEqual([]);
    expect(watch.mapToPrimary(configMap(undefined))).toEqual([]);
  });
});
