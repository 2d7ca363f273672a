// kill -9 at random moments while KeystoneApplicationCredentials converge, then while they rotate.
// Target: no orphaned or extra credential, exactly the current (and previous) Secret per CR, all Ready.
import { setTimeout as sleep } from 'node:timers/promises';
import { auditAppCreds, rotatedSince, settle, settled } from '../support/appcred-audit.js';
import { createAppCreds, expireAppCreds } from '../support/appcreds.js';
import { namespaceWithPassword, progress, scenarioNamespace, startFaultEnvironment, type FaultEnvironment } from '../support/environment.js';
import { killHard, startOperator, stopGently, type OperatorProcess } from '../support/operator.js';
import { scenarioOptions, seededRandom } from '../support/options.js';
import { atMost, exactly, report, result } from '../support/result.js';

const options = scenarioOptions();
const size = options.mode === 'short' ? { crs: 12, kills: 4 } : { crs: 50, kills: 10 };
const random = seededRandom(options.seed);
const namespace = scenarioNamespace('faults-kill9');
const names = Array.from({ length: size.crs }, (_, i) => `ac-kill-${String(i)}`);

function operatorArgs(fault: FaultEnvironment): string[] {
  return ['--namespaces', namespace, '--keystone-url', fault.keystoneUrl, '--no-leader-elect', '--metrics-bind-address', '0', '--health-bind-address', '0', '--concurrency', '4'];
}

/** Starts the operator, kills it with SIGKILL after a random 0.5 to 4 s (it needs about 1 s to start), `kills` times. */
async function killRepeatedly(fault: FaultEnvironment): Promise<OperatorProcess> {
  for (let kill = 0; kill < size.kills; kill++) {
    const operator = startOperator(fault.info, operatorArgs(fault));
    const afterMs = 500 + Math.floor(random() * 3_500);
    await sleep(afterMs);
    await killHard(operator);
    progress(`kill -9 ${String(kill + 1)}/${String(size.kills)} after ${String(afterMs)} ms`);
  }
  return startOperator(fault.info, operatorArgs(fault));
}

const started = performance.now();
const fault = await startFaultEnvironment('kill9');
let operator: OperatorProcess | undefined;
try {
  await namespaceWithPassword(fault, namespace);
  await createAppCreds(fault, namespace, names);
  progress(`${String(size.crs)} CRs created; killing the operator ${String(size.kills)} times while they converge (seed ${String(options.seed)})`);
  operator = await killRepeatedly(fault);
  const creation = (await settle(fault, { namespace, names })).audit;
  await stopGently(operator);

  const before = (await auditAppCreds(fault, namespace, names)).statuses;
  progress('rotating every CR (expiresAt moved into the past); killing the operator again');
  await expireAppCreds(fault, namespace, names);
  operator = await killRepeatedly(fault);
  const rotationSnapshot = await settle(fault, { namespace, names, done: (snapshot) => settled(snapshot) && rotatedSince(before, snapshot, names) === names.length });
  const rotation = rotationSnapshot.audit;
  const notRotated = names.length - rotatedSince(before, rotationSnapshot, names);
  const liveAfter = await fault.liveCredentials('ac-kill-');

  const output = result('kill9', options.mode, started, { seed: options.seed, crs: size.crs, kills: size.kills * 2, creation, rotation, liveCredentialsAfterRotation: liveAfter.length }, [
    exactly('orphaned credentials after creation', creation.orphanedCredentials, 0),
    exactly('extra credentials after creation', creation.extraCredentials, 0),
    exactly('CRs not Ready after creation', creation.notReady, 0),
    exactly('orphaned credentials after rotation', rotation.orphanedCredentials, 0),
    exactly('extra credentials after rotation', rotation.extraCredentials, 0),
    exactly('CRs not Ready after rotation', rotation.notReady, 0),
    exactly('CRs not rotated', notRotated, 0),
    exactly('Secrets beyond current and previous', rotation.extraSecrets, 0),
    atMost('live credentials per CR after rotation (current and previous)', liveAfter.length, 2 * size.crs),
  ]);
  report(output);
} finally {
  if (operator !== undefined) await stopGently(operator);
  await fault.stop();
}
