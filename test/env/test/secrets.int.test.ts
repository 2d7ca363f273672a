import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS_LEDGER, scanForSecrets, scannedFiles } from '../src/secret-scan.js';
import { ENVIRONMENT_LOG } from '../src/environment.js';
import { keystoneAdmin, testEnvironment } from '../src/testing.js';

describe('the secrets the environment creates', () => {
  const info = testEnvironment();

  it('are recorded for the secret scan: the Keystone admin and database passwords, the admin token, and Keycloak\'s bootstrap secrets', () => {
    const ledger = readFileSync(join(info.dir, SECRETS_LEDGER), 'utf8').split('\n');
    const keystoneConf = readFileSync(join(info.dir, 'keystone', 'keystone.conf'), 'utf8');
    const databasePassword = /mysql\+pymysql:\/\/keystone:([^@]+)@/.exec(keystoneConf)?.[1] ?? 'not found in keystone.conf';
    expect({
      keystoneAdmin: ledger.includes(info.keystone?.password ?? 'no Keystone'),
      database: ledger.includes(databasePassword),
      kubernetesAdmin: ledger.includes(info.kubernetes.token),
      keycloakAdmin: ledger.includes(info.keycloak?.password ?? 'no Keycloak'),
      keycloakServiceAccount: ledger.includes(info.keycloak?.clientSecret ?? 'no Keycloak'),
    }).toEqual({ keystoneAdmin: true, database: true, kubernetesAdmin: true, keycloakAdmin: true, keycloakServiceAccount: true });
  });

  it('include the passwords of the service users tests make through it', async () => {
    const password = `pw-${randomBytes(12).toString('hex')}`;
    await (await keystoneAdmin()).ensureServiceUser({ userName: `ledger-${randomBytes(3).toString('hex')}`, password });
    expect(readFileSync(join(info.dir, SECRETS_LEDGER), 'utf8').split('\n')).toContain(password);
  });

  it('are in no log: no component\'s, not the audit log, not the environment\'s own', () => {
    expect(scanForSecrets(info.dir)).toEqual([]);
  });

  it('are looked for in the log of every component and in the environment\'s own log', () => {
    const scanned = new Set(scannedFiles(info.dir));
    const logs = [...info.components.map((component) => component.logFile), info.auditLog, join(info.dir, ENVIRONMENT_LOG)];
    expect(info.components.map((component) => component.component).sort()).toEqual(['etcd', 'keycloak', 'keystone', 'kube-apiserver', 'kube-controller-manager', 'mariadb']);
    expect(logs.filter((log) => !scanned.has(log))).toEqual([]);
  });
});
