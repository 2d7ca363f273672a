// Where a KeystoneApplicationCredential finds its Keystone: the configured URL, the namespace's KeystoneAPI (as
// upstream), else a Keystone object of keystone-service; and what it says while none is usable.
import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@keyward/kernel';
import { keystoneEndpoint, type KeystoneEndpoint } from '../src/endpoint.js';

const NS = 'openstack';

function ready(status: boolean, message?: string): unknown[] {
  return [{ type: 'Ready', status: status ? 'True' : 'False', reason: status ? 'Ready' : 'Deploying', lastTransitionTime: '2026-01-01T00:00:00Z', ...(message === undefined ? {} : { message }) }];
}

function keystoneApi(name: string, isReady: boolean, internal?: string, message?: string): KubeObject {
  return {
    apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneAPI', metadata: { name, namespace: NS },
    status: { conditions: ready(isReady, message), ...(internal === undefined ? {} : { apiEndpoints: { internal } }) },
  };
}

function keystone(name: string, isReady: boolean, endpoint?: string, message?: string): KubeObject {
  return {
    apiVersion: 'keystone.openstack.c5c3.io/v1alpha1', kind: 'Keystone', metadata: { name, namespace: NS },
    status: { conditions: ready(isReady, message), ...(endpoint === undefined ? {} : { endpoint }) },
  };
}

const API_URL = 'http://keystone-internal.openstack.svc:5000';
const C5C3_URL = `http://keystone.${NS}.svc.cluster.local:5000/v3`;

const cases: readonly (readonly [string, readonly KubeObject[] | undefined, string | undefined, readonly KubeObject[] | undefined, KeystoneEndpoint])[] = [
  ['the configured URL wins over everything', [keystoneApi('keystone', true, API_URL)], 'http://configured:5000', [keystone('k', true, C5C3_URL)],
    { usable: true, url: 'http://configured:5000/v3', source: 'the configured Keystone URL' }],
  ['a Ready KeystoneAPI wins over a Ready Keystone', [keystoneApi('keystone', true, API_URL)], undefined, [keystone('a', true, C5C3_URL)],
    { usable: true, url: `${API_URL}/v3`, source: 'KeystoneAPI keystone' }],
  ['a Ready Keystone when there is no KeystoneAPI', [], undefined, [keystone('keystone', true, C5C3_URL)],
    { usable: true, url: C5C3_URL, source: 'Keystone keystone' }],
  ['a Ready Keystone when the KeystoneAPI CRD is not installed', undefined, undefined, [keystone('keystone', true, C5C3_URL)],
    { usable: true, url: C5C3_URL, source: 'Keystone keystone' }],
  ['a Ready Keystone when the KeystoneAPI is not ready', [keystoneApi('keystone', false, API_URL, 'deploying')], undefined, [keystone('keystone', true, C5C3_URL)],
    { usable: true, url: C5C3_URL, source: 'Keystone keystone' }],
  ['a Ready Keystone when the KeystoneAPI has no endpoint', [keystoneApi('keystone', true)], undefined, [keystone('keystone', true, C5C3_URL)],
    { usable: true, url: C5C3_URL, source: 'Keystone keystone' }],
  ['the first by name of the Ready Keystones with an endpoint', [], undefined,
    [keystone('c', true, 'http://c:5000/v3'), keystone('a', false, 'http://a:5000/v3'), keystone('b', true), keystone('d', true, 'http://d:5000')],
    { usable: true, url: 'http://c:5000/v3', source: 'Keystone c' }],
  ['no KeystoneAPI and no Keystone: as before', [], undefined, [],
    { usable: false, reason: 'KeystoneAPINotFound', message: `no KeystoneAPI in namespace ${NS}` }],
  ['no KeystoneAPI, Keystone CRD not installed: as before', [], undefined, undefined,
    { usable: false, reason: 'KeystoneAPINotFound', message: `no KeystoneAPI in namespace ${NS}` }],
  ['a KeystoneAPI not ready and no Keystone: as before', [keystoneApi('keystone', false, API_URL, 'deploying')], undefined, [],
    { usable: false, reason: 'KeystoneAPINotReady', message: `KeystoneAPI ${NS}/keystone is not ready: deploying` }],
  ['a KeystoneAPI not ready without a message: as before', [keystoneApi('keystone', false)], undefined, undefined,
    { usable: false, reason: 'KeystoneAPINotReady', message: `KeystoneAPI ${NS}/keystone is not ready` }],
  ['a KeystoneAPI without an endpoint and no Keystone: as before', [keystoneApi('keystone', true)], undefined, [],
    { usable: false, reason: 'KeystoneAPIEndpointMissing', message: `KeystoneAPI ${NS}/keystone has no internal endpoint` }],
  ['neither usable: the KeystoneAPI says why', [keystoneApi('keystone', false, API_URL, 'deploying')], undefined, [keystone('keystone', false, undefined, 'starting')],
    { usable: false, reason: 'KeystoneAPINotReady', message: `KeystoneAPI ${NS}/keystone is not ready: deploying` }],
  ['no KeystoneAPI, a Keystone not ready: it says so', [], undefined, [keystone('keystone', false, C5C3_URL, 'waiting for the database')],
    { usable: false, reason: 'KeystoneNotReady', message: `Keystone ${NS}/keystone is not ready: waiting for the database` }],
  ['no KeystoneAPI, Keystones not ready: the first by name says so', undefined, undefined, [keystone('b', false), keystone('a', false)],
    { usable: false, reason: 'KeystoneNotReady', message: `Keystone ${NS}/a is not ready` }],
  ['no KeystoneAPI, a Ready Keystone without an endpoint', [], undefined, [keystone('b', false), keystone('c', true, '')],
    { usable: false, reason: 'KeystoneEndpointMissing', message: `Keystone ${NS}/c has no endpoint` }],
];

describe('keystoneEndpoint', () => {
  it.each(cases)('%s', (_name, keystoneAPIs, configuredUrl, keystones, expected) => {
    expect(keystoneEndpoint(keystoneAPIs, configuredUrl, NS, keystones)).toEqual(expected);
  });

  it('reads a Keystone whose status is not of the expected shape as not ready', () => {
    const odd: KubeObject = { apiVersion: 'keystone.openstack.c5c3.io/v1alpha1', kind: 'Keystone', metadata: { name: 'odd', namespace: NS }, status: 'broken' };
    expect(keystoneEndpoint([], undefined, NS, [odd])).toEqual({ usable: false, reason: 'KeystoneNotReady', message: `Keystone ${NS}/odd is not ready` });
  });
});
