import { createHash } from 'node:crypto';
import type { KubeClient } from '../apis/kubernetes/io/client.js';

/** What a request for the metrics gets: served, or refused with the status and a short reason. */
export type AccessVerdict = { readonly allowed: true } | { readonly allowed: false; readonly status: 401 | 403 | 500; readonly reason: string };

/** Decides whether the request with this Authorization header may read the metrics. */
export type MetricsAccess = (authorization: string | undefined) => Promise<AccessVerdict>;

export interface KubeMetricsAccessOptions {
  /** The non-resource URL the SubjectAccessReview asks about; default "/metrics". */
  readonly path?: string;
  /** How long an answer of the API server is reused for the same token; default 60 s (10 s for a refusal). */
  readonly allowedTtlMs?: number;
  readonly deniedTtlMs?: number;
  /** Milliseconds now; default Date.now. */
  readonly now?: () => number;
}

interface TokenReviewStatus {
  readonly authenticated?: boolean;
  readonly error?: string;
  readonly user?: { readonly username?: string; readonly uid?: string; readonly groups?: readonly string[]; readonly extra?: Readonly<Record<string, readonly string[]>> };
}

const ALLOWED: AccessVerdict = { allowed: true };

/**
 * Access to /metrics as controller-runtime's secure metrics server grants it: the bearer token is authenticated
 * by a TokenReview and the user it names authorized by a SubjectAccessReview for `get` on the non-resource URL
 * /metrics (which the ClusterRole keyward-metrics-reader grants). Answers are kept briefly per token (by its
 * hash, never the token itself), so a scrape every few seconds costs the API server two requests a minute.
 */
export function kubeMetricsAccess(kube: KubeClient, options: KubeMetricsAccessOptions = {}): MetricsAccess {
  const path = options.path ?? '/metrics';
  const now = options.now ?? Date.now;
  const allowedTtl = options.allowedTtlMs ?? 60_000;
  const deniedTtl = options.deniedTtlMs ?? 10_000;
  const answers = new Map<string, { readonly verdict: AccessVerdict; readonly until: number }>();

  const review = async (token: string): Promise<AccessVerdict> => {
    const tokenReview = await kube.raw<{ status?: TokenReviewStatus }>({
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/tokenreviews',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
      what: 'create TokenReview',
      verb: 'create',
      resource: 'tokenreviews',
    });
    const user = tokenReview.status?.user;
    if (tokenReview.status?.authenticated !== true || user?.username === undefined) return { allowed: false, status: 401, reason: 'the token is not valid' };
    const accessReview = await kube.raw<{ status?: { allowed?: boolean } }>({
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: user.username, uid: user.uid, groups: user.groups, extra: user.extra, nonResourceAttributes: { path, verb: 'get' } },
      },
      what: 'create SubjectAccessReview',
      verb: 'create',
      resource: 'subjectaccessreviews',
    });
    return accessReview.status?.allowed === true ? ALLOWED : { allowed: false, status: 403, reason: `${user.username} may not get ${path}` };
  };

  return async (authorization) => {
    const token = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (token === undefined) return { allowed: false, status: 401, reason: 'a bearer token is required' };
    const key = createHash('sha256').update(token).digest('hex');
    const known = answers.get(key);
    if (known !== undefined && known.until > now()) return known.verdict;
    let verdict: AccessVerdict;
    try {
      verdict = await review(token);
    } catch {
      // Not kept: the next scrape asks again. The error may quote the request, so it is not passed on.
      return { allowed: false, status: 500, reason: 'the API server could not review the request' };
    }
    // Expired answers go as new ones come, so the map holds at most the scrapers of the last minute.
    for (const [other, answer] of answers) if (answer.until <= now()) answers.delete(other);
    answers.set(key, { verdict, until: now() + (verdict.allowed ? allowedTtl : deniedTtl) });
    return verdict;
  };
}
