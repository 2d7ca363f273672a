import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceAccountSigning } from './apiserver.js';
import { ManagedProcess, type Ownership } from './process.js';

/**
 * Without pods, only these run: owner-reference cleanup, namespace deletion, and what the ServiceAccount admission
 * plugin relies on: every namespace's default ServiceAccount, the tokens of ServiceAccount token Secrets, and the
 * kube-root-ca.crt ConfigMap with the CA that pods trust the API server by.
 */
const CONTROL_PLANE_CONTROLLERS = [
  'garbage-collector-controller',
  'namespace-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
  'root-ca-certificate-publisher-controller',
];
/**
 * With the workload tier, also what running workloads needs: node-lifecycle lifts the node's not-ready taint (pods
 * are never scheduled otherwise), Deployments and ReplicaSets make pods, Jobs and CronJobs run, autoscalers keep a
 * Deployment within their bounds (no metrics are served, so they only enforce those), and Endpoints and
 * EndpointSlices tell kube-proxy where a Service's pods are.
 */
const WORKLOAD_CONTROLLERS = [
  'node-lifecycle-controller',
  'deployment-controller',
  'replicaset-controller',
  'statefulset-controller',
  'job-controller',
  'cronjob-controller',
  'horizontal-pod-autoscaler-controller',
  'endpoints-controller',
  'endpointslice-controller',
];

/**
 * Starts kube-controller-manager with only the controllers the environment needs (see above). It serves no port.
 * GC re-reads discovery every 30 s, so it should start after the CRDs are installed.
 */
export async function startControllerManager(
  binary: string,
  kubeconfig: string,
  serviceAccounts: ServiceAccountSigning,
  dir: string,
  ownership: Ownership,
  workloads = false,
): Promise<ManagedProcess> {
  const manager = ManagedProcess.start(
    {
      component: 'kube-controller-manager',
      command: binary,
      args: [
        `--kubeconfig=${kubeconfig}`,
        `--controllers=${[...CONTROL_PLANE_CONTROLLERS, ...(workloads ? WORKLOAD_CONTROLLERS : [])].join(',')}`,
        '--leader-elect=false',
        '--secure-port=0',
        '--use-service-account-credentials=false',
        `--service-account-private-key-file=${serviceAccounts.signingKey}`,
        `--root-ca-file=${serviceAccounts.rootCa}`,
        '--v=1',
      ],
      logFile: join(dir, 'kube-controller-manager.log'),
    },
    ownership,
  );
  // No endpoint to probe: a bad flag or kubeconfig makes it exit within a second or two.
  await sleep(2_000);
  manager.assertRunning();
  return manager;
}
