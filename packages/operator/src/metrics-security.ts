import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { KubeClient } from '@keyward/runtime/io';
import { kubeMetricsAccess, selfSignedCertificate, type MetricsAccess, type ServingCertificate } from '@keyward/runtime/controller';
import type { OperatorConfig } from './config.js';

/** How long the self-signed certificate is valid; a restart makes a new one. */
const SELF_SIGNED_DAYS = 365;

/**
 * The secure metrics server's certificate and access check, or undefined for plain HTTP (--no-metrics-secure)
 * or no metrics server:
 * the certificate of --metrics-cert-file/--metrics-key-file, else a self-signed one for the pod's name and
 * address; access by TokenReview and SubjectAccessReview through the operator's own client.
 */
export function metricsSecurity(config: OperatorConfig, kube: KubeClient): { tls: ServingCertificate; access: MetricsAccess } | undefined {
  if (!config.metricsSecure || config.metricsBindAddress === 'disabled') return undefined;
  const tls =
    config.metricsCertFile !== undefined && config.metricsKeyFile !== undefined
      ? { cert: readFileSync(config.metricsCertFile, 'utf8'), key: readFileSync(config.metricsKeyFile, 'utf8') }
      : selfSignedCertificate({
          commonName: 'keyward-metrics',
          hosts: ['localhost', hostname(), ...(config.metricsBindAddress.host === undefined ? [] : [config.metricsBindAddress.host])],
          notBefore: new Date(),
          validForDays: SELF_SIGNED_DAYS,
        });
  return { tls, access: kubeMetricsAccess(kube) };
}
