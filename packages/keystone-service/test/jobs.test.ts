import { describe, expect, it } from '@jest/globals';
import { PlanBuilder, sensitive, type KubeObject } from '@keyward/kernel';
import { ANNOTATION_RUN_KEY } from '../src/api.js';
import { logTail, reconcileJob } from '../src/jobs.js';
import { failureLines } from '../src/logs.js';
import type { Keystone } from '../src/spec.js';
import type { KeystoneAction } from '../src/vocabulary.js';

const ESC = '\u001b';

/** keystone-manage db_sync against a database that does not exist: oslo.log records in colour, then Python's shutdown. */
const dbSyncLog = [
  `2026-11-28 10:00:01.100 7 ${ESC}[01;31mCRITICAL keystone [-] Unhandled error: sqlalchemy.exc.OperationalError: (pymysql.err.OperationalError) (1049, "Unknown database 'no_such_db'")${ESC}[00m`,
  '2026-11-28 10:00:01.100 7 ERROR keystone Traceback (most recent call last):',
  '2026-11-28 10:00:01.100 7 ERROR keystone   File "/usr/lib/python3/dist-packages/pymysql/connections.py", line 649, in connect',
  '2026-11-28 10:00:01.100 7 ERROR keystone     self._request_authentication()',
  '2026-11-28 10:00:01.100 7 ERROR keystone sqlalchemy.exc.OperationalError: (pymysql.err.OperationalError) (1049, "Unknown database \'no_such_db\'")',
  '2026-11-28 10:00:01.100 7 ERROR keystone ',
  '2026-11-28 10:00:01.101 7 INFO oslo_db.sqlalchemy.engines [-] connecting with password s3cret',
  'Exception ignored in: <function _removeHandlerRef at 0x7f3c2a1b2c10>',
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3.11/logging/__init__.py", line 846, in _removeHandlerRef',
  "TypeError: 'NoneType' object is not callable",
  'Exception ignored in: <function Connection.__del__ at 0x7f3c2a1b2d30>',
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3/dist-packages/pymysql/connections.py", line 789, in __del__',
  "ImportError: sys.meta_path is None, Python is likely shutting down",
  '',
].join('\n');

const failedPod = (message: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'ks-db-sync-abc', namespace: 'identity', labels: { 'batch.kubernetes.io/job-name': 'ks-db-sync' }, creationTimestamp: '2026-11-28T10:00:00Z' },
  status: { containerStatuses: [{ state: { terminated: { exitCode: 1, message } } }] },
});

describe("a failed Job's log in its condition", () => {
  it('keeps the ERROR and CRITICAL records and the traceback, without colour, dates or shutdown noise', () => {
    expect(failureLines(dbSyncLog)).toEqual([
      'CRITICAL keystone [-] Unhandled error: sqlalchemy.exc.OperationalError: (pymysql.err.OperationalError) (1049, "Unknown database \'no_such_db\'")',
      'ERROR keystone Traceback (most recent call last):',
      'ERROR keystone   File "/usr/lib/python3/dist-packages/pymysql/connections.py", line 649, in connect',
      'ERROR keystone     self._request_authentication()',
      'ERROR keystone sqlalchemy.exc.OperationalError: (pymysql.err.OperationalError) (1049, "Unknown database \'no_such_db\'")',
    ]);
  });

  it('keeps every line of a log without oslo.log records, but not what Python says while it shuts down', () => {
    expect(failureLines(`${ESC}[31mfatal: no config${ESC}[0m\nhint: mount it\nException ignored in: <x>\nTraceback (most recent call last):\n  File "y"\nTypeError: z\n`)).toEqual(['fatal: no config', 'hint: mount it']);
  });

  it('keeps the exception of a plain traceback, as uWSGI prints one for an application that did not load', () => {
    const uwsgi = [
      '*** Operational MODE: preforking ***',
      'Traceback (most recent call last):',
      '  File "/usr/bin/keystone-wsgi-public", line 52, in <module>',
      '    application = initialize_public_application()',
      "stevedore.exception.NoMatches: No 'keystone.token.provider' driver found, looking for 'no-such-provider'",
      "unable to load app 0 (mountpoint='') (callable not found or import error)",
      '*** no app loaded. GAME OVER ***',
    ].join('\n');
    expect(failureLines(uwsgi)).toEqual(["stevedore.exception.NoMatches: No 'keystone.token.provider' driver found, looking for 'no-such-provider'"]);
  });

  it('puts the lines on one line, with no control character, and masks secrets', () => {
    const tail = logTail('ks-db-sync', [failedPod(`${dbSyncLog}\n2026-11-28 10:00:02.000 7 ERROR keystone password s3cret refused`)], [sensitive('s3cret')]) ?? '';
    expect(tail).toContain("Unknown database 'no_such_db'");
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(tail).not.toMatch(/[\u0000-\u001f]/);
    expect(tail).not.toContain('Exception ignored');
    expect(tail).not.toContain('s3cret');
    expect(tail.split(' | ')).toHaveLength(6);
  });
});

describe('a Job whose pod cannot start', () => {
  const cr = { apiVersion: 'keystone.openstack.c5c3.io/v1alpha1', kind: 'Keystone', metadata: { name: 'ks', namespace: 'identity', uid: 'u', generation: 1 }, spec: {}, status: {} } as unknown as Keystone;
  const job: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'ks-db-sync', namespace: 'identity', uid: 'job-uid', annotations: { [ANNOTATION_RUN_KEY]: 'k1' } }, status: { active: 1 } };
  const run = { name: 'ks-db-sync', what: 'db_sync', runKey: 'k1', template: {}, why: 'migrate', rerunsWhen: 'the image changes' };
  const waitingPod = (reason: string, message: string): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'ks-db-sync-7xk2p', namespace: 'identity', labels: { 'batch.kubernetes.io/job-name': 'ks-db-sync' }, creationTimestamp: '2026-11-28T10:00:00Z' },
    status: { phase: 'Pending', containerStatuses: [{ name: 'db-sync', image: 'registry.invalid/keystone:22', ready: false, restartCount: 0, state: { waiting: { reason, message } } }] },
  });

  it.each([
    ['ImagePullBackOff', 'Back-off pulling image "registry.invalid/keystone:22"'],
    ['ErrImagePull', 'failed to pull and unpack image "registry.invalid/keystone:22": failed to resolve reference'],
    ['CreateContainerConfigError', 'secret "ks-db-connection" not found'],
  ])('is reported with the pod\'s reason %s, not as running', (reason, message) => {
    const outcome = reconcileJob(new PlanBuilder<KeystoneAction>(), cr, job, run, [waitingPod(reason, message)], []);
    expect(outcome).toEqual({ done: false, report: { status: 'False', reason, message: `db_sync Job ks-db-sync cannot run: pod ks-db-sync-7xk2p: ${reason}: ${message}` } });
  });

  it('is running while its pod is being created', () => {
    const outcome = reconcileJob(new PlanBuilder<KeystoneAction>(), cr, job, run, [waitingPod('ContainerCreating', '')], []);
    expect(outcome.report).toMatchObject({ reason: 'Running', message: 'db_sync Job ks-db-sync is running' });
  });
});
