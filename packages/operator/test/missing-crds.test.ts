import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { RuntimeMetrics, SharedInformers, type RuntimeLogger } from '@keyward/runtime/controller';
import { apiKeyType } from '@keyward/apikey-enforcement';
import { keystoneApiType } from '@keyward/keystone-appcred';
import { keystoneType, mariaDbDatabaseType } from '@keyward/keystone-service';
import { operatorApis } from '../src/apis.js';
import { MODULES, moduleNamed } from '../src/controllers.js';
import { missingCrdMessage } from '../src/missing-crds.js';
import { buildController } from '../src/wiring.js';

const quiet: RuntimeLogger = { child: () => quiet, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('a controller whose CRD is missing', () => {
  it('is told how to get the CRD: ours from keyward crds, another operator\'s from that operator', () => {
    expect(missingCrdMessage('apikey-enforcement', apiKeyType, MODULES)).toBe(
      'CRD apikeys.devportal.kuadrant.io is not installed; install it with `keyward crds --controllers apikey-enforcement | kubectl apply -f -` or disable the controller (leave apikey-enforcement out of --controllers); it starts once the CRD is installed',
    );
    expect(missingCrdMessage('keystone-appcred', keystoneApiType, MODULES)).toMatch(/^CRD keystoneapis\.keystone\.openstack\.org is not installed; install it \(it comes with the operator that owns it\) or disable/);
    // keystone-service runs by default: on a cluster without its CRD it says so once and waits.
    expect(missingCrdMessage('keystone-service', keystoneType, MODULES)).toBe(
      'CRD keystones.keystone.openstack.c5c3.io is not installed; install it with `keyward crds --controllers keystone-service | kubectl apply -f -` or disable the controller (leave keystone-service out of --controllers); it starts once the CRD is installed',
    );
  });

  it('is a runnable that names the types it watches, so the manager can check them before starting it', async () => {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u', token: 'x' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    const kube = new KubeClient(config);
    const apis = operatorApis({ kube, identity: 'test' });
    const informers = new SharedInformers(kube);
    try {
      const runnable = buildController(moduleNamed('apikey-enforcement'), { kube, apis, metrics: new RuntimeMetrics(), identity: 'test', close: () => undefined }, {
        namespace: undefined, concurrency: 1, maxRetryDelayMs: 1_000, settings: {}, informers, logger: quiet,
      });
      expect(runnable.requires).toEqual([apiKeyType, coreTypes.secret]);
      // keystone-service waits for its own CRD only: mariadb-operator's objects are read by name for the Keystones
      // that name a MariaDB cluster, so a cluster without that operator runs Keystones with a database host.
      const keystones = buildController(moduleNamed('keystone-service'), { kube, apis, metrics: new RuntimeMetrics(), identity: 'test', close: () => undefined }, {
        namespace: undefined, concurrency: 1, maxRetryDelayMs: 1_000, settings: {}, informers, logger: quiet,
      });
      expect(keystones.requires?.[0]).toEqual(keystoneType);
      expect(keystones.requires?.filter((type) => type.group === mariaDbDatabaseType.group)).toEqual([]);
    } finally {
      await informers.stop();
      apis.close();
      kube.close();
    }
  });
});
