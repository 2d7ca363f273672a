import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManagedProcess, type Ownership } from './process.js';
import { freeLoopbackPort } from './ports.js';
import { probeStatus } from './http.js';
import { waitFor } from './wait.js';
import { writeKubeconfig, type ClusterAccess } from './kubeconfig.js';
import { recordSecretIn } from './secret-scan.js';

export interface StartedApiServer {
  readonly access: ClusterAccess;
  readonly kubeconfig: string;
  /** JSON lines, one audit event per request of a ServiceAccount (see AUDIT_POLICY). */
  readonly auditLog: string;
  /** What kube-controller-manager needs to fill ServiceAccounts' tokens and the kube-root-ca.crt ConfigMaps. */
  readonly serviceAccounts: ServiceAccountSigning;
  readonly process: ManagedProcess;
}

/** The files of the environment's ServiceAccount token signing, made once per environment. */
export interface ServiceAccountSigning {
  /** The private key tokens are signed with (kube-controller-manager's --service-account-private-key-file). */
  readonly signingKey: string;
  /** The CA bundle pods trust the API server by (kube-controller-manager's --root-ca-file). */
  readonly rootCa: string;
}

/**
 * What the API server writes to its audit log: every request made with a ServiceAccount token, at the Metadata
 * level (who, verb, object, status code), except the controller manager's own ServiceAccounts. Tests that must
 * prove what a client did or did not do (`keyward plan` writes nothing) run that client as a ServiceAccount of
 * its own and read the log; the admin's requests stay out of it, which keeps it small.
 */
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    userGroups: ['system:serviceaccounts:kube-system']
  - level: Metadata
    userGroups: ['system:serviceaccounts']
  - level: None
`;

/** Readiness on a loaded 2-core machine can take over a minute. */
const READY_TIMEOUT_MS = 120_000;

/**
 * Starts kube-apiserver the way envtest does: on loopback (with the workload tier, on the node IP instead, where
 * pods reach it through the kubernetes Service), a self-signed serving certificate, a static system:masters
 * token, RBAC, and a service-account key pair: tests mint tokens for ServiceAccounts with TokenRequest to exercise
 * RBAC, and the ServiceAccount admission plugin gives pods their ServiceAccount's token, so an operator in a pod
 * authenticates as itself. Waits for /readyz and for the default namespace.
 */
export async function startApiServer(binary: string, etcdUrl: string, dir: string, ownership: Ownership, host = '127.0.0.1'): Promise<StartedApiServer> {
  const port = await freeLoopbackPort();
  const certDir = join(dir, 'apiserver-certs');
  mkdirSync(certDir, { recursive: true });

  const token = randomBytes(24).toString('hex');
  recordSecretIn(dir, token);
  const tokenFile = join(dir, 'tokens.csv');
  writeFileSync(tokenFile, `${token},keyward-admin,keyward-admin,"system:masters"\n`, { mode: 0o600 });

  const auditPolicy = join(dir, 'audit-policy.yaml');
  writeFileSync(auditPolicy, AUDIT_POLICY);
  const auditLog = join(dir, 'audit.log');

  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = join(dir, 'sa.key');
  const verifyKey = join(dir, 'sa.pub');
  writeFileSync(signingKey, keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(verifyKey, keys.publicKey.export({ type: 'spki', format: 'pem' }));

  const apiserver = ManagedProcess.start(
    {
      component: 'kube-apiserver',
      command: binary,
      args: [
        `--etcd-servers=${etcdUrl}`,
        `--bind-address=${host}`,
        `--advertise-address=${host}`,
        `--secure-port=${String(port)}`,
        `--cert-dir=${certDir}`,
        `--token-auth-file=${tokenFile}`,
        '--authorization-mode=RBAC',
        `--service-account-key-file=${verifyKey}`,
        `--service-account-signing-key-file=${signingKey}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        '--service-cluster-ip-range=10.0.0.0/24',
        '--allow-privileged=true',
        // The workload tier's node name resolves nowhere: pods' logs are fetched from kubelet on the node IP.
        '--kubelet-preferred-address-types=InternalIP',
        `--audit-policy-file=${auditPolicy}`,
        `--audit-log-path=${auditLog}`,
        '--audit-log-format=json',
        // Events are written by the request's own goroutine, not batched in the background.
        '--audit-log-mode=blocking',
        '--v=1',
      ],
      logFile: join(dir, 'kube-apiserver.log'),
    },
    ownership,
  );
  const abortIf = (): void => {
    apiserver.assertRunning();
  };

  const server = `https://${host}:${String(port)}`;
  // The self-signed apiserver.crt holds the serving certificate followed by its CA.
  const caPem = await waitFor(() => Promise.resolve(readFileSync(join(certDir, 'apiserver.crt'), 'utf8')), {
    what: 'kube-apiserver serving certificate',
    timeoutMs: READY_TIMEOUT_MS,
    abortIf,
  });
  const headers = { authorization: `Bearer ${token}` };
  await waitForApiServerReady({ server, caPem, token }, abortIf);
  await waitFor(
    () => probeStatus(`${server}/api/v1/namespaces/default`, 200, { ca: caPem, headers }),
    { what: 'the default namespace', timeoutMs: READY_TIMEOUT_MS, intervalMs: 500, abortIf },
  );

  const access: ClusterAccess = { server, caPem, token, user: 'keyward-admin' };
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, access);
  return { access, kubeconfig, auditLog, serviceAccounts: { signingKey, rootCa: join(certDir, 'apiserver.crt') }, process: apiserver };
}

/** Waits until kube-apiserver's /readyz answers 200. */
export async function waitForApiServerReady(access: Pick<ClusterAccess, 'server' | 'caPem' | 'token'>, abortIf: () => void): Promise<void> {
  await waitFor(
    () => probeStatus(`${access.server}/readyz`, 200, { ca: access.caPem, headers: { authorization: `Bearer ${access.token}` } }),
    { what: 'kube-apiserver /readyz', timeoutMs: READY_TIMEOUT_MS, intervalMs: 500, abortIf },
  );
}
