import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assertNoSecretsInLogs, recordSecretIn, scanForSecrets, scannedFiles } from '../src/secret-scan.js';

const SECRET = 'hunter2-secret-value';

/** The logs an environment folder holds: its components', its own, the audit log and the tests'. */
const LOGS = [
  'etcd.log',
  'kube-apiserver.log',
  'kube-controller-manager.log',
  'mariadb.log',
  'keystone.log',
  'environment.log',
  'audit.log',
  'keyward.log',
  join('test-logs', 'operator.log'),
  join('test-logs', 'appcred-controller.log'),
];

/** Files that hold secrets on purpose: the state file, the ledger, credentials, component data. */
const HOLDERS = [
  'env.json',
  'kubeconfig',
  'tokens.csv',
  'sa.key',
  join('test-credentials', 'kubeconfig-ns-operator'),
  join('etcd-data', 'member', 'snap', 'db'),
  join('mariadb', 'ib_logfile0'),
  join('keystone', 'keystone.conf'),
  join('apiserver-certs', 'apiserver.key'),
];

/** An environment folder with every log and holder, clean, and SECRET recorded as secret #2. */
function environmentFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scan-'));
  recordSecretIn(dir, 'other-secret-value');
  recordSecretIn(dir, SECRET);
  for (const file of [...LOGS, ...HOLDERS]) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), 'nothing to see\n');
  }
  return dir;
}

describe('the secret scan', () => {
  it.each(LOGS)('finds a recorded secret planted in %s', (log) => {
    const dir = environmentFolder();
    writeFileSync(join(dir, log), `{"msg":"oops ${SECRET}"}\n`, { flag: 'a' });
    expect(scanForSecrets(dir)).toEqual([{ file: join(dir, log), secretNumber: 2 }]);
  });

  it('reads every file that is not a secret holder, whatever its name, and no holder', () => {
    const dir = environmentFolder();
    writeFileSync(join(dir, 'mariadb.err'), 'nothing to see\n');
    expect(scannedFiles(dir).sort()).toEqual([...LOGS, 'mariadb.err'].map((file) => join(dir, file)).sort());
  });

  it('ignores the secret where it is kept on purpose', () => {
    const dir = environmentFolder();
    for (const holder of HOLDERS) writeFileSync(join(dir, holder), SECRET);
    expect(scanForSecrets(dir)).toEqual([]);
  });

  it('finds nothing when nothing was recorded', () => {
    expect(scanForSecrets(mkdtempSync(join(tmpdir(), 'scan-')))).toEqual([]);
  });

  it('fails the run on a leak, naming the file and the secret\'s number, never the secret', () => {
    const dir = environmentFolder();
    expect(() => { assertNoSecretsInLogs(dir); }).not.toThrow();
    writeFileSync(join(dir, 'keystone.log'), `$ keystone-manage bootstrap --bootstrap-password ${SECRET}\n`);
    const error = ((): unknown => {
      try {
        assertNoSecretsInLogs(dir);
        return undefined;
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`secrets leaked into logs:\nrecorded secret #2 in ${join(dir, 'keystone.log')}`);
    expect((error as Error).message).not.toContain(SECRET);
  });
});
